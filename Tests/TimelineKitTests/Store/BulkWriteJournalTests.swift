import Foundation
import Testing
import Synchronization
@testable import TimelineKit

/// Issue 28, finding 3: an import is one transaction of one upsert per message, and SQLite gave
/// each upsert a statement journal (a copy of every page it changed, so that it could undo
/// itself alone), which spilled to a temporary file: 2.4 GiB per 100k messages, most of the
/// import's system time. Three things each made an upsert journaled: the `ON CONFLICT DO UPDATE`
/// (always compiled ABORT), the search index's row-by-row triggers (a write to a virtual
/// table), and the immediate foreign key of `unread_messages`. Now: `OR FAIL` inserts and
/// updates (`StoredColumns.makeInsert`), the triggers out of the schema in bulk transactions
/// (`SearchIndexBatch.suspendRowByRowTriggers`), the key checked at commit (migration 12).
@Suite struct BulkWriteJournalTests {
    static func triggers(_ path: String) throws -> String {
        try SQLiteShell.run(path, "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
    }

    @Test func theProbeSeesTheStatementJournalOfASmallWritesUpsert() throws {
        // Below `bulkRows` the row-by-row triggers stay, and a message upsert is journaled: the
        // probe must see that, or its silence in the test below would mean nothing.
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        let saw = try store.write { transaction in
            let probe = try StatementJournalProbe(transaction.connection)
            try transaction.upsert(messages: [Samples.message(1)])
            return try probe.sawStatementJournal()
        }
        #expect(saw)
    }

    @Test func aBulkWritesUpsertsRunWithoutAStatementJournal() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: (1...20).map { Samples.message($0) })
        let count = TimelineTransaction.bulkRows
        let saw = try store.write { transaction in
            try transaction.upsert(messages: (1_000 ..< 1_000 + count).map { Samples.message($0) })
            let probe = try StatementJournalProbe(transaction.connection)
            // Every kind of upsert: users new, unchanged and changed; messages new unread, new
            // read, unchanged, changed, and their read flags overwritten both ways.
            try transaction.upsert(users: [User(id: "u3", handle: "carol", name: "Carol"), Samples.alice,
                                           User(id: "u2", handle: "bob@example.social", name: "Bob, renamed")])
            try transaction.upsert(messages: [Samples.message(5_000), Samples.message(5_001, read: true),
                                              Samples.message(1), Samples.message(2, text: "an edited text")])
            try transaction.upsert(messages: [Samples.message(3, read: true), Samples.message(4, text: "edited and read", read: true)],
                                   readState: .overwrite)
            try transaction.upsert(messages: [Samples.message(5_001, read: false)], readState: .overwrite)
            try transaction.markRead(ids: ["m6"])
            return try probe.sawStatementJournal()
        }
        #expect(!saw, "a bulk write's upserts opened a statement journal")
        // And they did what upserts do.
        let state = try store.state()
        #expect(state.messageCount == 20 + count + 2)
        #expect(state.userCount == 3)
        #expect(state.unreadCount == 20 + count + 2 - 3)
        #expect(try store.search("edited").results.map(\.message.id).sorted() == ["m2", "m4"])
        #expect(try store.users(ids: ["u2"]).first?.name == "Bob, renamed")
    }

    @Test func theRowByRowTriggersAreOutOnlyInsideABulkWriteAndBackAfterItOrItsFailure() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        let path = directory.file("timeline.sqlite")
        let before = try Self.triggers(path)
        #expect(before.contains("messages_search_insert|CREATE TRIGGER messages_search_insert AFTER INSERT ON messages"))
        let namesInside = "SELECT count(*) FROM sqlite_master WHERE name IN ('messages_search_insert', "
            + "'messages_search_update_removes', 'messages_search_update', 'messages_search_delete')"

        let inside = try store.write { transaction in
            try transaction.upsert(messages: (1 ..< TimelineTransaction.bulkRows).map { Samples.message($0) })
            let belowBulk = try transaction.connection.integer(namesInside)
            try transaction.upsert(messages: [Samples.message(TimelineTransaction.bulkRows, text: "the last of a bulk write")])
            return (belowBulk, try transaction.connection.integer(namesInside))
        }
        #expect(inside.0 == 4 && inside.1 == 0)
        #expect(try Self.triggers(path) == before, "the triggers came back other than they were")
        #expect(try store.search("last bulk").results.map(\.message.id) == ["m\(TimelineTransaction.bulkRows)"])

        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try store.write { transaction in
                try transaction.upsert(messages: (5_000 ..< 5_000 + 2 * TimelineTransaction.bulkRows).map { Samples.message($0) })
                throw Stop()
            }
        }
        #expect(throws: TimelineStoreError.self) {
            try store.upsert(messages: (9_000 ..< 9_000 + 2 * TimelineTransaction.bulkRows).map {
                Samples.message($0, author: User(id: "nobody", handle: "nobody", name: "Nobody"))
            })
        }
        #expect(try Self.triggers(path) == before)
        #expect(try store.state().messageCount == TimelineTransaction.bulkRows)

        // Another writer's rows are indexed by the triggers, as before.
        try SQLiteShell.run(path, """
            INSERT INTO messages (id, author_id, text, created_at) VALUES ('shell-1', 'u1', 'typed in the shell', 0);
            """)
        #expect(try store.search("typed shell").results.map(\.message.id) == ["shell-1"])
    }

    @Test func anUpsertThatFailedHalfwayNeverCommitsEvenWhenItsErrorIsCaught() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        let generation = try store.state().generation
        // A trigger of this connection only that refuses one message after its row is in: an
        // `OR FAIL` insert stops there and keeps the row.
        try store.writer.withConnection { connection throws(TimelineStoreError) in
            try connection.reportingStoreErrors { () throws(SQLiteError) in
                try connection.execute("""
                    CREATE TEMP TRIGGER refuse_m3 AFTER INSERT ON main.messages WHEN NEW.id = 'm3' BEGIN
                        SELECT RAISE(FAIL, 'refused by the test');
                    END;
                    """)
            }
        }
        #expect(throws: TimelineStoreError.self) {
            try store.write { transaction in
                try transaction.upsert(messages: [Samples.message(1), Samples.message(2)])
                do {
                    try transaction.upsert(messages: [Samples.message(3)])
                } catch {
                    // Caught and passed over: the store must still refuse to commit.
                }
            }
        }
        #expect(try store.state().messageCount == 0)
        #expect(try store.state().generation == generation)
    }

    @Test func unreadRowsAreCheckedAgainstTheirMessageAtCommit() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: [Samples.message(1)])
        let path = directory.file("timeline.sqlite")
        #expect(try SQLiteShell.run(path, "SELECT sql FROM sqlite_master WHERE name = 'unread_messages'")
            .contains("REFERENCES messages (seq) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED"))
        let before = try store.state()

        // An unread row whose message is missing is let in by its statement, refused at COMMIT.
        let statementPassed = Mutex(false)
        #expect(throws: TimelineStoreError.self) {
            try store.write { transaction in
                try transaction.withSQLite { () throws(SQLiteError) in
                    try transaction.connection.execute("INSERT INTO unread_messages (seq) VALUES (424242)")
                }
                statementPassed.withLock { $0 = true }
            }
        }
        #expect(statementPassed.withLock { $0 })
        #expect(try store.state() == before)
        #expect(try SQLiteShell.run(path, "SELECT count(*) FROM unread_messages WHERE seq = 424242").trimmed == "0")
        // The shell, with foreign keys on, is refused too; a deleted message takes its row.
        #expect(throws: (any Error).self) {
            try SQLiteShell.run(path, "PRAGMA foreign_keys = ON; INSERT INTO unread_messages (seq) VALUES (424242)")
        }
        try store.deleteMessages(ids: ["m1"])
        #expect(try SQLiteShell.run(path, "SELECT count(*) FROM unread_messages").trimmed == "0")
        #expect(try store.state().unreadCount == 0)
    }

    @Test func migration12RebuildsTheUnreadRowsOfAnOlderDatabaseKeepingThem() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("timeline.sqlite")
        do {
            let store = try Samples.store(in: directory)
            try store.upsert(messages: (1...6).map { Samples.message($0, read: $0.isMultiple(of: 2)) })
        }
        try Samples.undoMigration12(path)
        #expect(try SQLiteShell.run(path, "PRAGMA user_version").trimmed == "11")
        #expect(try !SQLiteShell.run(path, "SELECT sql FROM sqlite_master WHERE name = 'unread_messages'").contains("DEFERRED"))
        let state = try SQLiteShell.run(path, "SELECT generation, message_count, unread_count FROM timeline_state")

        let store = try TimelineStore(path: path)
        #expect(try SQLiteShell.run(path, "PRAGMA user_version").trimmed == "\(Migration.latestVersion)")
        #expect(try SQLiteShell.run(path, "SELECT sql FROM sqlite_master WHERE name = 'unread_messages'")
            .contains("DEFERRABLE INITIALLY DEFERRED"))
        #expect(try SQLiteShell.run(path, "SELECT group_concat(seq) FROM unread_messages").trimmed == "1,3,5")
        #expect(try SQLiteShell.run(path, "SELECT generation, message_count, unread_count FROM timeline_state") == state)
        #expect(try SQLiteShell.run(path, "PRAGMA foreign_key_check").isEmpty)
        // The counts still move with the rows.
        try store.markRead(ids: ["m1"])
        #expect(try store.state().unreadCount == 2)
        try store.markRead(ids: ["m1"], read: false)
        #expect(try store.state().unreadCount == 3)
    }
}
