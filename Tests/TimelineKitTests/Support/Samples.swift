import Foundation
import Testing
@testable import TimelineKit

/// Small, readable test data.
enum Samples {
    static let alice = User(id: "u1", handle: "alice", name: "Alice Example")
    static let bob = User(id: "u2", handle: "bob@example.social", name: "Bob 🐝")

    /// A fixed moment, so that tests never depend on the clock.
    static let epoch = Date(timeIntervalSince1970: 1_795_000_000)

    /// Message `n`, `n` minutes after `epoch`, by alice unless told otherwise.
    static func message(_ n: Int, author: User = alice, text: String? = nil, read: Bool = false) -> Message {
        Message(id: "m\(n)", authorID: author.id, text: text ?? "message number \(n)",
                createdAt: epoch.addingTimeInterval(Double(n) * 60), isRead: read)
    }

    static func messages(_ range: ClosedRange<Int>, author: User = alice) -> [Message] {
        range.map { message($0, author: author) }
    }

    /// A store in `directory` holding alice and bob.
    static func store(in directory: TemporaryDirectory, configuration: TimelineStore.Configuration = .init()) throws -> TimelineStore {
        let store = try TimelineStore(path: directory.file("timeline.sqlite"), configuration: configuration)
        try store.upsert(users: [alice, bob])
        return store
    }
}

extension Samples {
    /// Migration 20 undone: notifications not grouped.
    static func undoMigration20(_ path: String) throws {
        try SQLiteShell.run(path, """
            BEGIN;
            ALTER TABLE synced_entries DROP COLUMN group_key;
            ALTER TABLE synced_entries DROP COLUMN group_count;
            PRAGMA user_version = 19;
            COMMIT;
            """)
    }

    /// Migrations 20, 19 and 18 undone: no links stored with messages.
    static func undoMigration18(_ path: String) throws {
        try undoMigration19(path)
        try SQLiteShell.run(path, """
            BEGIN;
            ALTER TABLE messages DROP COLUMN links;
            PRAGMA user_version = 17;
            COMMIT;
            """)
    }

    /// Migration 19 undone: the search's deferred notes back in the file, as every database had them.
    static func undoMigration19(_ path: String) throws {
        try undoMigration20(path)
        try SQLiteShell.run(path, """
            BEGIN;
            CREATE TRIGGER messages_search_insert_deferred AFTER INSERT ON messages
            WHEN EXISTS (SELECT 1 FROM messages_search_deferred) BEGIN
                INSERT INTO messages_search_pending (seq, old_text)
                    SELECT NEW.rowid, NULL WHERE NOT EXISTS (SELECT 1 FROM messages_search_pending WHERE seq = NEW.rowid);
            END;
            CREATE TRIGGER messages_search_update_deferred AFTER UPDATE ON messages
            WHEN (OLD.text IS NOT NEW.text OR OLD.rowid IS NOT NEW.rowid)
                AND EXISTS (SELECT 1 FROM messages_search_deferred) BEGIN
                INSERT INTO messages_search_pending (seq, old_text)
                    SELECT OLD.rowid, OLD.text WHERE NOT EXISTS (SELECT 1 FROM messages_search_pending WHERE seq = OLD.rowid);
                INSERT INTO messages_search_pending (seq, old_text)
                    SELECT NEW.rowid, NULL WHERE NOT EXISTS (SELECT 1 FROM messages_search_pending WHERE seq = NEW.rowid);
            END;
            CREATE TRIGGER messages_search_delete_deferred AFTER DELETE ON messages
            WHEN EXISTS (SELECT 1 FROM messages_search_deferred) BEGIN
                INSERT INTO messages_search_pending (seq, old_text)
                    SELECT OLD.rowid, OLD.text WHERE NOT EXISTS (SELECT 1 FROM messages_search_pending WHERE seq = OLD.rowid);
            END;
            PRAGMA user_version = 18;
            COMMIT;
            """)
    }

    /// Migrations 18 and 17 undone: no source stored with messages.
    static func undoMigration17(_ path: String) throws {
        try undoMigration18(path)
        try SQLiteShell.run(path, """
            BEGIN;
            ALTER TABLE messages DROP COLUMN source;
            PRAGMA user_version = 16;
            COMMIT;
            """)
    }

    /// Migrations 17 and 16 undone: no visibility, moderation facts or verdicts stored with messages.
    static func undoMigration16(_ path: String) throws {
        try undoMigration17(path)
        try SQLiteShell.run(path, """
            BEGIN;
            ALTER TABLE messages DROP COLUMN visibility;
            ALTER TABLE messages DROP COLUMN moderation;
            ALTER TABLE messages DROP COLUMN warning;
            ALTER TABLE messages DROP COLUMN hidden;
            DELETE FROM synced_timelines WHERE timeline = 'moderation';
            PRAGMA user_version = 15;
            COMMIT;
            """)
    }

    /// Migration 15 undone: deleted messages' numbers not kept, the delete trigger as before.
    static func undoMigration15(_ path: String) throws {
        try undoMigration16(path)
        try SQLiteShell.run(path, """
            BEGIN;
            DROP TRIGGER messages_tracked_delete;
            ALTER TABLE timeline_state DROP COLUMN retired_sequence;
            CREATE TRIGGER messages_tracked_delete AFTER DELETE ON messages BEGIN
                DELETE FROM unread_messages WHERE seq = OLD.seq;
                UPDATE timeline_state SET generation = generation + 1, message_count = message_count - 1;
            END;
            PRAGMA user_version = 14;
            COMMIT;
            """)
    }

    /// Migration 14 undone: the waiting changes back in a table of their own (none kept).
    static func undoMigration14(_ path: String) throws {
        try undoMigration15(path)
        try SQLiteShell.run(path, """
            DELETE FROM pending_actions WHERE payload IS NOT NULL;
            ALTER TABLE pending_actions DROP COLUMN payload;
            CREATE TABLE outbox (
                sequence INTEGER PRIMARY KEY,
                account TEXT NOT NULL, kind TEXT NOT NULL, target TEXT NOT NULL,
                text TEXT, reply_to TEXT, quote_of TEXT, content_warning TEXT, visibility TEXT,
                languages TEXT, choices TEXT,
                created_at INTEGER NOT NULL, key TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0
            );
            PRAGMA user_version = 13
            """)
    }

    /// Migration 13 undone: no outbox of posts and other changes waiting for their server.
    static func undoMigration13(_ path: String) throws {
        try undoMigration14(path)
        try SQLiteShell.run(path, "DROP TABLE IF EXISTS outbox; PRAGMA user_version = 12")
    }

    /// Migration 12 undone: unread_messages as migration 2 made it, its foreign key checked at
    /// each statement and its triggers' count updates without `OR FAIL`; the rows kept.
    static func undoMigration12(_ path: String) throws {
        try undoMigration13(path)
        try SQLiteShell.run(path, """
            BEGIN;
            CREATE TEMP TABLE unread_kept AS SELECT seq FROM unread_messages;
            DROP TABLE unread_messages;
            CREATE TABLE unread_messages (
                seq INTEGER PRIMARY KEY REFERENCES messages (seq) ON DELETE CASCADE
            );
            INSERT INTO unread_messages SELECT seq FROM temp.unread_kept ORDER BY seq;
            CREATE TRIGGER unread_messages_tracked_insert AFTER INSERT ON unread_messages BEGIN
                UPDATE timeline_state SET generation = generation + 1, unread_count = unread_count + 1;
            END;
            CREATE TRIGGER unread_messages_tracked_delete AFTER DELETE ON unread_messages BEGIN
                UPDATE timeline_state SET generation = generation + 1, unread_count = unread_count - 1;
            END;
            PRAGMA user_version = 11;
            COMMIT;
            """)
    }

    /// Migration 11 undone: no queue of actions waiting for their server.
    static func undoMigration11(_ path: String) throws {
        try undoMigration12(path)
        try SQLiteShell.run(path, "DROP TABLE IF EXISTS pending_actions; PRAGMA user_version = 10")
    }

    /// Migration 10 undone: no table of favourites, boosts and bookmarks.
    static func undoMigration10(_ path: String) throws {
        try undoMigration11(path)
        try SQLiteShell.run(path, "DROP TABLE IF EXISTS message_interactions; PRAGMA user_version = 9")
    }

    /// Migration 9 undone: the search's generated column and row-by-row triggers of migration 4
    /// back in place of the view and its triggers.
    static func undoMigration9(_ path: String) throws {
        try undoMigration10(path)
        let search = Migration.all[3].sql
        let column = try #require(search.range(of: "ALTER TABLE messages ADD COLUMN text_is_unspaced"))
        let columnEnd = try #require(search.range(of: ") VIRTUAL;", range: column.upperBound ..< search.endIndex))
        let triggers = try #require(search.range(of: "CREATE TRIGGER messages_search_insert AFTER"))
        let triggersEnd = try #require(search.range(of: "-- A database from before search"))
        try SQLiteShell.run(path, """
            BEGIN;
            DROP TRIGGER messages_search_insert; DROP TRIGGER messages_search_update_removes;
            DROP TRIGGER messages_search_update; DROP TRIGGER messages_search_delete;
            DROP VIEW messages_unspaced;
            \(search[column.lowerBound ..< columnEnd.upperBound])
            \(search[triggers.lowerBound ..< triggersEnd.lowerBound])
            COMMIT;
            """)
    }

    /// Turns a database written by today's library into one of schema version 4, as that
    /// version wrote it: without the application ID (migration 5), the synced-accounts tables
    /// (migrations 6 and 8) and the index of replies (7), so that opening it runs those migrations
    /// for real.
    static func downgradeToSchemaVersion4(_ path: String) throws {
        try undoMigration9(path)
        try SQLiteShell.run(path, """
            DROP TABLE synced_entries; DROP TABLE synced_timelines;
            DROP INDEX messages_by_reply;
            PRAGMA application_id = 0; PRAGMA user_version = 4; PRAGMA wal_checkpoint(TRUNCATE)
            """)
    }

    /// Turns a database written by today's library into one of schema version 7 with the same
    /// synced accounts, as that version kept them: migration 6's eight tables instead of
    /// migration 8's three.
    static func downgradeToSchemaVersion7(_ path: String) throws {
        try undoMigration9(path)
        try SQLiteShell.run(path, "BEGIN;\n" + Migration.all[5].sql + """
            INSERT INTO account_home (account, position, status_id, message_seq)
                SELECT entry.account, entry.position, entry.id, message.seq
                FROM synced_entries AS entry JOIN messages AS message ON message.id = entry.message_id
                WHERE entry.timeline = 'home';
            INSERT INTO account_notifications (account, position, id, type, created_at, actor_id, message_id)
                SELECT account, position, id, type, created_at, actor_id, message_id FROM synced_entries
                WHERE timeline = 'notifications';
            INSERT INTO account_sync (account, timeline, server, top_id, top_position, synced_at, marker_id, marker_position)
                SELECT account, timeline, state ->> 'server', state ->> 'top_id', state ->> 'top_position',
                       state ->> 'synced_at', state ->> 'marker_id', state ->> 'marker_position'
                FROM synced_timelines;
            INSERT INTO account_gaps (account, timeline, upper_id, upper_position, lower_id, lower_position, remaining)
                SELECT account, timeline, gap.value ->> 'upper_id', gap.value ->> 'upper_position', gap.value ->> 'lower_id',
                       gap.value ->> 'lower_position', gap.value ->> 'remaining'
                FROM synced_timelines, json_each(state, '$.gaps') AS gap;
            DROP TABLE synced_entries; DROP TABLE synced_timelines;
            PRAGMA user_version = 7;
            COMMIT;
            PRAGMA wal_checkpoint(TRUNCATE)
            """)
    }
}
