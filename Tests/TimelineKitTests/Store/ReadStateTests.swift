import Foundation
import Testing
@testable import TimelineKit

/// Read state lives in `unread_messages` (schema v2): these pin down that every way of writing it —
/// upserts in both modes, mark-read, deletes, the `sqlite3` shell — keeps flags and counts true.
@Suite struct ReadStateTests {
    private func unreadCountByScan(_ path: String) throws -> Int {
        Int(try SQLiteShell.run(path, "SELECT count(*) FROM unread_messages").trimmed) ?? -1
    }

    @Test func aNewMessageTakesItsOwnReadFlagAndAStoredOneKeepsItsFlag() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: [Samples.message(1, read: true), Samples.message(2)])
        #expect(try store.message(id: "m1")?.isRead == true)
        #expect(try store.message(id: "m2")?.isRead == false)
        #expect(try store.state().unreadCount == 1)

        // A refetch with the opposite flags, keeping stored state: nothing moves.
        let generation = try store.state().generation
        try store.upsert(messages: [Samples.message(1), Samples.message(2, read: true)])
        #expect(try store.message(id: "m1")?.isRead == true)
        #expect(try store.message(id: "m2")?.isRead == false)
        #expect(try store.state().generation == generation)
    }

    @Test func overwritingSetsTheFlagBothWaysAndAnEqualFlagChangesNothing() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: [Samples.message(1, read: true), Samples.message(2)])
        try store.upsert(messages: [Samples.message(1), Samples.message(2, read: true)], readState: .overwrite)
        #expect(try store.message(id: "m1")?.isRead == false)
        #expect(try store.message(id: "m2")?.isRead == true)
        #expect(try store.state().unreadCount == 1)

        let generation = try store.state().generation
        try store.upsert(messages: [Samples.message(1), Samples.message(2, read: true)], readState: .overwrite)
        #expect(try store.state().generation == generation)
    }

    @Test func markReadAndUnreadCountOnlyTheMessagesThatChanged() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...10))
        #expect(try store.markRead(ids: ["m1", "m2", "m3", "missing"]) == 3)
        #expect(try store.markRead(ids: ["m1", "m2", "m4"]) == 1)
        #expect(try store.markRead(ids: ["m1", "m5"], read: false) == 1)
        #expect(try store.state().unreadCount == 7)
        #expect(try store.markAllRead() == 7)
        #expect(try store.state().unreadCount == 0)
        #expect(try unreadCountByScan(directory.file("timeline.sqlite")) == 0)
        #expect(try store.timeline(limit: 10).messages.allSatisfy(\.isRead))
    }

    @Test func deletingAMessageTakesItsReadStateWithIt() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...4))
        try store.markRead(ids: ["m1", "m2"])
        try store.deleteMessages(ids: ["m1", "m3"])  // one read, one unread
        #expect(try store.state().messageCount == 2)
        #expect(try store.state().unreadCount == 1)
        #expect(try unreadCountByScan(directory.file("timeline.sqlite")) == 1)
    }

    @Test func theSQLiteShellKeepsTheCountsTrueWhenItInsertsMarksAndDeletes() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("timeline.sqlite")
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...3))
        try SQLiteShell.run(path, """
            INSERT INTO messages (id, author_id, text, created_at) VALUES ('s1', 'u1', 'from the shell', 1795000000000);
            DELETE FROM unread_messages WHERE seq = (SELECT seq FROM messages WHERE id = 'm1');
            DELETE FROM messages WHERE id = 'm1';
            DELETE FROM messages WHERE id = 'm2';
            """)
        let state = try store.state()
        #expect(state.messageCount == 2)
        #expect(state.unreadCount == 2)
        #expect(try store.message(id: "s1")?.isRead == false)
        #expect(try unreadCountByScan(path) == 2)
    }

    @Test func aVersion1DatabaseKeepsEachMessagesReadFlagAndItsRowNumbers() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("timeline.sqlite")
        try FileManager.default.copyItem(atPath: Fixtures.path("schema-v1.sqlite"), toPath: path)
        let rowids = try SQLiteShell.run(path, "SELECT group_concat(pair, ',') FROM (SELECT id || '=' || rowid AS pair FROM messages ORDER BY rowid)").trimmed
        let generation = try SQLiteShell.run(path, "SELECT generation FROM timeline_state").trimmed

        let store = try TimelineStore(path: path)
        #expect(try store.message(id: "113000000000000001")?.isRead == true)
        #expect(try store.message(id: "113000000000000002")?.isRead == false)
        #expect(try store.message(id: "113000000000000003")?.isRead == false)
        #expect(try SQLiteShell.run(path, "SELECT group_concat(pair, ',') FROM (SELECT id || '=' || seq AS pair FROM messages ORDER BY seq)").trimmed == rowids)
        // Counts that were right are kept, and so is the generation: a snapshot stays fresh.
        #expect(try store.state().unreadCount == 2)
        #expect(try store.state().generation == Int64(generation))
        #expect(try SQLiteShell.run(path, "PRAGMA integrity_check").trimmed == "ok")
        #expect(try SQLiteShell.run(path, "PRAGMA foreign_key_check").trimmed == "")
    }

    @Test func aVersion1DatabaseWithDriftedCountsAndAnOrphanMessageStillMigrates() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("timeline.sqlite")
        try FileManager.default.copyItem(atPath: Fixtures.path("schema-v1.sqlite"), toPath: path)
        // The shell enforces no foreign keys: a message by nobody, and counts set wrong by hand.
        try SQLiteShell.run(path, """
            INSERT INTO messages (id, author_id, text, created_at) VALUES ('orphan', 'nobody', 'x', 1795000000000);
            UPDATE timeline_state SET unread_count = 99, message_count = 1;
            """)
        let generation = Int64(try SQLiteShell.run(path, "SELECT generation FROM timeline_state").trimmed) ?? -1

        let store = try TimelineStore(path: path)
        let state = try store.state()
        #expect(state.messageCount == 4)
        #expect(state.unreadCount == 3)
        #expect(state.generation > generation)
        #expect(try store.message(id: "orphan")?.authorID == "nobody")
    }
}
