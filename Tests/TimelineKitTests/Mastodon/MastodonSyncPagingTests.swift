import Foundation
import Synchronization
import Testing
@testable import TimelineKit

@Suite struct MastodonSyncPagingTests {
    @Test func theFirstSyncStoresTheNewest200InTheServersOrderFollowingNextLinks() async throws {
        let fixture = try SyncFixture()
        fixture.server.post(300)
        let summary = try await fixture.run()
        #expect(try fixture.homeIDs() == Array(fixture.server.homeIDs.prefix(200)))
        #expect(summary.newStatuses == 200)
        #expect(summary.isCaughtUp)
        #expect(try fixture.gaps().isEmpty)
        let homeRequests = fixture.server.requests.map(\.url).filter { $0.contains("/timelines/home") }
        #expect(homeRequests.count == 5)
        #expect(homeRequests[0] == FakeMastodonServer.base + "/api/v1/timelines/home?limit=40")
        #expect(homeRequests[1] == FakeMastodonServer.base + "/api/v1/timelines/home?limit=40&max_id=\(fixture.server.homeIDs[39])")
        // The filters (issue 34), home pages, one of notifications, one for the read marker.
        #expect(summary.requests == 8)
        // IDs carry the server: the opaque status IDs are kept whole after it.
        let newest = try #require(fixture.server.homeIDs.first)
        #expect(try fixture.store.message(id: "social.example/" + newest)?.authorID.hasPrefix("social.example/acct") == true)
        #expect(try fixture.store.state().messageCount == 200)
    }

    @Test func aLaterSyncAsksOnceWhenLessThanAPageIsNew() async throws {
        let fixture = try SyncFixture()
        fixture.server.post(50)
        let sync = try fixture.sync()
        try await sync.run()
        let before = fixture.server.requestCount
        fixture.server.post(7)
        let summary = try await sync.run()
        let home = fixture.server.requests.dropFirst(before).filter { $0.url.contains("/timelines/home") }
        #expect(home.count == 1)
        // The filters, the home page, the notifications page, the read marker: a run counts its
        // own requests.
        #expect(summary.requests == 4)
        #expect(summary.newStatuses == 7)
        #expect(try fixture.homeIDs() == fixture.server.homeIDs)
        // Nothing new: nothing changes, not even the generation.
        let generation = try fixture.store.state().generation
        #expect(try await fixture.run().newStatuses == 0)
        #expect(try fixture.store.state().generation == generation)
    }

    @Test func moreThanAPageNewLeavesAGapThatIsFilledNewestFirstAcrossSyncs() async throws {
        let fixture = try SyncFixture()
        fixture.server.post(50)
        try await fixture.run()
        let old = try fixture.homeIDs()
        fixture.server.post(130)
        fixture.options.maximumPagesPerTimeline = 2
        let first = try await fixture.run()
        // The newest page and the next page of the gap: the newest 80, then the old 50.
        #expect(first.newStatuses == 80)
        #expect(!first.isCaughtUp)
        #expect(try fixture.homeIDs() == Array(fixture.server.homeIDs.prefix(80)) + old)
        #expect(try fixture.gaps() == ["\(fixture.server.homeIDs[79])..\(old[0])()"])
        var syncs = 1
        while try await !fixture.run().isCaughtUp { syncs += 1 }
        #expect(syncs <= 3)
        #expect(try fixture.homeIDs() == fixture.server.homeIDs)
        #expect(try fixture.gaps().isEmpty)
    }

    /// A sync can be killed at any request. For every request of a scripted history (a first
    /// sync, new statuses, boosts and notifications, a marker moving on the phone, a sync
    /// bounded so that it leaves a gap, one that catches up, local reading pushed to the
    /// server), the transport fails from that request on, the sync throws, and running it
    /// again must end exactly where the uninterrupted history ends: nothing lost, nothing
    /// stored twice.
    @Test func aSyncKilledAtAnyRequestAndRunAgainEndsLikeAnUninterruptedOne() async throws {
        let reference = try await Self.history(failingAt: nil)
        #expect(reference.requests >= 18)
        for index in 0 ..< reference.requests {
            let interrupted = try await Self.history(failingAt: index)
            #expect(interrupted.failed, "request \(index) did not fail")
            #expect(interrupted.state == reference.state, "killed at request \(index)")
            #expect(interrupted.marker == reference.marker, "killed at request \(index)")
        }
    }

    private static func history(failingAt failure: Int?) async throws -> (state: [String], marker: String?, requests: Int, failed: Bool) {
        let fixture = try SyncFixture()
        let server = fixture.server
        var failed = false
        func run(pages: Int) async throws {
            fixture.options.maximumPagesPerTimeline = pages
            do {
                try await fixture.run()
            } catch {
                guard failure != nil, !failed else { throw error }
                failed = true
                server.configure { $0.failingFrom = nil }
                try await fixture.run()
            }
        }
        server.configure { $0.failingFrom = failure }
        let first = server.post(60)
        server.notify("mention", actor: 2, statusID: first[3])
        server.notify("follow", actor: 3)
        server.setMarker(first[40])
        try await run(pages: 25)
        let second = server.post(130)
        server.boost(first[10])
        server.notify("favourite", actor: 4, statusID: second[0])
        server.setMarker(second[100])
        try await run(pages: 3)
        server.notify("reblog", actor: 1, statusID: second[5])
        try await run(pages: 25)
        try fixture.store.markAllRead()
        try await run(pages: 25)
        return (try fixture.everything(), server.marker, server.requestCount, failed)
    }

    /// Finer than a request: the database refuses the page's transaction in its middle (a
    /// trigger stands for a full disk after K entries), at every few entries of a first sync and
    /// of a sync that leaves a gap. The sync position must not have moved without its page:
    /// running again after the disk has room ends like the uninterrupted syncs.
    @Test func aPageThatFailsToCommitLeavesTheSyncPositionWithIt() async throws {
        let reference = try await Self.twoSyncs(failingAfter: nil)
        for entries in stride(from: 0, to: 220, by: 9) {
            let interrupted = try await Self.twoSyncs(failingAfter: entries)
            #expect(interrupted.failed, "\(entries) entries")
            #expect(interrupted.state == reference.state, "the page failed after \(entries) entries")
        }
    }

    private static func twoSyncs(failingAfter limit: Int?) async throws -> (state: [String], failed: Bool) {
        let fixture = try SyncFixture()
        fixture.options.syncsNotifications = false
        if let limit {
            try SQLiteShell.run(fixture.store.path, """
                CREATE TRIGGER full_disk BEFORE INSERT ON synced_entries
                WHEN (SELECT count(*) FROM synced_entries WHERE timeline = 'home') >= \(limit)
                BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END
                """)
        }
        var failed = false
        func run() async throws {
            do {
                try await fixture.run()
            } catch {
                guard case .store = error as? ServerError, !failed else { throw error }
                failed = true
                try SQLiteShell.run(fixture.store.path, "DROP TRIGGER full_disk")
                try await fixture.run()
            }
        }
        fixture.server.post(130)
        try await run()
        fixture.server.post(90)
        try await run()
        return (try fixture.everything(), failed)
    }

    /// A later sync asks only for what is above the stored newest status (`since_id`), so an
    /// edit of a stored status arrives when it is fetched again: here from a server that
    /// ignores `since_id` and sends the whole newest page (the event stream's `status.update`
    /// is the other way, tested with streaming).
    @Test func anEditedStatusIsUpdatedInPlaceWhenFetchedAgain() async throws {
        let fixture = try SyncFixture()
        let ids = fixture.server.post(5)
        try await fixture.run()
        let count = try fixture.store.state().messageCount
        fixture.server.edit(ids[3], text: "fixed the typo")
        fixture.server.post(1)
        fixture.server.configure { $0.ignoresSinceID = true }
        try await fixture.run()
        let message = try #require(try fixture.store.message(id: "social.example/" + ids[3]))
        #expect(message.text == "fixed the typo")
        #expect(message.editedAt != nil)
        #expect(try fixture.store.state().messageCount == count + 1)
    }

    @Test func accountsOnTwoServersNeverCollideAndOneServersAccountsShareMessages() async throws {
        let fixture = try SyncFixture()
        let other = FakeMastodonServer(base: "https://other.example")
        fixture.server.post(10)
        other.post(10)
        #expect(fixture.server.homeIDs == other.homeIDs)  // the same raw IDs on both
        try await fixture.run()
        fixture.account = "me@other.example"
        try await fixture.sync(server: other.base, transport: other).run()
        #expect(try fixture.store.state().messageCount == 20)
        let first = try fixture.homeIDs("me@social.example")
        #expect(try fixture.homeIDs("me@other.example") == first)
        // A second account of the first server sees the same statuses: the same messages.
        fixture.account = "friend@social.example"
        try await fixture.run()
        #expect(try fixture.store.state().messageCount == 20)
        #expect(try fixture.homeIDs("friend@social.example").count == 10)
        #expect(try fixture.store.syncedAccounts().map(\.account) == ["friend@social.example", "me@other.example", "me@social.example"])
    }

    @Test func theSnapshotIsRewrittenOnceAtTheEndNotPerPage() async throws {
        let seen = Mutex<[Int64]>([])
        let box = Mutex<TimelineStore?>(nil)
        let server = FakeMastodonServer { _ in
            if let store = box.withLock({ $0 }), let header = try? store.snapshotFile.readHeader() {
                seen.withLock { $0.append(header.generation) }
            }
        }
        let fixture = try SyncFixture(server: server)
        try fixture.store.upsert(users: [Samples.alice], messages: [Samples.message(1)])
        let before = try fixture.store.snapshotFile.readHeader().generation
        box.withLock { $0 = fixture.store }
        server.post(120)
        let summary = try await fixture.run()
        #expect(seen.withLock { $0 }.count == summary.requests)
        #expect(seen.withLock { $0 }.allSatisfy { $0 == before })
        #expect(try fixture.store.snapshotFile.readHeader().generation == fixture.store.state().generation)
        guard case .written = summary.snapshot else { Issue.record("no snapshot written: \(String(describing: summary.snapshot))"); return }
    }

    @Test func aFailedSyncStillLeavesAFreshSnapshotOfWhatItStored() async throws {
        let fixture = try SyncFixture()
        fixture.server.post(100)
        // Request 0 reads the filters; 1 and 2 the first home pages.
        fixture.server.configure { $0.faults[3] = .status(503) }
        await #expect(throws: ServerError.serverFailed(url: FakeMastodonServer.base + "/api/v1/timelines/home?limit=40&max_id=\(fixture.server.homeIDs[79])", status: 503, attempts: 1)) {
            try await fixture.run()
        }
        #expect(try fixture.homeIDs().count == 80)
        #expect(try fixture.store.snapshotFile.readHeader().generation == fixture.store.state().generation)
        #expect(try fixture.gaps() == ["\(fixture.server.homeIDs[79])..(120)"])
    }

    @Test func aServerChangedUnderAnAccountNameStartsItsSyncAfresh() async throws {
        let fixture = try SyncFixture()
        let other = FakeMastodonServer(base: "https://other.example")
        fixture.server.post(5)
        other.post(3)
        try await fixture.run()
        try await fixture.sync(server: other.base, transport: other).run()
        #expect(try fixture.homeIDs() == other.homeIDs)
        #expect(try fixture.store.syncedAccount(named: fixture.account)?.server == "other.example")
        try fixture.store.forgetSyncedAccount(named: fixture.account)
        #expect(try fixture.store.syncedAccounts().isEmpty)
        #expect(try fixture.store.state().messageCount == 8)
    }
}
