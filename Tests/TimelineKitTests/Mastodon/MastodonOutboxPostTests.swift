import Foundation
import Testing
@testable import TimelineKit

/// Issue 27, "never sent twice": a queued post retried after the hour Mastodon keeps its
/// `Idempotency-Key` looks for itself among the account's statuses before it is sent again.
@Suite struct MastodonOutboxPostTests {
    /// The sync with the account's own server ID known, as a logged-in account has it.
    private func sync(_ fixture: SyncFixture) throws -> MastodonSync {
        try MastodonSync(store: fixture.store, server: FakeMastodonServer.base, token: "token", account: fixture.account,
                         accountID: FakeMastodonServer.accountID(0), transport: fixture.server, options: fixture.options,
                         clock: fixture.clock.clock)
    }

    private func requests(_ fixture: SyncFixture, _ method: HTTPRequest.Method, _ path: String) -> Int {
        fixture.server.requests.filter { $0.method == method && $0.url.hasPrefix(FakeMastodonServer.base + path) }.count
    }

    private let ownStatuses = "/api/v1/accounts/\(FakeMastodonServer.accountID(0))/statuses"

    @Test func anOldRetryWhosePostIsOnTheServerIsNotPostedAgain() async throws {
        let fixture = try SyncFixture()
        let parent = fixture.server.post(1)[0]
        let queuedAt = fixture.clock.now
        // The first try published it (its answer was lost) a minute after it was queued, with
        // the server's own line breaks; another post of the account came later.
        let published = fixture.server.ownStatus(text: "Shipping\n today  🚀", at: queuedAt.addingTimeInterval(60), replyTo: parent)
        fixture.server.ownStatus(text: "something else", at: queuedAt.addingTimeInterval(120))
        let before = fixture.server.ownStatusCount
        let post = MastodonPost(text: "Shipping today 🚀", replyTo: "social.example/" + parent, idempotencyKey: "expired-key")
        let message = try await sync(fixture).postFromOutbox(post, queuedAt: queuedAt, mayHaveReachedServer: true)
        #expect(requests(fixture, .get, ownStatuses) == 1)
        #expect(requests(fixture, .post, "/api/v1/statuses") == 0)
        #expect(fixture.server.ownStatusCount == before)
        #expect(message.id == "social.example/" + published)
        #expect(try fixture.store.message(id: message.id)?.replyToID == "social.example/" + parent)
    }

    @Test func anOldRetryWhosePostIsNotOnTheServerIsPostedOnce() async throws {
        let fixture = try SyncFixture()
        let parent = fixture.server.post(1)[0]
        let queuedAt = fixture.clock.now
        // Near misses: the same text before the queue time (beyond the clock's allowance), the
        // same text answering another status, the same text as a post of its own.
        fixture.server.ownStatus(text: "again", at: queuedAt.addingTimeInterval(-3600), replyTo: parent)
        fixture.server.ownStatus(text: "again", at: queuedAt.addingTimeInterval(60), replyTo: fixture.server.post(1)[0])
        fixture.server.ownStatus(text: "again", at: queuedAt.addingTimeInterval(90))
        let before = fixture.server.ownStatusCount
        let post = MastodonPost(text: "again", replyTo: "social.example/" + parent, idempotencyKey: "expired-key")
        let message = try await sync(fixture).postFromOutbox(post, queuedAt: queuedAt, mayHaveReachedServer: true)
        #expect(requests(fixture, .get, ownStatuses) == 1)
        #expect(requests(fixture, .post, "/api/v1/statuses") == 1)
        #expect(fixture.server.ownStatusCount == before + 1)
        #expect(message.replyToID == "social.example/" + parent)
        #expect(message.text == "again")
    }

    /// Ten minutes after it was queued, a retry whose first try reached the server finds the
    /// post among the account's statuses too: a server that ignores the key (Takahē) would
    /// otherwise publish it twice.
    @Test func aYoungRetryAlsoLooksForThePostAndPostsNothingMore() async throws {
        let fixture = try SyncFixture()
        let queuedAt = fixture.clock.now
        let post = MastodonPost(text: "young", idempotencyKey: "fresh-key")
        // The first try reached a server that ignores the key (its status is there, the key
        // unknown to the server); its answer was lost.
        let first = fixture.server.ownStatus(text: "young", at: queuedAt.addingTimeInterval(20))
        fixture.clock.advance(by: 10 * 60)
        let message = try await sync(fixture).postFromOutbox(post, queuedAt: queuedAt, mayHaveReachedServer: true)
        #expect(requests(fixture, .get, ownStatuses) == 1)
        #expect(requests(fixture, .post, "/api/v1/statuses") == 0)
        #expect(fixture.server.ownStatusCount == 1)
        #expect(message.id == "social.example/" + first)
    }

    @Test func aPostWhoseFirstTryCannotHaveReachedTheServerReadsNothing() async throws {
        let fixture = try SyncFixture()
        let queuedAt = fixture.clock.now
        fixture.server.ownStatus(text: "typed twice", at: queuedAt.addingTimeInterval(60))
        _ = try await sync(fixture).postFromOutbox(MastodonPost(text: "typed twice"), queuedAt: queuedAt, mayHaveReachedServer: false)
        #expect(requests(fixture, .get, ownStatuses) == 0)
        #expect(fixture.server.ownStatusCount == 2)
    }

    /// The whole way, as `timeline sync` sends the outbox: a post queued two hours ago whose
    /// first try may have reached the server (one attempt counted and kept) is found, stored in
    /// place of its stand-in and taken out of the queue, and nothing is posted.
    @Test func theSessionTakesAnOldPublishedPostOutOfTheOutbox() async throws {
        let fixture = try SyncFixture()
        let queuedAt = fixture.clock.now
        let account = Account(name: fixture.account, network: .mastodon, server: FakeMastodonServer.base,
                              accountID: FakeMastodonServer.accountID(0), acct: "user0", client: nil, secret: .token(AccessToken("token")!))
        let session = MastodonAccountSession(account: account, transport: fixture.server, policy: RequestPolicy(maximumAttempts: 1),
                                             clock: fixture.clock.clock)
        let entry = try fixture.store.enqueue(.post(PostDraft(text: "from the train")), account: fixture.account, author: nil,
                                              key: "old-key", at: queuedAt)
        try fixture.store.noteOutboxAttempt(of: entry.sequence)
        let published = fixture.server.ownStatus(text: "from the train", at: queuedAt.addingTimeInterval(30))
        fixture.clock.advance(by: 2 * 3600)
        let delivery = await session.sendPendingActions(in: fixture.store)
        #expect(delivery.stoppedBy == nil)
        #expect(requests(fixture, .post, "/api/v1/statuses") == 0)
        #expect(fixture.server.ownStatusCount == 1)
        #expect(try fixture.store.outbox(account: fixture.account).isEmpty)
        #expect(try fixture.store.message(id: try #require(entry.placeholderID)) == nil)
        #expect(try fixture.store.message(id: "social.example/" + published)?.text == "from the train")
    }

    /// A server without `GET /api/v1/accounts/:id/statuses` (404) cannot say whether the post
    /// is there: it is sent as before, not dropped as refused.
    @Test func aServerWithoutTheAccountsStatusesGetsThePost() async throws {
        let fixture = try SyncFixture()
        let queuedAt = fixture.clock.now
        let sync = try MastodonSync(store: fixture.store, server: FakeMastodonServer.base, token: "token", account: fixture.account,
                                    accountID: "unknown", transport: fixture.server, options: fixture.options, clock: fixture.clock.clock)
        let message = try await sync.postFromOutbox(MastodonPost(text: "still sent"), queuedAt: queuedAt, mayHaveReachedServer: true)
        #expect(requests(fixture, .get, "/api/v1/accounts/unknown/statuses") == 1)
        #expect(requests(fixture, .post, "/api/v1/statuses") == 1)
        #expect(message.text == "still sent")
    }
}
