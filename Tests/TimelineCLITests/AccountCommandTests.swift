import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TimelineKit

/// `timeline login`, `accounts` and `logout` against the loopback Mastodon server.
@Suite struct AccountCommandTests {
    /// A scenario whose accounts file lives in its own directory.
    static func scenario() -> (Scenario, accountsFile: String) {
        let scenario = Scenario()
        let configuration = scenario.directory + "/config"
        scenario.timeline.environment["XDG_CONFIG_HOME"] = configuration
        return (scenario, configuration + "/timeline/accounts.json")
    }

    static func permissions(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func loginWithATokenOnStandardInputStoresAPrivateAccountAndNoDatabase() throws {
        let server = try MastodonTestServer()
        let (scenario, accountsFile) = Self.scenario()
        let login = try scenario.timeline.run(["login", "mastodon", server.baseURL, "--token-stdin"],
                                              input: Data((MastodonTestServer.token + "\n").utf8))
        #expect(login.status == 0, "\(login.errors)")
        let name = "tester@127.0.0.1:\(server.port)"
        #expect(login.output == "Logged in to \(server.baseURL) as @tester (account \(name)).\n" + LoginNextStep.text)
        #expect(try Self.permissions(accountsFile) == 0o600)
        #expect(try Self.permissions((accountsFile as NSString).deletingLastPathComponent) == 0o700)
        // Logging in is not a timeline write: no database, no snapshot.
        #expect(!FileManager.default.fileExists(atPath: scenario.databasePath))
        #expect(!FileManager.default.fileExists(atPath: scenario.snapshotPath))

        let listed = try scenario.timeline.run(["accounts"])
        #expect(listed.output.hasPrefix("\(name)  \(server.baseURL)  @tester  (token in "))
        let json = try scenario.timeline.run(["accounts", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(object["name"] as? String == name)
        #expect(object["server"] as? String == server.baseURL)
        #expect(object["account_id"] as? String == "1")
        #expect(object["acct"] as? String == "tester")
        #expect(object["token_source"] as? String == "file")
        #expect(object["revocable"] as? Bool == false)

        // The same login under another name is a second account; the same name replaces.
        let named = try scenario.timeline.run(["login", "mastodon", server.baseURL, "--token-stdin", "--name", "work"],
                                              input: Data(MastodonTestServer.token.utf8))
        #expect(named.output.contains("(account work)"))
        let again = try scenario.timeline.run(["login", "mastodon", server.baseURL, "--token-stdin", "--name", "work"],
                                              input: Data(MastodonTestServer.token.utf8))
        #expect(again.output.contains("replacing the earlier login of that name"))
        #expect(try scenario.timeline.run(["accounts", "--json"]).output.split(separator: "\n").count == 2)

        for result in [login, listed, json, named, again] {
            #expect(!(result.output + result.errors).contains(MastodonTestServer.token))
        }
    }

    @Test func aRefusedTokenAnUnreachableServerAndPlainHTTPEachHaveTheirStatus() throws {
        let server = try MastodonTestServer()
        let (scenario, accountsFile) = Self.scenario()
        let refused = try scenario.timeline.run(["login", "mastodon", server.baseURL, "--token-stdin"], input: Data("not-the-token\n".utf8))
        #expect(refused.status == 77)
        #expect(refused.errors.contains("refused the credentials (HTTP 401"))
        #expect(refused.errors.contains("timeline login mastodon \(server.baseURL)"))
        #expect(!refused.errors.contains("not-the-token"))

        let port = try ChildProcesses.unusedPort()
        let unreachable = try scenario.timeline.run(["login", "mastodon", "http://127.0.0.1:\(port)", "--token-stdin"], input: Data("t\n".utf8))
        #expect(unreachable.status == 69)
        #expect(unreachable.errors.contains("Cannot reach http://127.0.0.1:\(port)"))

        let insecure = try scenario.timeline.run(["login", "mastodon", "http://mastodon.example", "--token-stdin"], input: Data("t\n".utf8))
        #expect(insecure.status == 64)
        #expect(insecure.errors.contains("plain http"))

        try server.control("faults", ["path": "/api/v1/accounts/verify_credentials", "status": 503])
        let failing = try scenario.timeline.run(["login", "mastodon", server.baseURL, "--token-stdin"], input: Data((MastodonTestServer.token + "\n").utf8))
        #expect(failing.status == 75)
        #expect(failing.errors.contains("Try again later"))

        let empty = try scenario.timeline.run(["login", "mastodon", server.baseURL, "--token-stdin"], input: Data())
        #expect(empty.status == 64)
        #expect(empty.errors.contains("found no access token"))

        let bluesky = try scenario.timeline.run(["login", "bluesky", server.baseURL])
        #expect(bluesky.status == 64)
        // Nothing was stored by any of them.
        #expect(!FileManager.default.fileExists(atPath: accountsFile))
    }

    @Test func loginInABrowserUsesPKCEAndLogoutRevokesTheToken() throws {
        let server = try MastodonTestServer()
        let (scenario, accountsFile) = Self.scenario()
        let login = try InteractiveLogin(scenario: scenario, arguments: ["login", "mastodon", server.baseURL, "--name", "me"])
        let page = try login.authorizationURL()
        #expect(page.hasPrefix("\(server.baseURL)/oauth/authorize?client_id="))
        #expect(page.contains("&scope=read%20write&"))
        #expect(page.contains("&redirect_uri=urn%3Aietf%3Awg%3Aoauth%3A2.0%3Aoob&response_type=code&code_challenge="))
        #expect(page.hasSuffix("&code_challenge_method=S256"))
        // The person approves in the browser and copies the code (the server checks the PKCE
        // verifier against this challenge when the code is exchanged).
        let result = try login.finish(code: try Self.approve(page))
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output == "Logged in to \(server.baseURL) as @tester (account me).\n" + LoginNextStep.text)

        let paths = try server.requests().map { "\($0["method"] as? String ?? "") \($0["path"] as? String ?? "")" }
        #expect(paths == ["POST /api/v1/apps", "GET /.well-known/oauth-authorization-server", "GET /oauth/authorize",
                          "POST /oauth/token", "GET /api/v1/accounts/verify_credentials"])
        let stored = try Self.storedAccount(accountsFile)
        let token = try #require(stored["token"] as? String)
        #expect(stored["client_id"] is String && stored["client_secret"] is String)
        #expect(try scenario.timeline.run(["accounts", "--json"]).output.contains(#""revocable":true"#))

        let logout = try scenario.timeline.run(["logout", "me"])
        #expect(logout.status == 0)
        #expect(logout.output == "Logged out of me. The token was revoked at \(server.baseURL).\n")
        #expect(try server.state()["revoked_token_sha256"] as? [String] == [Self.sha256(token)])
        #expect(try scenario.timeline.run(["accounts"]).output.hasPrefix("No accounts."))
        let unknown = try scenario.timeline.run(["logout", "me"])
        #expect(unknown.status == 64)
        #expect(unknown.errors.contains("No account is named me"))

        for output in [result.output, result.errors, logout.output, logout.errors] {
            #expect(!output.contains(token))
        }
    }

    @Test func loginWithoutPKCEWhenTheServerOffersNone() throws {
        let server = try MastodonTestServer()
        try server.control("settings", ["pkce": false])
        let (scenario, _) = Self.scenario()
        let login = try InteractiveLogin(scenario: scenario, arguments: ["login", "mastodon", server.baseURL])
        let page = try login.authorizationURL()
        #expect(!page.contains("code_challenge"))
        #expect(try login.finish(code: try Self.approve(page)).status == 0)
    }

    @Test func aWrongCodeIsRefusedAndNothingIsStored() throws {
        let server = try MastodonTestServer()
        let (scenario, accountsFile) = Self.scenario()
        let login = try InteractiveLogin(scenario: scenario, arguments: ["login", "mastodon", server.baseURL])
        _ = try Self.approve(try login.authorizationURL())
        let result = try login.finish(code: "not-the-code")
        #expect(result.status == 77)
        #expect(result.errors.contains("refused the credentials (HTTP 400: invalid_grant)"))
        #expect(!FileManager.default.fileExists(atPath: accountsFile))
    }

    @Test func logoutForgetsTheAccountEvenWhenRevokingFails() throws {
        let server = try MastodonTestServer()
        let (scenario, _) = Self.scenario()
        let login = try InteractiveLogin(scenario: scenario, arguments: ["login", "mastodon", server.baseURL, "--name", "me"])
        #expect(try login.finish(code: try Self.approve(try login.authorizationURL())).status == 0)
        try server.control("faults", ["path": "/oauth/revoke", "status": 500])
        let logout = try scenario.timeline.run(["logout", "me"])
        #expect(logout.status == 0)
        #expect(logout.output == "Logged out of me.\n")
        #expect(logout.errors.contains("the token could not be revoked"))
        #expect(try scenario.timeline.run(["accounts"]).output.hasPrefix("No accounts."))
    }

    @Test func anAccountsFileOthersCanReadIsRefused() throws {
        let server = try MastodonTestServer()
        let (scenario, accountsFile) = Self.scenario()
        _ = try scenario.timeline.run(["login", "mastodon", server.baseURL, "--token-stdin"], input: Data(MastodonTestServer.token.utf8))
        for mode in [0o640, 0o604, 0o660, 0o602] {
            chmod(accountsFile, mode_t(mode))
            for arguments in [["accounts"], ["logout", "tester@127.0.0.1:\(server.port)"],
                              ["login", "mastodon", server.baseURL, "--token-stdin"]] {
                let refused = try scenario.timeline.run(arguments, input: Data(MastodonTestServer.token.utf8))
                #expect(refused.status == 78)
                #expect(refused.errors.contains("\(accountsFile) holds access tokens but its permissions (\(String(mode, radix: 8)))"))
                #expect(refused.errors.contains("Run: chmod 600 \(accountsFile)"))
            }
        }
        chmod(accountsFile, 0o600)
        #expect(try scenario.timeline.run(["accounts"]).status == 0)
        // Owned by someone else (only root can hand a file to another user).
        if getuid() == 0 {
            chown(accountsFile, 65534, 65534)
            let foreign = try scenario.timeline.run(["accounts"])
            #expect(foreign.status == 78)
            #expect(foreign.errors.contains("belongs to another user"))
        }
    }

    @Test func httpsUsesTheSystemsTrustAndRefusesAnUnknownCertificate() throws {
        let server = try MastodonTestServer(tls: true)
        let (scenario, accountsFile) = Self.scenario()
        let untrusted = try scenario.timeline.run(["login", "mastodon", server.baseURL, "--token-stdin"], input: Data(MastodonTestServer.token.utf8))
        #expect(untrusted.status == 69)
        #expect(untrusted.errors.contains("TLS certificate could not be verified"))
        #expect(!FileManager.default.fileExists(atPath: accountsFile))
        // Trusting the test CA the way curl is told to (as a company's CA would be) is enough.
        scenario.timeline.environment["CURL_CA_BUNDLE"] = MastodonTestServer.certificateAuthority
        let trusted = try scenario.timeline.run(["login", "mastodon", server.baseURL, "--token-stdin"], input: Data(MastodonTestServer.token.utf8))
        #expect(trusted.status == 0, "\(trusted.errors)")
        #expect(trusted.output.contains("Logged in to \(server.baseURL) as @tester"))
    }

    @Test func aTokenCommandIsStoredInsteadOfTheToken() throws {
        let server = try MastodonTestServer()
        let (scenario, accountsFile) = Self.scenario()
        let tokenFile = scenario.directory + "/token"
        try Data((MastodonTestServer.token + "\n").utf8).write(to: URL(fileURLWithPath: tokenFile))
        let login = try scenario.timeline.run(["login", "mastodon", server.baseURL, "--token-command", "cat '\(tokenFile)'"])
        #expect(login.status == 0, "\(login.errors)")
        let stored = try Self.storedAccount(accountsFile)
        #expect(stored["token"] == nil)
        #expect(stored["token_command"] as? String == "cat '\(tokenFile)'")
        #expect(try scenario.timeline.run(["accounts", "--json"]).output.contains(#""token_source":"command""#))

        let failing = try scenario.timeline.run(["login", "mastodon", server.baseURL, "--token-command", "exit 3"])
        #expect(failing.status == 77)
        #expect(failing.errors.contains("(exit 3) failed with exit status 3"))
        #expect(!(login.output + login.errors).contains(MastodonTestServer.token))
    }

    // MARK: - Helpers

    static func storedAccount(_ path: String) throws -> [String: Any] {
        let file = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        return try #require((file?["accounts"] as? [[String: Any]])?.first)
    }

    /// What the person's browser does: loads the page (the server approves at once) and finds
    /// the code on it.
    static func approve(_ page: String) throws -> String {
        let html = String(decoding: try MastodonTestServer.fetch(URLRequest(url: URL(string: page)!)), as: UTF8.self)
        let start = try #require(html.range(of: "value='"))
        return String(html[start.upperBound...].prefix { $0 != "'" })
    }

    static func sha256(_ text: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import hashlib,sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        PipeInput.write(Data(text.utf8), to: input.fileHandleForWriting)
        try input.fileHandleForWriting.close()
        let digest = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: digest, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// `timeline login` in the out-of-band flow, driven as a person would: read the page it prints,
/// then type the code on its standard input.
final class InteractiveLogin {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private var errorText = ""

    convenience init(scenario: Scenario, arguments: [String]) throws {
        try self.init(executable: TimelineProcess.executable, environment: scenario.timeline.environment, arguments: arguments)
    }

    init(executable: String, environment: [String: String], arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    /// Reads standard error until the authorization page's line has come.
    func authorizationURL() throws -> String {
        while true {
            if let line = errorText.split(separator: "\n").first(where: { $0.hasPrefix("  http") }) {
                return line.trimmingCharacters(in: .whitespaces)
            }
            let more = errors.fileHandleForReading.availableData
            if more.isEmpty { throw MastodonTestServer.StartFailure(description: "login ended before printing a page: \(errorText)") }
            errorText += String(decoding: more, as: UTF8.self)
        }
    }

    /// Types `code` and Enter, and waits for the end.
    func finish(code: String) throws -> TimelineProcess.Result {
        PipeInput.write(Data((code + "\n").utf8), to: input.fileHandleForWriting)
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        errorText += String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return TimelineProcess.Result(status: process.terminationStatus, output: String(decoding: out, as: UTF8.self), errors: errorText)
    }
}
