import Foundation
import Testing
@testable import TimelineKit

/// One protocol for an account's network session (issue 26): the factory makes each network's
/// conformance, and each does what the command line used to ask of `MastodonSync` and
/// `BlueskySync` by name, against the in-memory servers of those tests.
@Suite struct AccountSessionTests {
    private static func mastodonAccount(client: OAuthClient? = nil, secret: Account.Secret = .token(AccessToken("token")!)) -> Account {
        Account(name: "me@social.example", network: .mastodon, server: FakeMastodonServer.base, accountID: "0", acct: "me",
                client: client, secret: secret)
    }

    /// A Bluesky account whose session the fake PDS opened, stored in `accounts`.
    private static func blueskyAccount(_ pds: FakePDS, in accounts: AccountStore) async throws -> Account {
        let login = try #require(Account.Network.bluesky.loginMethodAppPassword)
        let account = try await login.logIn(service: try ServerAddress(FakePDS.entryway), identifier: "alice.test",
                                            password: FakePDS.password, name: nil, transport: pds)
        try accounts.save(account)
        return account
    }

    @Test func theFactoryMakesEachNetworksOwnSession() throws {
        let directory = TemporaryDirectory()
        let accounts = AccountStore(directory: directory.path)
        let mastodon = try accounts.session(for: Self.mastodonAccount(), transport: FakeMastodonServer())
        #expect(mastodon is MastodonAccountSession)
        #expect(mastodon.refusal(of: .readMarker) == nil)
        #expect(mastodon.refusal(of: .notificationsSeen) != nil)
        let bluesky = try accounts.session(for: Account(name: "alice.test", network: .bluesky, server: FakePDS.entryway, accountID: "did:plc:u0",
                                                       acct: "alice.test", client: nil,
                                                       secret: .session(BlueskySession(did: "did:plc:u0", handle: "alice.test", accessToken: AccessToken("a")!,
                                                                                       refreshToken: AccessToken("r")!, pds: nil).renewable)),
                                           transport: FakePDS())
        #expect(bluesky is BlueskyAccountSession)
        #expect(bluesky.refusal(of: .readMarker) != nil)
        #expect(bluesky.refusal(of: .notificationsSeen) == nil)
    }

    @Test func aDraftIsRefusedInTheWordsOfTheNetworkThatLacksWhatItSets() {
        let plain = PostDraft(text: "hello")
        #expect(Account.Network.mastodon.capabilities.refusal(of: plain) == nil)
        #expect(Account.Network.bluesky.capabilities.refusal(of: plain) == nil)
        // A written warning is refused in words of its own, naming what Bluesky has instead (issue 36).
        #expect(Account.Network.bluesky.capabilities.refusal(of: PostDraft(text: "hi", contentWarning: "cw"))?
            .hasPrefix("Bluesky posts have no written content warning: --sensitive") == true)
        for draft in [PostDraft(text: "hi", visibility: .unlisted), PostDraft(text: "hi", idempotencyKey: "k")] {
            #expect(Account.Network.mastodon.capabilities.refusal(of: draft) == nil)
            #expect(Account.Network.bluesky.capabilities.refusal(of: draft)
                == "--cw, --visibility and --idempotency-key are for Mastodon accounts; a Bluesky post is public, and a retry of it never publishes twice anyway.")
        }
        // A reply and languages are every network's.
        #expect(Account.Network.bluesky.capabilities.refusal(of: PostDraft(text: "hi", replyTo: "x", languages: ["en"])) == nil)
    }

    @Test func theLocalesLanguageIsTheLibrarysRule() {
        func languages(_ environment: [String: String]) -> [String] { PostDraft.languages(locale: { environment[$0] }) }
        #expect(languages(["LANG": "pt_BR.UTF-8"]) == ["pt"])
        #expect(languages(["LC_ALL": "de_DE@euro", "LANG": "fr_FR.UTF-8"]) == ["de"])
        #expect(languages(["LC_ALL": "", "LC_MESSAGES": "ja_JP.UTF-8", "LANG": "fr_FR"]) == ["ja"])
        #expect(languages(["LANG": "C.UTF-8"]) == [])
        #expect(languages(["LANG": "POSIX"]) == [])
        #expect(languages([:]) == [])
    }

    @Test func networksAreRegisteredOnceAndFoundByTheirWord() {
        // The built-in ones first; a test may register more (SourceRegistrationTests).
        #expect(Account.Network.builtIn.map(\.rawValue) == ["mastodon", "bluesky"])
        #expect(Account.Network.registered.starts(with: Account.Network.builtIn))
        #expect(Account.Network(rawValue: "bluesky") == .bluesky)
        #expect(Account.Network(rawValue: "mastodon")?.displayName == "Mastodon")
        #expect(Account.Network(rawValue: "rss") == nil)
        #expect(Account.Network.likely(forAddress: "Alice.BSKY.social") == .bluesky)
        #expect(Account.Network.likely(forAddress: "mastodon.social") == .mastodon)
        #expect(Account.Network.loginList == "mastodon servers (Mastodon and servers speaking its API) and to bluesky")
        #expect(Account.Network.loginHint() == "timeline login mastodon example.social (or: login bluesky HANDLE)")
        // Only the networks that have the action: bookmarks are Mastodon's.
        #expect(Account.Network.loginHint(for: .bookmark) == "timeline login mastodon example.social")
    }

    @Test func aMastodonSessionSyncsPostsMarksAndDeletesAtItsServer() async throws {
        let fixture = try SyncFixture()
        fixture.server.post(5)
        let accounts = AccountStore(directory: fixture.directory.file("config"))
        let session = try accounts.session(for: Self.mastodonAccount(), transport: fixture.server,
                                           policy: RequestPolicy(maximumAttempts: 1), clock: fixture.clock.clock)
        let summary = try await session.sync(into: fixture.store, options: SyncOptions(homeDepth: 3))
        #expect(summary.newStatuses == 3)
        #expect(try fixture.homeIDs().count == 3)

        var draft = PostDraft(text: "from a session", contentWarning: "careful", idempotencyKey: "key-1")
        draft.languages = ["en"]
        let posted = try await session.post(draft, in: fixture.store)
        #expect(posted.text == "from a session")
        #expect(posted.isRead)
        #expect(session.holds(messageID: posted.id))
        #expect(!session.holds(messageID: "elsewhere.example/1"))
        // The same key again is the same status (the server keeps keys), not a second one.
        #expect(try await session.post(draft, in: fixture.store).id == posted.id)

        let marker = try await session.syncReadMarker(in: fixture.store)
        #expect(!marker.serverLacksMarkers)

        try await session.deletePost(posted.id, in: fixture.store)
        #expect(try fixture.store.message(id: posted.id) == nil)
        let deletes = fixture.server.state.withLock { $0.requests }.filter { $0.method == .delete }
        #expect(deletes.map(\.url).last?.hasSuffix("/api/v1/statuses/" + posted.id.components(separatedBy: "/").last!) == true)
    }

    @Test func endingASessionWhoseTokenWasMadeElsewhereSendsNothingAndRunsNoCommand() async throws {
        let server = FakeMastodonServer()
        let directory = TemporaryDirectory()
        let witness = directory.file("ran")
        let account = Self.mastodonAccount(secret: .command("touch \(witness); echo token"))
        let session = try AccountStore(directory: directory.path).session(for: account, transport: server)
        let ending = await session.end()
        #expect(ending == .leftToPerson("the token was made in the server's settings (--token-stdin or --token-command); revoke it there if it should stop working."))
        #expect(server.state.withLock { $0.requests }.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: witness))
        #expect(!account.isRevocable)
        #expect(Self.mastodonAccount(client: OAuthClient(id: "i", secret: "s")).isRevocable)
    }

    @Test func aBlueskySessionSyncsSaysItHasNoReadMarkerAndEndsItsSession() async throws {
        let pds = FakePDS()
        pds.post(4)
        let fixture = try SyncFixture()
        let accounts = AccountStore(directory: fixture.directory.file("config"))
        let account = try await Self.blueskyAccount(pds, in: accounts)
        #expect(account.name == "alice.test")
        #expect(account.network == .bluesky)
        #expect(account.isRevocable)
        #expect(account.secretSource(accountsPath: "F") == "bluesky, session in F")
        #expect(account.loginCommand == "timeline login bluesky alice.test --service https://entryway.example")

        let session = try accounts.session(for: account, transport: pds, policy: RequestPolicy(maximumAttempts: 1), clock: fixture.clock.clock)
        let summary = try await session.sync(into: fixture.store, options: SyncOptions(homeDepth: 200))
        #expect(summary.newStatuses == 4)
        #expect(session.holds(messageID: "at://did:plc:u2/app.bsky.feed.post/p1"))
        #expect(!session.holds(messageID: "social.example/1"))

        let before = pds.requests.count
        let marker = try await session.syncReadMarker(in: fixture.store)
        #expect(marker.serverLacksMarkers)
        #expect(pds.requests.count == before)

        pds.answer("app.bsky.notification.updateSeen", FakePDS.json(200, "{}"))
        try await session.markNotificationsSeen(at: Date(timeIntervalSince1970: 1_785_000_000))
        #expect(pds.requests.last?.url.hasSuffix("/xrpc/app.bsky.notification.updateSeen") == true)

        #expect(await session.end() == .ended("Its session was ended at https://entryway.example."))
        // Ended: a second logout is refused by the server, and said in the network's words.
        let again = try accounts.session(for: account, transport: pds, policy: RequestPolicy(maximumAttempts: 1), clock: fixture.clock.clock)
        guard case let .leftToPerson(advice) = await again.end() else { Issue.record("a refused end said it ended"); return }
        #expect(advice.hasPrefix("the session could not be ended ("))
        #expect(advice.hasSuffix("); revoke the app password in Bluesky's settings if it should stop working."))
    }
}

extension Account.Network {
    /// The app-password login of a network that has one.
    fileprivate var loginMethodAppPassword: AppPasswordLogin? {
        if case let .appPassword(login) = login?.kind { return login }
        return nil
    }
}
