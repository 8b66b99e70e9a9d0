import Foundation
import Testing
@testable import TimelineKit

@Suite struct AccountStoreTests {
    static let token = AccessToken("token-abc.DEF_123~+/=")!

    static func account(_ name: String = "alice@example.social", secret: Account.Secret = .token(token)) -> Account {
        Account(name: name, network: .mastodon, server: "https://example.social", accountID: "42", acct: "alice",
                client: OAuthClient(id: "client-1", secret: "client-secret-1"), secret: secret)
    }

    static func permissions(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func accountsRoundTripThroughAPrivateFileInAFixedOrder() throws {
        let directory = TemporaryDirectory()
        let store = AccountStore(directory: directory.file("config/timeline"))
        #expect(try store.accounts().isEmpty)  // no file yet: no accounts, and nothing created
        #expect(!FileManager.default.fileExists(atPath: store.directory))

        #expect(try store.save(Self.account()) == nil)
        try store.save(Self.account("work", secret: .command("pass show work")))
        #expect(try store.accounts() == [Self.account(), Self.account("work", secret: .command("pass show work"))])
        #expect(try Self.permissions(store.path) == 0o600)
        #expect(try Self.permissions(store.directory) == 0o700)
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: store.path)), as: UTF8.self) == """
            {
              "version": 1,
              "accounts": [
                {
                  "name": "alice@example.social",
                  "network": "mastodon",
                  "server": "https://example.social",
                  "account_id": "42",
                  "acct": "alice",
                  "client_id": "client-1",
                  "client_secret": "client-secret-1",
                  "token": "token-abc.DEF_123~+/="
                },
                {
                  "name": "work",
                  "network": "mastodon",
                  "server": "https://example.social",
                  "account_id": "42",
                  "acct": "alice",
                  "client_id": "client-1",
                  "client_secret": "client-secret-1",
                  "token_command": "pass show work"
                }
              ]
            }

            """)

        var changed = Self.account()
        changed.accountID = "43"
        // Another account of that name replaces it only when the person says so (issue 24);
        // the same account logged in again (a new token) needs nothing.
        #expect(throws: AccountError.nameTaken(name: "alice@example.social", network: "mastodon", server: "https://example.social")) {
            try store.save(changed)
        }
        var again = Self.account()
        again.secret = .command("pass show alice")
        #expect(try store.save(again) == Self.account())
        #expect(try store.save(changed, replacing: true) == again)
        #expect(try store.account(named: "alice@example.social").accountID == "43")
        #expect(try store.remove(named: "work").name == "work")
        #expect(throws: AccountError.unknownAccount(name: "work", known: ["alice@example.social"])) { try store.remove(named: "work") }
        #expect(try store.credentials(named: nil).map(\.token) == [Self.token])
    }

    @Test func aFileOthersCanReadOrChangeIsRefusedLikeSSHDoes() throws {
        let directory = TemporaryDirectory()
        let store = AccountStore(directory: directory.path)
        try store.save(Self.account())
        for mode in [0o644, 0o640, 0o620, 0o606, 0o601, 0o610] {
            chmod(store.path, mode_t(mode))
            #expect(throws: AccountError.readableByOthers(path: store.path, permissions: UInt32(mode))) { try store.accounts() }
            #expect(throws: AccountError.readableByOthers(path: store.path, permissions: UInt32(mode))) { try store.save(Self.account("b")) }
        }
        let error = AccountError.readableByOthers(path: store.path, permissions: 0o644)
        #expect(error.description.hasSuffix("Run: chmod 600 \(store.path)"))
        chmod(store.path, 0o400)
        #expect(try store.accounts().count == 1)
    }

    @Test func aHandEditedFileSaysWhatIsWrongAndWhere() throws {
        let directory = TemporaryDirectory()
        let store = AccountStore(directory: directory.path)
        func write(_ text: String) throws {
            _ = FileManager.default.createFile(atPath: store.path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
            chmod(store.path, 0o600)
        }
        func reason(_ text: String) throws -> String {
            try write(text)
            do {
                _ = try store.accounts()
                // One bad entry is set aside (issue 24): the others stay usable, and it is said.
                return try store.unreadableEntries().first?.reason ?? "no error"
            } catch {
                guard case let .invalidFile(path, reason) = error else { return "\(error)" }
                #expect(path == store.path)
                return reason
            }
        }
        let base = #""name": "a", "network": "mastodon", "server": "https://example.social", "account_id": "1", "acct": "a""#
        #expect(try reason(#"{"version": 1, "accounts": [{\#(base)}]}"#) == "line 1, column 29: accounts[0]: it has neither token nor token_command; give one")
        #expect(try reason(#"{"version": 1, "accounts": [{\#(base), "token": "t", "token_command": "c"}]}"#).hasSuffix("accounts[0]: it has both token and token_command; keep one"))
        #expect(try reason(#"{"version": 1, "accounts": [{\#(base), "token": "has space"}]}"#).hasSuffix("accounts[0]: token is not a valid access token (empty, or with spaces or control characters)"))
        #expect(try reason(#"{"version": 1, "accounts": [{"name": "a", "network": "mastodon", "account_id": "1", "acct": "a", "token": "t"}]}"#) == "line 1, column 29: accounts[0]: the field server is missing")
        #expect(try reason(#"{"version": 1, "accounts": [{"name": "a", "network": "mastodon", "server": "http://example.social", "account_id": "1", "acct": "a", "token": "t"}]}"#).contains("plain http"))
        #expect(try reason(#"{"version": 1, "accounts": [{\#(base), "token": "t"}, {\#(base), "token": "u"}]}"#).hasSuffix("accounts[1]: the name is used twice; only its first entry is used"))
        #expect(try reason(#"{"version": "1", "accounts": []}"#) == "line 1, column 13: version must be a whole number")
        #expect(try reason(#"{"version": 1}"#) == "line 1, column 1: accounts must be an array")
        let unfinished = try reason(#"{"version": 1, "accounts": ["#)
        #expect(unfinished.contains("malformed JSON"), "\(unfinished)")
        #expect(try reason(#"{"version": 1, "accounts": []} {}"#) == "line 1, column 31: malformed JSON: more follows the document.")
        // A person's edit, several lines in: the place is the line and column in the editor.
        let edited = """
            {
              "version": 1,
              "accounts": [
                {
                  "name": "a", "network": "mastodon", "server": "https://example.social", "account_id": "1", "acct": "a",
                  "token": 5
                }
              ]
            }
            """
        #expect(try reason(edited) == "line 6, column 16: accounts[0]: token must be a string")
        try write(#"{"version": 2, "accounts": []}"#)
        #expect(throws: AccountError.newerFile(path: store.path, version: 2)) { try store.accounts() }
        // The token of a bad entry is never quoted.
        #expect(try !reason(#"{"version": 1, "accounts": [{\#(base), "token": "sekrit value"}]}"#).contains("sekrit"))
    }

    @Test func accountsOfANetworkThisVersionDoesNotKnowAreKeptAsTheyAre() throws {
        let directory = TemporaryDirectory()
        let store = AccountStore(directory: directory.path)
        let future = #"{"name": "me.future.example", "network": "future-network", "server": "https://future.example", "account_id": "x", "acct": "me", "token": "t"}"#
        _ = FileManager.default.createFile(atPath: store.path, contents: Data(#"{"version": 1, "accounts": [\#(future)]}"#.utf8))
        chmod(store.path, 0o600)
        #expect(try store.accounts().isEmpty)
        try store.save(Self.account())
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: store.path)), as: UTF8.self)
        #expect(text.contains(#""network": "future-network""#))
        #expect(text.contains(#""account_id": "x""#))
        #expect(try store.accounts() == [Self.account()])
    }

    @Test func aBlueskySessionIsStoredWithBothTokensAndItsPDSAndRefusedWithoutThem() throws {
        let directory = TemporaryDirectory()
        let store = AccountStore(directory: directory.path)
        let session = BlueskySession(did: "did:plc:alice", handle: "alice.test", accessToken: AccessToken("access-1")!,
                                     refreshToken: AccessToken("refresh-1")!, pds: "https://pds.example")
        let account = Account(name: "alice.test", network: .bluesky, server: "https://bsky.social", accountID: "did:plc:alice",
                              acct: "alice.test", client: nil, secret: .session(session.renewable))
        try store.save(account)
        #expect(try store.accounts() == [account])
        #expect(try store.credentials(named: "alice.test").map(\.token.value) == ["access-1"])
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: store.path)), as: UTF8.self)
        #expect(text.contains(#""token": "refresh-1""#) && text.contains(#""access_token": "access-1""#) && text.contains(#""pds": "https://pds.example""#))
        // Without its access token, an entry is no session: log in again (and the tokens are not quoted).
        let broken = text.replacingOccurrences(of: #""access_token": "access-1","#, with: "")
        _ = FileManager.default.createFile(atPath: store.path, contents: Data(broken.utf8))
        chmod(store.path, 0o600)
        #expect(try store.accounts().isEmpty)
        let unusable = try store.unreadableEntries()
        #expect(unusable.map(\.name) == ["alice.test"])
        #expect(unusable.first?.reason.contains("log in again") == true)
        #expect(unusable.first?.reason.contains("refresh-1") == false)
    }

    @Test func aBlueskyEntryWhoseIDIsNoDIDIsRefusedInTheNetworksOwnWords() throws {
        let directory = TemporaryDirectory()
        let store = AccountStore(directory: directory.path)
        let session = RenewableSession(accessToken: AccessToken("access-1")!, refreshToken: AccessToken("refresh-1")!, service: nil)
        try store.save(Account(name: "alice.test", network: .bluesky, server: "https://bsky.social", accountID: "alice",
                               acct: "alice.test", client: nil, secret: .session(session)))
        #expect(try store.accounts().isEmpty)
        let unusable = try store.unreadableEntries()
        #expect(unusable.map(\.name) == ["alice.test"])
        #expect(unusable.first?.reason.contains("account_id of a bluesky account must be its DID") == true)
    }

    @Test func theStandardDirectoryFollowsXDGThenHome() throws {
        #expect(try AccountStore.standard { ["XDG_CONFIG_HOME": "/x/config", "HOME": "/home/a"][$0] }.path == "/x/config/timeline/accounts.json")
        // A relative XDG_CONFIG_HOME is ignored, as the specification says.
        #expect(try AccountStore.standard { ["XDG_CONFIG_HOME": "config", "HOME": "/home/a"][$0] }.directory == "/home/a/.config/timeline")
        #expect(throws: AccountError.noConfigurationDirectory) { try AccountStore.standard { _ in nil } }
    }

    @Test func aTokenCommandPrintsTheToken() throws {
        let directory = TemporaryDirectory()
        let store = AccountStore(directory: directory.path)
        try store.save(Self.account("ok", secret: .command("printf '  %s  \\r\\nsecond line\\n' 'token-from-command'")))
        try store.save(Self.account("fails", secret: .command("echo oops >&2; exit 4")))
        try store.save(Self.account("silent", secret: .command("true")))
        try store.save(Self.account("spaced", secret: .command("echo two words")))
        try store.save(Self.account("killed", secret: .command("kill -9 $$")))
        #expect(try store.credentials(named: "ok").map(\.token.value) == ["token-from-command"])
        for (name, reason) in [("fails", "failed with exit status 4"), ("silent", "did not print a token (its first line is empty or holds spaces or control characters)"),
                               ("spaced", "did not print a token (its first line is empty or holds spaces or control characters)"), ("killed", "was ended by signal 9")] {
            let command = try store.account(named: name).secret
            guard case let .command(text) = command else { continue }
            #expect(throws: AccountError.tokenCommandFailed(account: name, command: text, reason: reason)) {
                try store.credentials(named: name)
            }
        }
        #expect(throws: AccountError.self) { try TokenCommand.run("sleep 30", account: "slow", timeout: .milliseconds(200)) }
        #expect(throws: AccountError.self) { try TokenCommand.run("yes", account: "endless") }
    }

    @Test func tokensNeverPrintThemselves() {
        let token = AccessToken("visible-only-on-purpose")!
        let client = OAuthClient(id: "id", secret: "client-secret-value")
        let account = Self.account(secret: .token(token))
        var dumped = ""
        dump(account, to: &dumped)
        dump(client, to: &dumped)
        for text in ["\(token)", String(describing: token), String(reflecting: token), "\(account)", "\(client)", "\([token])", dumped] {
            #expect(!text.contains("visible-only-on-purpose") && !text.contains("client-secret-value"), "\(text)")
        }
        #expect(token.authorizationHeader == HTTPHeader(name: "Authorization", value: "Bearer visible-only-on-purpose"))
        #expect(AccessToken(reading: "  abc \r\nmore") == AccessToken("abc"))
        #expect(AccessToken("") == nil && AccessToken("a b") == nil && AccessToken("a\u{7}") == nil && AccessToken("é") == nil)
    }
}
