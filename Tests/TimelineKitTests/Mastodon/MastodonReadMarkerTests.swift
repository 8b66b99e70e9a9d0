import Foundation
import Testing
@testable import TimelineKit

@Suite struct MastodonReadMarkerTests {
    private func namespaced(_ ids: some Sequence<String>) -> [String] {
        ids.map { "social.example/" + $0 }
    }

    @Test func theServersMarkerMarksEverythingAtOrBelowItReadByTimelineOrder() async throws {
        let fixture = try SyncFixture()
        fixture.server.post(30)
        let home = fixture.server.homeIDs
        fixture.server.setMarker(home[9])
        let summary = try await fixture.run()
        // Opaque IDs: only the server's order can say what is below the marker.
        #expect(try fixture.unreadHomeIDs() == Array(home.prefix(9)))
        #expect(summary.markedRead == 21)
        // Applied once: what is marked unread here afterwards stays unread.
        try fixture.store.markRead(ids: namespaced(home.suffix(3)), read: false)
        try await fixture.run()
        #expect(try fixture.unreadHomeIDs() == Array(home.prefix(9)) + Array(home.suffix(3)))
    }

    @Test func aMarkerOnAStatusNotFetchedYetIsAppliedWhenItArrives() async throws {
        let fixture = try SyncFixture()
        fixture.server.post(50)
        try await fixture.run()
        fixture.server.post(100)
        let home = fixture.server.homeIDs
        fixture.server.setMarker(home[89])
        fixture.options.maximumPagesPerTimeline = 1
        try await fixture.run()
        #expect(try fixture.unreadHomeIDs().count == 90)  // the newest 40 and the old 50: none below the marker yet
        #expect(try fixture.store.syncedAccount(named: fixture.account)?.readMarker == home[89])
        fixture.options.maximumPagesPerTimeline = 25
        try await fixture.run()
        #expect(try fixture.homeIDs() == home)
        #expect(try fixture.unreadHomeIDs() == Array(home.prefix(89)))
    }

    @Test func boostsAndTheStatusesTheyShowAreReadTogether() async throws {
        let fixture = try SyncFixture()
        fixture.server.post(5)
        let original = fixture.server.statusElsewhere()
        let boost = fixture.server.boost(original)
        fixture.server.post(2)
        fixture.server.setMarker(boost)
        try await fixture.run()
        #expect(try fixture.store.message(id: "social.example/" + boost)?.isRead == true)
        #expect(try fixture.store.message(id: "social.example/" + original)?.isRead == true)
        #expect(try fixture.unreadHomeIDs() == Array(fixture.server.homeIDs.prefix(2)))
    }

    @Test func readingHereMovesTheServersMarkerForward() async throws {
        let fixture = try SyncFixture()
        fixture.server.post(30)
        let home = fixture.server.homeIDs
        try await fixture.run()
        #expect(fixture.server.marker == nil)
        // The oldest 20 are read; the newest entry with everything below it read is the 11th.
        try fixture.store.markRead(ids: namespaced(home.suffix(20)))
        let summary = try await fixture.run()
        #expect(summary.markerSet == home[10])
        #expect(fixture.server.marker == home[10])
        let post = try #require(fixture.server.requests.last { $0.method == .post })
        #expect(String(decoding: post.body ?? [], as: UTF8.self) == #"{"home":{"last_read_id":"\#(home[10])"}}"#)
        try fixture.store.markAllRead()
        try await fixture.sync().syncReadMarker()
        #expect(fixture.server.marker == home[0])
    }

    @Test func theMarkerNeverMovesBack() async throws {
        let fixture = try SyncFixture()
        fixture.server.post(10)
        let home = fixture.server.homeIDs
        fixture.server.setMarker(home[0])
        try await fixture.run()
        #expect(try fixture.unreadHomeIDs().isEmpty)
        try fixture.store.markRead(ids: namespaced(home.prefix(5)), read: false)
        try await fixture.run()
        #expect(fixture.server.marker == home[0])
        #expect(!fixture.server.requests.contains { $0.method == .post })
    }

    @Test func aConflictReadsTheMarkerAgainAndRetries() async throws {
        let fixture = try SyncFixture()
        fixture.server.post(10)
        try await fixture.run()
        try fixture.store.markAllRead()
        fixture.server.configure { $0.markerConflicts = 1 }
        let result = try await fixture.sync().syncReadMarker()
        #expect(result.markerSet == fixture.server.homeIDs[0])
        #expect(fixture.server.requests.filter { $0.method == .post }.count == 2)
        fixture.server.post(1)
        try await fixture.run()
        try fixture.store.markAllRead()
        fixture.server.configure { $0.markerConflicts = 10 }
        await #expect(throws: ServerError.markerConflict(url: FakeMastodonServer.base + "/api/v1/markers", attempts: 3)) {
            try await fixture.sync().syncReadMarker()
        }
        #expect(ServerError.markerConflict(url: "", attempts: 3).isTemporary)
    }

    @Test func aMarkerOlderThanWhatWasSyncedIsMovedOnlyAfterTheServerSaysItIsOlder() async throws {
        let fixture = try SyncFixture()
        fixture.options.homeDepth = 40
        fixture.server.post(100)
        let home = fixture.server.homeIDs
        fixture.server.setMarker(home[80])
        try await fixture.run()
        try fixture.store.markAllRead()
        try await fixture.sync().syncReadMarker()
        #expect(fixture.server.marker == home[0])
        let probe = try #require(fixture.server.requests.last { $0.url.contains("since_id") })
        #expect(probe.url.hasSuffix("limit=1&max_id=\(home[0])&since_id=\(home[80])"))
    }

    @Test func aMarkerNewerThanWhatWasSyncedIsNeverMovedBack() async throws {
        let fixture = try SyncFixture()
        fixture.server.post(20)
        try await fixture.run()
        try fixture.store.markAllRead()
        // The phone read a status that arrived after this sync's last page.
        let newer = fixture.server.post(1)[0]
        fixture.server.setMarker(newer)
        try await fixture.sync().syncReadMarker()
        #expect(fixture.server.marker == newer)
        #expect(!fixture.server.requests.contains { $0.method == .post })
    }
}
