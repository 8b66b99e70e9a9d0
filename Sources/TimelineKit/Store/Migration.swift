/// One step of the schema's history. Migrations are an ordered list that only grows: a released
/// migration is never edited, a change is a new migration appended to `Migration.all`.
/// `PRAGMA user_version` records how many have been applied.
struct Migration: Sendable {
    /// The schema version this migration produces (its 1-based position in `all`).
    let version: Int
    /// What the migration is for, for error messages and `timeline doctor`.
    let name: String
    /// The statements, run in the same transaction that sets `user_version`.
    let sql: String

    /// The newest schema version this library knows.
    static var latestVersion: Int { all.count }

    static let all: [Migration] = [
        Migration(version: 1, name: "messages, users and change tracking", sql: #"""
            CREATE TABLE users (
                id      TEXT PRIMARY KEY NOT NULL,
                handle  TEXT NOT NULL,
                name    TEXT NOT NULL,
                url     TEXT,
                bot     INTEGER NOT NULL DEFAULT 0 CHECK (bot IN (0, 1))
            ) WITHOUT ROWID;
            CREATE INDEX users_by_handle ON users (handle);

            -- Times are whole milliseconds since 1970-01-01 UTC. IDs are text: Mastodon's are digit
            -- strings that overflow 64-bit integers, Pleroma's are not digits at all.
            CREATE TABLE messages (
                id               TEXT NOT NULL UNIQUE,
                author_id        TEXT NOT NULL REFERENCES users (id) DEFERRABLE INITIALLY DEFERRED,
                text             TEXT NOT NULL,
                created_at       INTEGER NOT NULL,
                edited_at        INTEGER,
                reply_to_id      TEXT,
                reply_to_user_id TEXT,
                repost_of_id     TEXT,
                quote_of_id      TEXT,
                content_warning  TEXT,
                url              TEXT,
                attachments      TEXT,  -- JSON array of {"kind","url","alt"}, NULL when none
                like_count       INTEGER NOT NULL DEFAULT 0,
                repost_count     INTEGER NOT NULL DEFAULT 0,
                reply_count      INTEGER NOT NULL DEFAULT 0,
                read             INTEGER NOT NULL DEFAULT 0 CHECK (read IN (0, 1))
            );
            -- The timeline order, newest first, ties broken by ID: the one query `show` runs.
            -- No index by author: its inserts land all over the B-tree (one page per author per
            -- batch) and halved the ingest rate; nothing that runs often needs it.
            CREATE INDEX messages_by_time ON messages (created_at DESC, id DESC);

            -- One row that says which database this is, how far it has changed and its counts.
            -- Triggers keep it true for every writer, the sqlite3 shell included, so a snapshot
            -- can tell that it is stale and counting needs no table scan.
            CREATE TABLE timeline_state (
                singleton     INTEGER PRIMARY KEY CHECK (singleton = 1),
                database_id   TEXT NOT NULL,
                generation    INTEGER NOT NULL,
                message_count INTEGER NOT NULL,
                unread_count  INTEGER NOT NULL,
                user_count    INTEGER NOT NULL
            );
            INSERT INTO timeline_state VALUES (1, lower(hex(randomblob(16))), 0, 0, 0, 0);

            CREATE TRIGGER messages_tracked_insert AFTER INSERT ON messages BEGIN
                UPDATE timeline_state SET generation = generation + 1,
                    message_count = message_count + 1,
                    unread_count = unread_count + (NEW.read = 0);
            END;
            CREATE TRIGGER messages_tracked_update AFTER UPDATE ON messages BEGIN
                UPDATE timeline_state SET generation = generation + 1,
                    unread_count = unread_count + (NEW.read = 0) - (OLD.read = 0);
            END;
            CREATE TRIGGER messages_tracked_delete AFTER DELETE ON messages BEGIN
                UPDATE timeline_state SET generation = generation + 1,
                    message_count = message_count - 1,
                    unread_count = unread_count - (OLD.read = 0);
            END;
            CREATE TRIGGER users_tracked_insert AFTER INSERT ON users BEGIN
                UPDATE timeline_state SET generation = generation + 1, user_count = user_count + 1;
            END;
            CREATE TRIGGER users_tracked_update AFTER UPDATE ON users BEGIN
                UPDATE timeline_state SET generation = generation + 1;
            END;
            CREATE TRIGGER users_tracked_delete AFTER DELETE ON users BEGIN
                UPDATE timeline_state SET generation = generation + 1, user_count = user_count - 1;
            END;
            """#),
        Migration(version: 2, name: "read state in its own table, stable message sequence numbers", sql: #"""
            -- Marking 10,000 messages read used to rewrite 10,000 wide rows scattered over the whole
            -- table (at a million messages, 27 MB of WAL for one mark-read). Which messages are
            -- unread now lives in a narrow table of sequence numbers: the same change touches a few
            -- hundred small pages, and it is usually small, as people read most of what they keep.
            -- `seq` is an explicit INTEGER PRIMARY KEY because VACUUM may renumber an implicit
            -- rowid, and other tables (this one, the search index) refer to messages by it.
            CREATE TABLE messages_v2 (
                seq              INTEGER PRIMARY KEY,
                id               TEXT NOT NULL UNIQUE,
                author_id        TEXT NOT NULL REFERENCES users (id) DEFERRABLE INITIALLY DEFERRED,
                text             TEXT NOT NULL,
                created_at       INTEGER NOT NULL,
                edited_at        INTEGER,
                reply_to_id      TEXT,
                reply_to_user_id TEXT,
                repost_of_id     TEXT,
                quote_of_id      TEXT,
                content_warning  TEXT,
                url              TEXT,
                attachments      TEXT,  -- JSON array of {"alt_text","kind","url"}, NULL when none
                like_count       INTEGER NOT NULL DEFAULT 0,
                repost_count     INTEGER NOT NULL DEFAULT 0,
                reply_count      INTEGER NOT NULL DEFAULT 0
            );
            INSERT INTO messages_v2
                SELECT rowid, id, author_id, text, created_at, edited_at, reply_to_id, reply_to_user_id,
                       repost_of_id, quote_of_id, content_warning, url, attachments, like_count,
                       repost_count, reply_count
                FROM messages ORDER BY rowid;
            CREATE TEMP TABLE unread_before_v2 AS SELECT rowid AS seq FROM messages WHERE read = 0;
            DROP TABLE messages;
            ALTER TABLE messages_v2 RENAME TO messages;
            CREATE INDEX messages_by_time ON messages (created_at DESC, id DESC);

            -- A message is unread exactly when its seq is here. New messages start unread (the
            -- insert trigger below), whoever inserts them.
            CREATE TABLE unread_messages (
                seq INTEGER PRIMARY KEY REFERENCES messages (seq) ON DELETE CASCADE
            );
            INSERT INTO unread_messages SELECT seq FROM temp.unread_before_v2 ORDER BY seq;
            DROP TABLE temp.unread_before_v2;

            -- The counts move with the rows they count: unread_count with unread_messages, so a
            -- writer that marks messages read in the sqlite3 shell keeps it true as well.
            CREATE TRIGGER messages_tracked_insert AFTER INSERT ON messages BEGIN
                UPDATE timeline_state SET generation = generation + 1, message_count = message_count + 1;
                INSERT INTO unread_messages (seq) VALUES (NEW.seq);
            END;
            CREATE TRIGGER messages_tracked_update AFTER UPDATE ON messages BEGIN
                UPDATE timeline_state SET generation = generation + 1;
            END;
            CREATE TRIGGER messages_tracked_delete AFTER DELETE ON messages BEGIN
                DELETE FROM unread_messages WHERE seq = OLD.seq;
                UPDATE timeline_state SET generation = generation + 1, message_count = message_count - 1;
            END;
            CREATE TRIGGER unread_messages_tracked_insert AFTER INSERT ON unread_messages BEGIN
                UPDATE timeline_state SET generation = generation + 1, unread_count = unread_count + 1;
            END;
            CREATE TRIGGER unread_messages_tracked_delete AFTER DELETE ON unread_messages BEGIN
                UPDATE timeline_state SET generation = generation + 1, unread_count = unread_count - 1;
            END;
            -- The counts are checked rather than trusted (a v1 database written by hand may have
            -- let them drift); when they are set right the generation moves, so that no snapshot
            -- keeps the drifted ones.
            UPDATE timeline_state SET generation = generation + 1,
                message_count = (SELECT count(*) FROM messages),
                unread_count = (SELECT count(*) FROM unread_messages)
            WHERE (message_count, unread_count)
                IS NOT ((SELECT count(*) FROM messages), (SELECT count(*) FROM unread_messages));
            """#),
        // No trigger touches this table: upkeep is not a change to the timeline, so it never
        // makes a snapshot stale.
        Migration(version: 3, name: "when the database was last maintained", sql: #"""
            -- The last automatic or requested upkeep (PRAGMA optimize, checkpoint, incremental
            -- vacuum), in milliseconds since 1970; see MaintenancePolicy. Set when the table is
            -- created, so a new database's first upkeep comes one interval after its creation.
            CREATE TABLE maintenance (
                singleton   INTEGER PRIMARY KEY CHECK (singleton = 1),
                last_run_at INTEGER NOT NULL
            );
            INSERT INTO maintenance VALUES (1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
            """#),
    ]
}
