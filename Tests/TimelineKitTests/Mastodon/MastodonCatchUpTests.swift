import Foundation
import Testing
@testable import TimelineKit

/// A later sync asks only for what is newer than the stored newest entry (`since_id`), home
/// timeline and notifications alike, so it transfers and decodes in proportion to what is new
/// (issue 28, finding 2); a server that ignores `since_id` is still synced exactly.
@Suite struct MastodonCatchUpTests {
    /// A fixture synced once with `statuses` home statuses and `notifications` notifications.
    private func synced(statuses: Int = 50, notifications: Int = 50, ignoringSinceID: Bool = false) async throws -> SyncFixture {
        let fixture = try SyncFixture()
        fixture.server.post(statuses)
        for _ in 0 ..< notifications { fixture.server.notify("follow", actor: 3) }
        fixture.server.configure { $0.ignoresSinceID = ignoringSinceID }
        try await fixture.run()
        return fixture
    }

    /// The URLs of the requests sent since `index` to `path`.
    private func urls(_ fixture: SyncFixture, since index: Int, _ path: String) -> [String] {
        fixture.server.requests.dropFirst(index).map(\.url).filter { $0.contains(path) }
    }

    @Test func aSyncWithNothingNewAsksSinceTheStoredTopsAndStoresNothing() async throws {
        let fixture = try await synced()
        let homeTop = fixture.server.homeIDs[0]
        let notificationTop = fixture.server.notificationIDs[0]
        let generation = try fixture.store.state().generation
        let before = fixture.server.requestCount
        let summary = try await fixture.run()
        #expect(urls(fixture, since: before, "/timelines/home") == [FakeMastodonServer.base + "/api/v1/timelines/home?limit=40&since_id=\(homeTop)"])
        #expect(urls(fixture, since: before, "/notifications") == [FakeMastodonServer.base + "/api/v1/notifications?limit=40&since_id=\(notificationTop)"])
        #expect(summary.newStatuses == 0 && summary.newNotifications == 0)
        #expect(summary.homeTraffic == TimelineTraffic(bodyBytes: 2, entriesDecoded: 0, requests: 1))
        #expect(summary.notificationTraffic == TimelineTraffic(bodyBytes: 2, entriesDecoded: 0, requests: 1))
        // The filters' empty list, the two empty pages, and the read marker's answer.
        #expect(summary.bytesReceived == 2 + 4 + 2)
        #expect(try fixture.store.state().generation == generation)
        #expect(try fixture.homeIDs() == fixture.server.homeIDs)
    }

    @Test func fiveNewStatusesAndNotificationsAreFiveDecodedRightAboveTheStoredTop() async throws {
        let fixture = try await synced()
        let old = try fixture.homeIDs()
        fixture.server.post(5)
        for _ in 0 ..< 5 { fixture.server.notify("follow", actor: 4) }
        let summary = try await fixture.run()
        #expect(summary.newStatuses == 5 && summary.newNotifications == 5)
        #expect(summary.homeTraffic.entriesDecoded == 5 && summary.homeTraffic.requests == 1)
        #expect(summary.notificationTraffic.entriesDecoded == 5 && summary.notificationTraffic.requests == 1)
        #expect(try fixture.homeIDs() == fixture.server.homeIDs)
        #expect(try fixture.homeIDs().dropFirst(5).elementsEqual(old))
        #expect(try fixture.notificationIDs() == fixture.server.notificationIDs)
        #expect(try fixture.gaps().isEmpty && fixture.gaps("notifications").isEmpty)
        // Nothing lies between the new five and the old top: the next sync asks since the newest.
        let before = fixture.server.requestCount
        #expect(try await fixture.run().newStatuses == 0)
        #expect(urls(fixture, since: before, "/timelines/home") == [FakeMastodonServer.base + "/api/v1/timelines/home?limit=40&since_id=\(fixture.server.homeIDs[0])"])
    }

    @Test func moreThanAPageNewIsAFullPageSinceTheTopAndTheGapBelowItIsFilled() async throws {
        let fixture = try await synced()
        let homeTop = fixture.server.homeIDs[0]
        let notificationTop = fixture.server.notificationIDs[0]
        fixture.server.post(45)
        for _ in 0 ..< 45 { fixture.server.notify("follow", actor: 4) }
        let before = fixture.server.requestCount
        let summary = try await fixture.run()
        let newHome = fixture.server.homeIDs
        #expect(urls(fixture, since: before, "/timelines/home") == [
            FakeMastodonServer.base + "/api/v1/timelines/home?limit=40&since_id=\(homeTop)",
            FakeMastodonServer.base + "/api/v1/timelines/home?limit=40&max_id=\(newHome[39])&since_id=\(homeTop)",
        ])
        #expect(urls(fixture, since: before, "/notifications").count == 2)
        #expect(summary.newStatuses == 45 && summary.newNotifications == 45)
        #expect(summary.homeTraffic.entriesDecoded == 45 && summary.notificationTraffic.entriesDecoded == 45)
        #expect(summary.isCaughtUp)
        #expect(try fixture.homeIDs() == newHome)
        #expect(try fixture.notificationIDs() == fixture.server.notificationIDs)
        #expect(try fixture.gaps().isEmpty && fixture.gaps("notifications").isEmpty)
        #expect(urls(fixture, since: before, "/notifications").first == FakeMastodonServer.base + "/api/v1/notifications?limit=40&since_id=\(notificationTop)")
    }

    /// Exactly a page new: the page is full, so a gap is recorded and one request (an empty
    /// page) finds it empty. Never a false "no gap".
    @Test func exactlyAPageNewAsksOnceMoreToKnowThatNothingLiesBelow() async throws {
        let fixture = try await synced()
        fixture.server.post(40)
        let summary = try await fixture.run()
        #expect(summary.newStatuses == 40)
        #expect(summary.homeTraffic.requests == 2 && summary.homeTraffic.entriesDecoded == 40)
        #expect(try fixture.homeIDs() == fixture.server.homeIDs)
        #expect(try fixture.gaps().isEmpty)
    }

    /// A server that caps pages at 20 whatever `limit` asks: 30 new statuses come as a page of
    /// 20, which must not be taken for "no more above the stored top" (that would lose the 10
    /// between); a page of 20 or more is followed below, and the rest arrives in the same sync.
    @Test func aServerCappingPagesBelowTheLimitAskedLosesNothing() async throws {
        let fixture = try await synced()
        fixture.server.configure { $0.pageCap = 20 }
        fixture.server.post(30)
        for _ in 0 ..< 30 { fixture.server.notify("follow", actor: 4) }
        let summary = try await fixture.run()
        #expect(summary.newStatuses == 30 && summary.newNotifications == 30)
        #expect(try fixture.homeIDs() == fixture.server.homeIDs)
        #expect(try fixture.notificationIDs() == fixture.server.notificationIDs)
        #expect(try fixture.gaps().isEmpty && fixture.gaps("notifications").isEmpty)
    }

    /// A server that does not know `since_id` answers the plain newest page: what it holds of
    /// the stored entries places it, so nothing is lost, nothing is stored twice, and a gap is
    /// filled as before.
    @Test func aServerThatIgnoresSinceIDIsStillSyncedExactly() async throws {
        let fixture = try await synced(ignoringSinceID: true)
        let before = fixture.server.requestCount
        let nothing = try await fixture.run()
        #expect(urls(fixture, since: before, "/timelines/home").first?.contains("since_id=\(fixture.server.homeIDs[0])") == true)
        #expect(nothing.newStatuses == 0 && nothing.newNotifications == 0)
        // The whole newest page came back and was read: the server's cost, not a loss.
        #expect(nothing.homeTraffic.entriesDecoded == 40)
        #expect(try fixture.homeIDs() == fixture.server.homeIDs)

        fixture.server.post(5)
        for _ in 0 ..< 5 { fixture.server.notify("follow", actor: 4) }
        let five = try await fixture.run()
        #expect(five.newStatuses == 5 && five.newNotifications == 5)
        #expect(try fixture.homeIDs() == fixture.server.homeIDs)
        #expect(try fixture.notificationIDs() == fixture.server.notificationIDs)

        fixture.server.post(70)
        let many = try await fixture.run()
        #expect(many.newStatuses == 70)
        #expect(many.isCaughtUp)
        #expect(try fixture.homeIDs() == fixture.server.homeIDs)
        #expect(try fixture.gaps().isEmpty)
        #expect(Set(try fixture.homeIDs()).count == fixture.server.homeIDs.count)
    }

    /// A timeline shorter than a page on a server that ignores `since_id`: the short page holds
    /// the stored top, which places it; the entries below the top are not stored again.
    @Test func aShortPageFromAServerThatIgnoresSinceIDIsPlacedByTheTopItHolds() async throws {
        let fixture = try await synced(statuses: 10, notifications: 0, ignoringSinceID: true)
        fixture.server.post(3)
        let summary = try await fixture.run()
        #expect(summary.newStatuses == 3)
        #expect(summary.homeTraffic.entriesDecoded == 13)
        #expect(try fixture.homeIDs() == fixture.server.homeIDs)
        #expect(try fixture.gaps().isEmpty)
    }
}
