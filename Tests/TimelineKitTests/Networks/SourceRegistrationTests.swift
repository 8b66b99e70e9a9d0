import Foundation
import Testing
// Not `@testable`: a source is added with TimelineKit's public API only, as an embedder adds one.
import TimelineKit

/// Issue 35: a source of accounts outside the package. The smallest source there is (a word, a
/// name, a session that only syncs) registers, is listed, has its accounts read from the
/// accounts file and synced into a store, and refuses every other action with one typed error
/// that names the action; names that cannot be a network's, or that one has, are refused.
@Suite struct SourceRegistrationTests {
    /// A source that only syncs: the two requirements every source implements, nothing else.
    struct ReadingsSession: AccountSession {
        let account: Account

        func sync(into store: TimelineStore, options: SyncOptions) async throws -> SyncSummary {
            let station = User(id: "readings/station", handle: "station", name: "Station")
            let reading = Message(id: "readings/1", authorID: station.id, text: "Rain at noon",
                                  createdAt: Date(timeIntervalSince1970: 1_764_417_600), source: account.network.source)
            try store.upsert(users: [station], messages: [reading])
            var summary = SyncSummary(account: account.name)
            summary.newStatuses = 1
            return summary
        }
    }

    /// The network of the readings: a word, a name, how its session is made.
    static let network = Account.Network("readings", displayName: "Readings") { account, _ in ReadingsSession(account: account) }

    /// Registered once for the process (the registry is the process's), whichever test runs first.
    static let registration = Result { () throws(SourceError) in try Account.Network.register(network) }

    static func account() -> Account {
        Account(name: "station", network: network, server: "https://readings.example", accountID: "station", acct: "station",
                client: nil, secret: .token(AccessToken("token")!))
    }

    @Test func aSourceRegistersAndIsListedAfterTheBuiltInOnes() throws {
        try Self.registration.get()
        #expect(Account.Network.registered.starts(with: Account.Network.builtIn))
        #expect(Account.Network.registered.contains(Self.network))
        #expect(Account.Network(rawValue: "readings")?.displayName == "Readings")
        #expect(Self.network.source.rawValue == "readings")
        // Without a login, `timeline login` does not offer it.
        #expect(Self.network.login == nil)
        #expect(!Account.Network.loginList.contains("readings"))
    }

    @Test func aMinimalSourcesAccountIsStoredReadBackAndSyncedIntoAStore() async throws {
        try Self.registration.get()
        let directory = TemporaryDirectory()
        let accounts = AccountStore(directory: directory.file("config"))
        _ = try accounts.save(Self.account())
        let read = try #require(try accounts.accounts().first)
        #expect(read.network == Self.network)
        #expect(read.storedUserID == "station")
        #expect(read.secretSource(accountsPath: "accounts.json") == "secret in accounts.json")

        let store = try TimelineStore(path: directory.file("timeline.db"))
        let session = try accounts.session(for: read, transport: CurlTransport())
        let summary = try await session.sync(into: store, options: SyncOptions(homeDepth: 10))
        #expect(summary.newStatuses == 1)
        let message = try #require(try store.message(id: "readings/1"))
        #expect(message.source.rawValue == "readings")
        #expect(message.text == "Rain at noon")
    }

    @Test func aMinimalSourceHasNoCapabilities() {
        #expect(Self.network.capabilities == .none)
        #expect(Self.network.capabilities.actions.isEmpty)
        let session = ReadingsSession(account: Self.account())
        for action in SourceAction.allCases {
            #expect(session.refusal(of: action) == .unsupported(action: action, source: "Readings", reason: nil))
            #expect(Self.network.refusal(of: action) == .unsupported(action: action, source: "Readings", reason: nil))
        }
        #expect(session.refusal(of: SourceAction(MessageAction.favourite.kind)) == .unsupported(action: .favourite, source: "Readings", reason: nil))
    }

    @Test func everyOptionalActionRefusesWithTheTypedErrorNamingIt() async throws {
        let directory = TemporaryDirectory()
        let store = try TimelineStore(path: directory.file("timeline.db"))
        let session = ReadingsSession(account: Self.account())
        _ = try await session.sync(into: store, options: SyncOptions(homeDepth: 1))
        var refused: Set<SourceAction> = []
        func expectRefusal(_ action: SourceAction, sourceLocation: SourceLocation = #_sourceLocation,
                           _ body: () async throws -> Void) async {
            do {
                try await body()
                Issue.record("\(action) was not refused", sourceLocation: sourceLocation)
            } catch let error as SourceError {
                #expect(error == .unsupported(action: action, source: "Readings", reason: nil), sourceLocation: sourceLocation)
                refused.insert(action)
            } catch {
                Issue.record("\(action) failed with \(error), not SourceError", sourceLocation: sourceLocation)
            }
        }
        await expectRefusal(.live) { try await session.follow(into: store, gate: nil, health: nil, onPolling: { _, _ in }) }
        await expectRefusal(.post) { _ = try await session.post(PostDraft(text: "hi"), in: store) }
        await expectRefusal(.delete) { try await session.deletePost("readings/1", in: store) }
        await expectRefusal(.readMarker) { _ = try await session.syncReadMarker(in: store) }
        await expectRefusal(.notificationsSeen) { try await session.markNotificationsSeen(at: Date()) }
        await expectRefusal(.favourite) { _ = try await session.act(.favourite, on: "readings/1", in: store) }
        await expectRefusal(.boost) { _ = try await session.act(.boost, on: "readings/1", in: store) }
        await expectRefusal(.bookmark) { _ = try await session.bookmarks(limit: 10, in: store) }
        await expectRefusal(.followAccounts) { _ = try await session.setFollowing("someone", true, in: store) }
        await expectRefusal(.followAccounts) { _ = try await session.followedUsers(limit: 10, in: store) }
        await expectRefusal(.thread) { _ = try await session.fetchThread(around: "readings/1", limit: 10, in: store) }
        await expectRefusal(.lists) { _ = try await session.lists(in: store) }
        await expectRefusal(.lists) { _ = try await session.fetchTimeline(.list("1"), limit: 10, in: store) }
        await expectRefusal(.tags) { _ = try await session.fetchTimeline(.tag("rain"), limit: 10, in: store) }
        await expectRefusal(.edit) { _ = try await session.editableText(of: "readings/1", in: store) }
        await expectRefusal(.edit) { _ = try await session.edit("readings/1", text: "Snow", in: store) }
        await expectRefusal(.vote) { _ = try await session.vote(in: "readings/1", choices: [0], in: store) }
        await expectRefusal(.mute) { _ = try await session.moderate(.mute(handle: "someone", until: nil), in: store) }
        await expectRefusal(.timedMute) { throw session.refusal(of: .timedMute)! }
        await expectRefusal(.block) { _ = try await session.moderate(.block(handle: "someone"), in: store) }
        await expectRefusal(.moderationLists) { _ = try await session.moderationLists([.muted, .blocked, .words], limit: 10, in: store) }
        await expectRefusal(.report) { _ = try await session.report("readings/1", reason: .spam, comment: nil, in: store) }
        await expectRefusal(.feeds) { _ = try await session.savedFeeds(in: store) }
        await expectRefusal(.notificationRequests) { _ = try await session.notificationRequests(limit: 10, in: store) }
        await expectRefusal(.editLists) { _ = try await session.editList(.create(title: "Rain"), in: store) }
        await expectRefusal(.schedule) { _ = try await session.scheduledPosts(limit: 10, in: store) }
        await expectRefusal(.schedule) { try await session.unschedule("1", in: store) }
        // A change through the outbox is refused as its requirement is, and not kept queued.
        await expectRefusal(.post) { _ = try await session.perform(.post(PostDraft(text: "hi")), in: store) }
        #expect(try store.outbox(account: "station").isEmpty)
        #expect(refused == Set(SourceAction.allCases))

        // The questions answer "none"; a logout has nothing to end.
        #expect(!session.holds(messageID: "readings/1"))
        #expect(await !session.sendFeedInteraction(.like, on: "readings/1", in: store))
        #expect(session.followableHandle("@someone") == nil)
        #expect(session.listID("1") == nil)
        #expect(session.moderatableHandle(of: User(id: "readings/station", handle: "station", name: "Station")) == nil)
        #expect(try session.storedUserIDs(of: "station", in: store) == [])
        #expect(await session.end() == .ended("Readings keeps nothing at a server for timeline to end."))
    }

    @Test func theRefusalSaysWhatTheSourceCannotDoAndWhatToDoInstead() {
        let refusal = SourceError.unsupported(action: .edit, source: "Readings", reason: nil)
        #expect("\(refusal)" == "Readings accounts cannot edit a post in timeline; do it in Readings's own app, or with an account of a network that can.")
        // A network's own words win: Bluesky's refusal of an edit is the sentence it always was.
        #expect(Account.Network.bluesky.refusal(of: .edit)?.description
            == "Bluesky posts cannot be edited (a post is a record its readers' apps keep as first published); delete it (timeline delete REF) and post it again.")
        #expect(Account.Network.mastodon.refusal(of: .edit) == nil)
    }

    @Test func namesThatCannotNameANetworkOrAreTakenAreRefused() throws {
        try Self.registration.get()
        func registering(_ word: String) -> SourceError? {
            do {
                try Account.Network.register(Account.Network(word, displayName: word) { account, _ in ReadingsSession(account: account) })
                return nil
            } catch {
                return error
            }
        }
        #expect(registering("readings") == .alreadyRegistered("readings"))
        #expect(registering("mastodon") == .alreadyRegistered("mastodon"))
        for word in ["", "Weather", "1st", "rain fall", "-x", String(repeating: "a", count: 33)] {
            #expect(registering(word) == .invalidName(word))
        }
        #expect(SourceError.alreadyRegistered("readings").description
            == "a network named 'readings' is registered already: register each network once, under a word of its own.")
        #expect(Account.Network.registered.filter { $0.rawValue == "readings" }.count == 1)
    }
}
