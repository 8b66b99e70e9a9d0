import Foundation
import Testing
@testable import TimelineKit

@Suite struct PruneTests {
    static let carol = User(id: "u3", handle: "carol", name: "Carol")
    static let dave = User(id: "u4", handle: "dave", name: "Dave")
    static let erin = User(id: "u5", handle: "erin", name: "Erin")

    /// The moment between message 5 and message 6.
    static let cutoff = Samples.epoch.addingTimeInterval(5.5 * 60)

    @Test func removesTheMessagesOlderThanTheCutoff() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...10))
        let summary = try store.prune(olderThan: Self.cutoff)
        #expect(summary.messagesRemoved == 5)
        #expect(!summary.isDryRun)
        #expect(try store.timeline(limit: 20).messages.map(\.id) == ["m10", "m9", "m8", "m7", "m6"])
        #expect(try store.state().messageCount == 5)
    }

    /// A synced account's notifications go with the messages of their time; one that stays keeps
    /// the message it is about ("Bob liked your post …", however old the post) and who acted.
    @Test func notificationsBeforeTheCutoffGoAndThoseAfterKeepTheirPostAndActor() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(users: [Self.carol], messages: Samples.messages(1...10) + [Samples.message(11, author: Self.carol)])
        let old = Int64(Samples.epoch.timeIntervalSince1970 * 1000) + 60_000   // before the cutoff
        let recent = Int64(Self.cutoff.timeIntervalSince1970 * 1000) + 60_000
        // Carol (author of m11 only) liked m1 after the cutoff; Bob liked m2 before it.
        try SQLiteShell.run(store.path, """
            INSERT INTO synced_entries (account, timeline, position, id, type, created_at, actor_id, message_id) VALUES
              ('me@social.example', 'notifications', 2, 'n2', 'favourite', \(recent), 'u3', 'm1'),
              ('me@social.example', 'notifications', 1, 'n1', 'favourite', \(old), 'u2', 'm2');
            """)
        try store.deleteMessages(ids: ["m11"])

        let dry = try store.prune(olderThan: Self.cutoff, dryRun: true)
        #expect(dry.notificationsRemoved == 1)
        let summary = try store.prune(olderThan: Self.cutoff)
        #expect(summary.notificationsRemoved == 1)
        #expect(summary.messagesRemoved == 4)  // m2…m5; m1 stays for the notification about it
        #expect(Set(try store.timeline(limit: 20).messages.map(\.id)) == ["m1", "m6", "m7", "m8", "m9", "m10"])
        #expect(try store.users(ids: ["u3"]).count == 1)
        #expect(try SQLiteShell.run(store.path, "SELECT id FROM synced_entries WHERE timeline = 'notifications'") == "n2\n")
    }

    @Test func keepUnreadKeepsOldUnreadMessages() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: (1...10).map { Samples.message($0, read: $0 % 2 == 0) })
        let summary = try store.prune(olderThan: Self.cutoff, keepUnread: true)
        #expect(summary.messagesRemoved == 2)  // m2 and m4: old and read
        #expect(summary.unreadKept == 3)
        #expect(Set(try store.timeline(limit: 20).messages.map(\.id)) == ["m1", "m3", "m5", "m6", "m7", "m8", "m9", "m10"])
        #expect(try store.state().unreadCount == 5)
    }

    @Test func withoutKeepUnreadOldUnreadMessagesGoToo() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: (1...10).map { Samples.message($0, read: $0 % 2 == 0) })
        #expect(try store.prune(olderThan: Self.cutoff).messagesRemoved == 5)
        #expect(try store.state().unreadCount == 2)
    }

    @Test func aDryRunChangesNothingAndCountsWhatAPruneRemoves() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(users: [Self.dave])
        try store.upsert(messages: Samples.messages(1...10) + [Samples.message(11, author: Self.dave)].map {
            var old = $0
            old.createdAt = Samples.epoch
            return old
        })
        let files = [store.path, store.path + "-wal", store.snapshotFile.path]
        let before = files.map { FileManager.default.contents(atPath: $0) }
        let generation = try store.state().generation

        let dryRun = try store.prune(olderThan: Self.cutoff, dryRun: true)
        #expect(dryRun.isDryRun)
        #expect(files.map { FileManager.default.contents(atPath: $0) } == before)
        #expect(try store.state().generation == generation)

        let pruned = try store.prune(olderThan: Self.cutoff)
        #expect((dryRun.messagesRemoved, dryRun.usersRemoved) == (pruned.messagesRemoved, pruned.usersRemoved))
        #expect((pruned.messagesRemoved, pruned.usersRemoved) == (6, 1))
    }

    @Test func usersAreRemovedOnlyWhenNothingRefersToThemAnyMore() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(users: [Self.carol, Self.dave, Self.erin])
        var replyToCarol = Samples.message(10, author: Samples.bob)
        replyToCarol.replyToID = "m3"
        replyToCarol.replyToUserID = Self.carol.id
        try store.upsert(messages: [
            Samples.message(1, author: Samples.alice),  // old; alice also wrote m9
            Samples.message(2, author: Samples.bob),    // old; bob also wrote m10
            Samples.message(3, author: Self.carol),     // old; m10 replies to carol
            Samples.message(4, author: Self.dave),      // old; nothing else names dave
            Samples.message(9, author: Samples.alice),
            replyToCarol,
        ])
        // erin never wrote anything: not the prune's business.
        let summary = try store.prune(olderThan: Self.cutoff)
        #expect(summary.messagesRemoved == 4)
        #expect(summary.usersRemoved == 1)
        #expect(try store.allUsers().map(\.id) == ["u1", "u2", "u3", "u5"])
        #expect(try store.state().userCount == 4)
    }

    @Test func originalsThatARemainingMessageRepostsOrQuotesStay() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        var repost = Samples.message(8, author: Samples.bob, text: "")
        repost.repostOfID = "m1"
        var quote = Samples.message(9, author: Samples.bob)
        quote.quoteOfID = "m2"
        var reply = Samples.message(10, author: Samples.bob)
        reply.replyToID = "m3"
        try store.upsert(messages: Samples.messages(1...3) + [repost, quote, reply])

        #expect(try store.prune(olderThan: Self.cutoff).messagesRemoved == 1)
        let page = try store.timeline(limit: 20)
        #expect(page.messages.map(\.id) == ["m10", "m9", "m8", "m2", "m1"])
        // The reply stays without its parent, and the timeline still renders it.
        let text = TimelineRenderer(options: RenderOptions(width: 60)).renderText(page, now: Samples.epoch.addingTimeInterval(3600))
        #expect(text.contains("↩ reply\n") && text.contains("message number 10"))

    }

    @Test func theSnapshotFollowsAPrune() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...10))
        try store.prune(olderThan: Self.cutoff)
        #expect(try store.snapshotStatus().isFresh)
        let snapshot = try store.snapshotFile.read()
        #expect(snapshot.window.messages.map(\.id) == ["m10", "m9", "m8", "m7", "m6"])
    }

    @Test func aPruneThatRemovesNothingChangesNothing() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(6...10))
        let generation = try store.state().generation
        let summary = try store.prune(olderThan: Self.cutoff)
        #expect((summary.messagesRemoved, summary.usersRemoved) == (0, 0))
        #expect(summary.maintenance == nil)
        #expect(try store.state().generation == generation)
    }

    @Test func aLargePruneIsAFewStatementsNotOnePerRow() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory, configuration: .init(maintenance: MaintenancePolicy(interval: nil)))
        try store.upsert(messages: (1...3000).map { Samples.message($0) })
        let runs = { () throws -> Int in
            try store.writer.withConnection { (connection: SQLiteConnection) -> Int in connection.statementRuns }
        }
        let before = try runs()
        #expect(try store.prune(olderThan: Samples.epoch.addingTimeInterval(2500 * 60)).messagesRemoved == 2499)
        #expect(try runs() - before < 40)
    }
}
