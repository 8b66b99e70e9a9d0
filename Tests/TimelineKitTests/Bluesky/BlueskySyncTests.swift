import Foundation
import Testing
@testable import TimelineKit

/// Bluesky's home timeline and notifications synced through the pager Mastodon's sync shares,
/// against a PDS in memory.
@Suite struct BlueskySyncTests {
    /// A store (with the database queries of the Mastodon sync's tests) and a logged-in client.
    private func setUp(_ pds: FakePDS, options: BlueskySync.Options = BlueskySync.Options()) async throws -> (SyncFixture, BlueskySync) {
        let fixture = try SyncFixture()
        fixture.account = "alice.test"
        return (fixture, try await sync(pds, fixture, options: options))
    }

    private func sync(_ pds: FakePDS, _ fixture: SyncFixture, options: BlueskySync.Options = BlueskySync.Options(),
                      attempts: Int = 1) async throws -> BlueskySync {
        let client = BlueskyClient(service: try ServerAddress(FakePDS.entryway), session: nil, transport: pds,
                                   policy: RequestPolicy(maximumAttempts: attempts), clock: fixture.clock.clock)
        try await client.createSession(identifier: "alice.test", password: FakePDS.password)
        return BlueskySync(store: fixture.store, account: fixture.account, client: client, options: options)
    }

    /// Requests by NSID, leaving out the login.
    private func calls(_ pds: FakePDS) -> [String] {
        pds.requests.map { $0.url.components(separatedBy: "/xrpc/").last!.components(separatedBy: "?").first! }
            .filter { $0 != "com.atproto.server.createSession" }
    }

    @Test func aFirstSyncKeepsTheNewest200InTheServersOrderAndLaterOnesStopAtWhatIsHeld() async throws {
        let pds = FakePDS()
        let all = pds.post(250)
        let (fixture, sync) = try await setUp(pds, options: BlueskySync.Options(syncsNotifications: false))
        let first = try await sync.run()
        #expect(first.newStatuses == 200)
        // The preferences first (issue 34), then the timeline.
        #expect(calls(pds) == ["app.bsky.actor.getPreferences", "app.bsky.feed.getTimeline", "app.bsky.feed.getTimeline"])
        #expect(try fixture.homeIDs() == Array(all.prefix(200)))
        #expect(try fixture.gaps().isEmpty)

        let newer = pds.post(30)
        let second = try await sync.run()
        #expect(second.newStatuses == 30)
        // The preferences, a probe of one item, then the gap below it in pages of 10 and 100:
        // the last reaches what is held.
        #expect(second.requests == 4)
        #expect(try fixture.homeIDs() == newer + Array(all.prefix(200)))

        // Stored as the decoder reads them: a repost by its reposter, the account's own posts read.
        let repost = try #require(try fixture.store.message(id: "at://did:plc:u9/app.bsky.feed.repost/r248"))
        #expect(repost.repostOfID == "at://did:plc:u4/app.bsky.feed.post/p248")
        #expect(repost.authorID == "did:plc:u9")
        let own = try #require(try fixture.store.message(id: "at://did:plc:u0/app.bsky.feed.post/p270"))
        #expect(own.isRead)
        #expect(try fixture.store.message(id: "at://did:plc:u2/app.bsky.feed.post/p271")?.isRead == false)
    }

    @Test func moreNewThanTheBoundLeavesAGapThatTheNextSyncFills() async throws {
        let pds = FakePDS()
        pds.post(20)
        let options = BlueskySync.Options(pageSize: 10, maximumPagesPerTimeline: 3, syncsNotifications: false)
        let (fixture, sync) = try await setUp(pds, options: options)
        try await sync.run()
        #expect(try fixture.homeIDs().count == 20)

        pds.post(45)
        let away = try await sync.run()
        #expect(away.gapsLeft == 1)
        // The probe (1, not counted against the bound), then three pages of 10.
        #expect(away.newStatuses == 31)
        let caughtUp = try await sync.run()
        #expect(caughtUp.gapsLeft == 0)
        let server = pds.state.withLock { $0.feed }.count
        #expect(server == 65)
        #expect(try fixture.homeIDs() == pds.post(0) + Self.entryIDs(pds))
        #expect(try fixture.gaps().isEmpty)
    }

    /// Every entry ID of the fake's feed, newest first.
    private static func entryIDs(_ pds: FakePDS) -> [String] {
        pds.state.withLock { $0.feed }.map { item -> String in
            if let range = item.range(of: #""reason":{"$type":"app.bsky.feed.defs#reasonRepost","uri":""#) {
                return String(item[range.upperBound...].prefix { $0 != "\"" })
            }
            let start = item.range(of: #""uri":""#)!.upperBound
            return String(item[start...].prefix { $0 != "\"" })
        }
    }

    @Test func aSyncCutOffAtAnyRequestEndsLikeOneNeverCutOff() async throws {
        let options = BlueskySync.Options(pageSize: 10, maximumPagesPerTimeline: 4, syncsNotifications: false)
        let clean = FakePDS()
        clean.post(25)
        let (expected, cleanSync) = try await setUp(clean, options: options)
        try await cleanSync.run()
        clean.post(35)
        try await cleanSync.run()
        try await cleanSync.run()

        // The second sync makes four requests (35 new in pages of 10, four at most): cut each.
        for cut in 0 ..< 4 {
            let pds = FakePDS()
            pds.post(25)
            let (fixture, sync) = try await setUp(pds, options: options)
            try await sync.run()
            pds.post(35)
            let done = pds.requests.count
            pds.state.withLock { $0.unreachable = [done + cut] }
            await #expect(throws: ServerError.self, "cut at request \(cut)") { try await sync.run() }
            try await sync.run()
            try await sync.run()
            #expect(try fixture.everything() == (try expected.everything()), "cut at request \(cut)")
        }
    }

    @Test func halfABodyNamesTheURLAndWhereAndStoresNothing() async throws {
        let pds = FakePDS()
        let items = pds.post(5)
        let whole = #"{"feed":["# + pds.state.withLock { $0.feed }.joined(separator: ",") + "]}"
        pds.answer("app.bsky.feed.getTimeline", FakePDS.json(200, String(whole.prefix(whole.count / 2))))
        let (fixture, sync) = try await setUp(pds, options: BlueskySync.Options(syncsNotifications: false))
        do throws(ServerError) {
            try await sync.run()
            Issue.record("half a body was read")
        } catch {
            guard case let .invalidResponse(url, problem) = error else { Issue.record("\(error)"); return }
            #expect(url == FakePDS.pds + "/xrpc/app.bsky.feed.getTimeline")
            #expect(problem.contains("line 1, column"), "\(problem)")
        }
        #expect(try fixture.homeIDs().isEmpty)
        #expect(try fixture.store.message(id: items[0]) == nil)
    }

    @Test func notificationsNameWhoDidWhatAndTheLikedPostsAreFetched() async throws {
        let pds = FakePDS()
        let own = FakePDS.postView(author: 0, key: "mine", text: "my post", second: 5)
        let ownURI = "at://did:plc:u0/app.bsky.feed.post/mine"
        pds.state.withLock { state in
            state.posts[ownURI] = own
            state.notifications = [
                #"{"uri":"at://did:plc:u2/app.bsky.feed.like/l1","cid":"x","reason":"like","reasonSubject":"\#(ownURI)","#
                    + #""author":{"did":"did:plc:u2","handle":"u2.test","displayName":"Bea"},"record":{},"isRead":false,"indexedAt":"2026-08-01T14:10:00Z"}"#,
                #"{"uri":"at://did:plc:u3/app.bsky.feed.post/re1","cid":"y","reason":"reply","reasonSubject":"\#(ownURI)","#
                    + #""author":{"did":"did:plc:u3","handle":"u3.test"},"record":{"$type":"app.bsky.feed.post","text":"nice","createdAt":"2026-08-01T14:05:00Z","#
                    + #""reply":{"root":{"uri":"\#(ownURI)","cid":"c"},"parent":{"uri":"\#(ownURI)","cid":"c"}}},"isRead":false,"indexedAt":"2026-08-01T14:05:01Z"}"#,
                #"{"uri":"at://did:plc:u4/app.bsky.graph.follow/f1","cid":"z","reason":"follow","#
                    + #""author":{"did":"did:plc:u4","handle":"u4.test"},"record":{},"isRead":true,"indexedAt":"2026-08-01T14:00:00Z"}"#,
            ]
        }
        pds.post(3)
        let (fixture, sync) = try await setUp(pds)
        let summary = try await sync.run()
        #expect(summary.newNotifications == 3)
        #expect(calls(pds) == ["app.bsky.actor.getPreferences", "app.bsky.feed.getTimeline", "app.bsky.notification.listNotifications",
                               "app.bsky.feed.getPosts"])
        let liked = try #require(try fixture.store.message(id: ownURI))
        #expect(liked.text == "my post")
        #expect(liked.isRead)
        let notifications = try fixture.store.notifications(account: "alice.test", limit: 10)
        let renderer = NotificationRenderer()
        #expect(notifications.map { renderer.sentence(for: $0) } == [
            "♥ Bea liked your post \"my post\"",
            "↩ u3.test replied to you: \"nice\"",  // no display name: the handle, as the app shows it
            "+ u4.test followed you",
        ])
        // A second sync asks for nothing it holds.
        try await sync.run()
        #expect(calls(pds).filter { $0 == "app.bsky.feed.getPosts" }.count == 1)
    }

    /// `count` follow notifications at the top of the PDS's list, numbered from `from`.
    private func follows(_ pds: FakePDS, _ count: Int, from: Int) {
        pds.state.withLock { state in
            for n in from ..< from + count {
                state.notifications.insert(#"{"uri":"at://did:plc:u4/app.bsky.graph.follow/f\#(n)","cid":"z","reason":"follow","#
                    + #""author":{"did":"did:plc:u4","handle":"u4.test"},"record":{},"isRead":false,"indexedAt":"2026-08-01T14:00:00Z"}"#, at: 0)
            }
        }
    }

    /// The `limit` of each request to `nsid`, in order.
    private func limits(_ pds: FakePDS, _ nsid: String) -> [String] {
        pds.requests.filter { $0.url.contains("/xrpc/" + nsid + "?") }.map { request in
            FakePDS.query(of: request.url).first { $0.0 == "limit" }?.1 ?? "-"
        }
    }

    /// Bluesky cannot be asked for what is newer than a post: a synced timeline starts with a
    /// probe of one entry, which ends its sync when it is stored (issue 28), and is not decoded.
    @Test func aSyncWithNothingNewProbesOneEntryOfEachTimelineAndStoresNothing() async throws {
        let pds = FakePDS()
        pds.post(150)
        follows(pds, 30, from: 0)
        let (fixture, sync) = try await setUp(pds)
        try await sync.run()
        let generation = try fixture.store.state().generation
        let before = pds.requests.count
        let summary = try await sync.run()
        // The preferences and one probe of each timeline.
        #expect(pds.requests.count - before == 3)
        #expect(limits(pds, "app.bsky.feed.getTimeline").last == "1")
        #expect(limits(pds, "app.bsky.notification.listNotifications").last == "1")
        #expect(summary.newStatuses == 0 && summary.newNotifications == 0)
        #expect(summary.homeTraffic.entriesDecoded == 0 && summary.homeTraffic.requests == 1)
        #expect(summary.notificationTraffic.entriesDecoded == 0 && summary.notificationTraffic.requests == 1)
        #expect(summary.homeTraffic.bodyBytes < 2048 && summary.notificationTraffic.bodyBytes < 2048)
        #expect(try fixture.store.state().generation == generation)
    }

    /// The page of 10 below the probe holds the 4 other new entries and 6 stored ones: it is
    /// decoded down to the first stored one, so 5 new entries cost 5 decoded, as on Mastodon.
    @Test func fiveNewEntriesAreDecodedFromAProbeAndAPageOfTenNotAHundred() async throws {
        let pds = FakePDS()
        let old = pds.post(150)
        follows(pds, 30, from: 0)
        let (fixture, sync) = try await setUp(pds)
        try await sync.run()
        let stored = try fixture.homeIDs()
        let storedNotifications = try fixture.notificationIDs()
        let newer = pds.post(5)
        follows(pds, 5, from: 100)
        let summary = try await sync.run()
        #expect(summary.newStatuses == 5 && summary.newNotifications == 5)
        #expect(Array(limits(pds, "app.bsky.feed.getTimeline").suffix(2)) == ["1", "10"])
        #expect(Array(limits(pds, "app.bsky.notification.listNotifications").suffix(2)) == ["1", "10"])
        #expect(summary.homeTraffic.entriesDecoded == 5 && summary.notificationTraffic.entriesDecoded == 5)
        #expect(try fixture.homeIDs() == newer + stored)
        #expect(stored == Array(old.prefix(200)))
        #expect(try fixture.notificationIDs().count == storedNotifications.count + 5)
        #expect(try fixture.notificationIDs().dropFirst(5).elementsEqual(storedNotifications))
        #expect(try fixture.gaps().isEmpty && fixture.gaps("notifications").isEmpty)
    }

    /// Reading stops at an entry held under the same feed item ID, not at a stored post: a
    /// repost of a stored post, newer than the new posts below it, is a new entry, and the
    /// entries below it are read and kept.
    @Test func aNewRepostOfAStoredPostDoesNotEndTheReadingAndTheEntriesBelowItAreKept() async throws {
        let pds = FakePDS()
        pds.post(150)
        let (fixture, sync) = try await setUp(pds, options: BlueskySync.Options(syncsNotifications: false))
        try await sync.run()
        let stored = try fixture.homeIDs()
        let reposted = try #require(stored.dropFirst(3).first)
        #expect(reposted == "at://did:plc:u2/app.bsky.feed.post/p146")
        let below = pds.post(2)
        let repost = pds.repost(of: 146, by: 8)
        let above = pds.post(2)
        let summary = try await sync.run()
        #expect(summary.newStatuses == 5)
        #expect(try fixture.homeIDs() == above + [repost] + below + stored)
        #expect(summary.homeTraffic.entriesDecoded == 5)
        #expect(try fixture.store.message(id: repost)?.repostOfID == reposted)
        #expect(try fixture.gaps().isEmpty)
    }

    /// A stored repost whose reason carried no record URI is held under the post's URI and the
    /// reposter's DID; the page is read down to it by that ID.
    @Test func aStoredRepostWithoutARecordURIEndsTheReadingAtIt() async throws {
        let pds = FakePDS()
        pds.post(150)
        let top = pds.repost(of: 120, by: 7, recordURI: false)
        let (fixture, sync) = try await setUp(pds, options: BlueskySync.Options(syncsNotifications: false))
        try await sync.run()
        let stored = try fixture.homeIDs()
        #expect(stored.first == top)
        let newer = pds.post(5)
        let summary = try await sync.run()
        #expect(summary.newStatuses == 5 && summary.homeTraffic.entriesDecoded == 5)
        #expect(try fixture.homeIDs() == newer + stored)
    }

    /// A page read down to an entry held when it was read ends there when stored, even if
    /// another process removed that entry in between (a deleted post, `prune`): the new entries
    /// go right above the top, and the entry, never decoded, is not placed.
    @Test func aPageEndsAtTheHeldEntryItWasReadDownToEvenIfThatEntryWentSince() async throws {
        let pds = FakePDS()
        pds.post(150)
        let (fixture, sync) = try await setUp(pds, options: BlueskySync.Options(syncsNotifications: false))
        try await sync.run()
        let stored = try fixture.homeIDs()
        let newer = pds.post(2)
        let page = try await sync.fetch(.home, cursor: nil, limit: 5)
        #expect(page.entryIDs == newer && page.reachedHeldID == stored.first)
        try fixture.store.storeWrite { transaction throws(TimelineStoreError) in
            try transaction.withSQLite { () throws(SQLiteError) in
                try SyncLedger(connection: transaction.connection, account: fixture.account, timeline: .home)
                    .removeHomeEntry(statusID: stored[0])
            }
        }
        let progress = try sync.pager.store(page, of: .home, at: .newest(), depth: 200)
        #expect(progress.newEntries == 2)
        #expect(try fixture.homeIDs() == newer + stored.dropFirst())
        #expect(try fixture.gaps().isEmpty)
    }

    @Test func moreNewThanAPageGrowsToFullPagesAndLosesNothing() async throws {
        let pds = FakePDS()
        pds.post(150)
        let (fixture, sync) = try await setUp(pds, options: BlueskySync.Options(syncsNotifications: false))
        try await sync.run()
        let stored = try fixture.homeIDs()
        let newer = pds.post(250)
        let summary = try await sync.run()
        #expect(summary.newStatuses == 250 && summary.isCaughtUp)
        #expect(Array(limits(pds, "app.bsky.feed.getTimeline").suffix(5)) == ["1", "10", "100", "100", "100"])
        #expect(try fixture.homeIDs() == newer + stored)
        #expect(try fixture.gaps().isEmpty)
    }
}
