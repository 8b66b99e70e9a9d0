import Foundation
import Testing
@testable import TimelineKit

@Suite struct TimelineThreadTests {
    private static func reply(_ n: Int, to parent: Int?, author: User = Samples.alice) -> Message {
        var message = Samples.message(n, author: author)
        message.replyToID = parent.map { "m\($0)" }
        return message
    }

    @Test func aThreadIsTheChainAboveAndTheRepliesBelowDepthFirstInTheOrderWritten() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        // m1 ← m2 ← m4, m1 ← m3 (written after m2), m2 ← m5; m6 unrelated.
        try store.upsert(messages: [Self.reply(1, to: nil), Self.reply(2, to: 1), Self.reply(3, to: 1),
                                    Self.reply(4, to: 2), Self.reply(5, to: 2), Self.reply(6, to: nil)])
        let whole = try store.thread(around: "m1")
        #expect(whole.entries.map(\.message.id) == ["m1", "m2", "m4", "m5", "m3"])
        #expect(whole.entries.map(\.depth) == [0, 1, 2, 2, 1])
        #expect(whole.missingParentID == nil && !whole.isCut)

        let around = try store.thread(around: "m2")
        #expect(around.entries.map(\.message.id) == ["m1", "m2", "m4", "m5"])
        let cut = try store.thread(around: "m1", maximumReplies: 2)
        #expect(cut.entries.map(\.message.id) == ["m1", "m2", "m4"] && cut.isCut)
        #expect(throws: TimelineStoreError.unknownMessages(ids: ["nope"], given: 1)) { try store.thread(around: "nope") }
    }

    /// A file can make replies loop (m1 replies to m2, m2 to m1): the thread still ends.
    @Test func aLoopOfRepliesEnds() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: [Self.reply(1, to: 2), Self.reply(2, to: 1)])
        let thread = try store.thread(around: "m1")
        #expect(thread.entries.map(\.message.id).sorted() == ["m1", "m2"])
        #expect(thread.missingParentID == nil)
    }

    /// A loop with a branch off it (issue 33: f replies to c, c to f, e to c): the walk down
    /// stops at a message already shown, as the walk up does, so no message repeats and nothing
    /// reads as cut.
    @Test func theWalkDownStopsAtAMessageAlreadyShown() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        // m1 is f, m2 is c, m3 is e.
        try store.upsert(messages: [Self.reply(1, to: 2), Self.reply(2, to: 1), Self.reply(3, to: 2)])
        let aroundF = try store.thread(around: "m1")
        #expect(aroundF.entries.map(\.message.id) == ["m2", "m1"])
        #expect(aroundF.entries.map(\.depth) == [0, 1])
        #expect(!aroundF.isCut)
        let aroundC = try store.thread(around: "m2")
        #expect(aroundC.entries.map(\.message.id) == ["m1", "m2", "m3"])
        #expect(aroundC.entries.map(\.depth) == [0, 1, 2])
        #expect(!aroundC.isCut)
    }

    /// Each level of replies is one lookup in the index of replies, not a scan of the timeline.
    @Test func repliesAreFoundThroughTheIndexOfReplies() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: [Self.reply(1, to: nil), Self.reply(2, to: 1)])
        let plan = try SQLiteShell.run(store.path, """
            EXPLAIN QUERY PLAN WITH RECURSIVE replies(reply_id, depth) AS (
                SELECT id, 1 FROM messages WHERE reply_to_id = 'm1'
                UNION ALL SELECT m.id, r.depth + 1 FROM replies AS r JOIN messages AS m ON m.reply_to_id = r.reply_id)
            SELECT * FROM replies
            """)
        #expect(plan.components(separatedBy: "messages_by_reply").count == 3, "\(plan)")
    }
}
