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
    /// Whether it changes tables, indexes or rows. One that does not (it only sets a header
    /// field, or only adds new tables that the timeline's reads do not need) leaves the database
    /// readable by the code of the version before, takes no time whatever the size, and so is
    /// neither held back by `Configuration.migrationSizeLimit` nor needed to read a database
    /// that cannot be written.
    let changesTables: Bool
    /// Whether it takes time in proportion to the database (a table rebuilt, an index built),
    /// so that `show` leaves it to `timeline upgrade` beyond `Configuration.migrationSizeLimit`.
    /// Every migration that changes tables does; one that only adds an index does too, while
    /// the code of the version before (and a database that cannot be written) reads on without it.
    let takesTime: Bool

    init(version: Int, name: String, sql: String, changesTables: Bool = true, takesTime: Bool? = nil) {
        self.version = version
        self.name = name
        self.sql = sql
        self.changesTables = changesTables
        self.takesTime = takesTime ?? changesTables
    }

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
        Migration(version: 4, name: "full-text search", sql: #"""
            -- Words, for every message: unicode61 folds case and (remove_diacritics 2) accents, so
            -- `cafe` finds `café`. External content: the text is stored once, in `messages`.
            -- columnsize=0: results are ordered by time, never ranked, so no per-row token counts.
            CREATE VIRTUAL TABLE messages_search USING fts5 (
                text, content = 'messages', content_rowid = 'rowid', columnsize = 0,
                tokenize = 'unicode61 remove_diacritics 2'
            );
            -- Scripts written without spaces (Thai, Lao, Myanmar, Khmer, kana, Han, Hangul): unicode61
            -- keeps a whole run of them as one token, so these messages are also indexed by
            -- trigrams, which find any substring. Only messages holding such a character are
            -- indexed, told by the first bytes of its UTF-8 (`SearchScripts.unspacedCondition(on:)`:
            -- instr on bytes is 5 times cheaper than a GLOB character class, and runs on every
            -- insert), and their text ends with two line feeds, so every 1- or 2-character
            -- substring starts some trigram and is found through the vocabulary below.
            -- Contentless: the triggers give 'delete' the same value they inserted.
            CREATE VIRTUAL TABLE messages_search_unspaced USING fts5 (
                text, content = '', columnsize = 0, tokenize = 'trigram'
            );
            CREATE VIRTUAL TABLE messages_search_unspaced_terms USING fts5vocab (
                messages_search_unspaced, instance
            );

            -- Whether a message's text holds a character of those scripts: a virtual column,
            -- computed when read and stored nowhere, written once here rather than in each
            -- trigger below, because SQLite parses every trigger whenever a connection first
            -- reads the schema (four copies of this test cost a quarter of `timeline show`).
            ALTER TABLE messages ADD COLUMN text_is_unspaced INTEGER GENERATED ALWAYS AS (
                length(text) <> length(CAST(text AS BLOB)) AND (instr(CAST(text AS BLOB), X'E3')
                    OR instr(CAST(text AS BLOB), X'E4')
                    OR instr(CAST(text AS BLOB), X'E5')
                    OR instr(CAST(text AS BLOB), X'E6')
                    OR instr(CAST(text AS BLOB), X'E7')
                    OR instr(CAST(text AS BLOB), X'E8')
                    OR instr(CAST(text AS BLOB), X'E9')
                    OR instr(CAST(text AS BLOB), X'EA')
                    OR instr(CAST(text AS BLOB), X'EB')
                    OR instr(CAST(text AS BLOB), X'EC')
                    OR instr(CAST(text AS BLOB), X'ED')
                    OR instr(CAST(text AS BLOB), X'E0B8')
                    OR instr(CAST(text AS BLOB), X'E0B9')
                    OR instr(CAST(text AS BLOB), X'E0BA')
                    OR instr(CAST(text AS BLOB), X'E0BB')
                    OR instr(CAST(text AS BLOB), X'E180')
                    OR instr(CAST(text AS BLOB), X'E181')
                    OR instr(CAST(text AS BLOB), X'E182')
                    OR instr(CAST(text AS BLOB), X'E19E')
                    OR instr(CAST(text AS BLOB), X'E19F'))
            ) VIRTUAL;

            -- Triggers, so that writes from any program (the sqlite3 shell too) keep the index in
            -- the same transaction. An update touches the index only when the text changed: the
            -- upsert of a refetched message sets every column, and is by far the hottest write.
            --
            -- TimelineKit's own write transactions defer the indexing to their end: FTS5 writes
            -- its pending terms out at every statement savepoint, and each upsert is a statement
            -- with one, so indexing row by row cost 40 µs a message, five times the whole ingest
            -- without search. While `messages_search_deferred` holds its row (only ever inside an
            -- uncommitted TimelineKit transaction, so no other connection sees it), the triggers
            -- below note what changed in `messages_search_pending` (the rowid, and the text the
            -- index holds for it, NULL for none; the first note of a rowid wins), and
            -- `SearchIndexBatch.finish` indexes it all in one statement per index before COMMIT.
            -- (NOT EXISTS, not OR IGNORE: an upsert's conflict policy overrides its triggers'.)
            CREATE TABLE messages_search_deferred (singleton INTEGER PRIMARY KEY CHECK (singleton = 1));
            CREATE TABLE messages_search_pending (seq INTEGER PRIMARY KEY, old_text TEXT);
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

            CREATE TRIGGER messages_search_insert AFTER INSERT ON messages
            WHEN NOT EXISTS (SELECT 1 FROM messages_search_deferred) BEGIN
                INSERT INTO messages_search (rowid, text) VALUES (NEW.rowid, NEW.text);
                INSERT INTO messages_search_unspaced (rowid, text)
                    SELECT NEW.rowid, NEW.text || char(10, 10) WHERE NEW.text_is_unspaced;
            END;
            CREATE TRIGGER messages_search_update AFTER UPDATE ON messages
            WHEN (OLD.text IS NOT NEW.text OR OLD.rowid IS NOT NEW.rowid)
                AND NOT EXISTS (SELECT 1 FROM messages_search_deferred) BEGIN
                INSERT INTO messages_search (messages_search, rowid, text) VALUES ('delete', OLD.rowid, OLD.text);
                INSERT INTO messages_search (rowid, text) VALUES (NEW.rowid, NEW.text);
                INSERT INTO messages_search_unspaced (messages_search_unspaced, rowid, text)
                    SELECT 'delete', OLD.rowid, OLD.text || char(10, 10) WHERE OLD.text_is_unspaced;
                INSERT INTO messages_search_unspaced (rowid, text)
                    SELECT NEW.rowid, NEW.text || char(10, 10) WHERE NEW.text_is_unspaced;
            END;
            CREATE TRIGGER messages_search_delete AFTER DELETE ON messages
            WHEN NOT EXISTS (SELECT 1 FROM messages_search_deferred) BEGIN
                INSERT INTO messages_search (messages_search, rowid, text) VALUES ('delete', OLD.rowid, OLD.text);
                INSERT INTO messages_search_unspaced (messages_search_unspaced, rowid, text)
                    SELECT 'delete', OLD.rowid, OLD.text || char(10, 10) WHERE OLD.text_is_unspaced;
            END;

            -- A database from before search: both indexes built in one pass each.
            INSERT INTO messages_search (messages_search) VALUES ('rebuild');
            INSERT INTO messages_search_unspaced (rowid, text)
                SELECT rowid, text || char(10, 10) FROM messages WHERE text_is_unspaced;
            """#),
        // Databases created from here on have it from the start (this runs for them too). The
        // number is written out, not interpolated: a list of literals is laid out by the compiler,
        // while an interpolation would build the whole list at run time, on `show`'s path.
        Migration(version: 5, name: "application id", sql: """
            PRAGMA application_id = 1414351950;  -- DatabaseIdentity.applicationID, "TMLN"
            """, changesTables: false),
        // New tables only: nothing existing is rewritten, so it takes no time at any size, and
        // `show` reads an older database without them. (A database that cannot be written here is
        // then read without them: it cannot be synced into either.) No trigger of change tracking
        // looks at them: a sync's bookkeeping is not a change to the timeline, and marking
        // messages read through them moves the counts as usual.
        Migration(version: 6, name: "synced accounts: home timelines, gaps, read markers, notifications", sql: #"""
            -- Which messages came from which synced account's home timeline, in the server's
            -- order: `position` grows with it (newer is larger). Server IDs are opaque strings,
            -- never compared as numbers, so this order is the only one the sync trusts: "read
            -- up to the marker" means every entry at or below the marker's position. Positions
            -- of separate fetches are far apart (2^32), so a gap between them can be filled later.
            CREATE TABLE account_home (
                account     TEXT NOT NULL,
                position    INTEGER NOT NULL,
                status_id   TEXT NOT NULL,  -- the server's ID (the message's is `authority/status_id`)
                message_seq INTEGER NOT NULL REFERENCES messages (seq) ON DELETE CASCADE,
                PRIMARY KEY (account, position)
            ) WITHOUT ROWID;
            CREATE UNIQUE INDEX account_home_by_status ON account_home (account, status_id);
            -- For the cascade: deleting a message finds its rows without a scan.
            CREATE INDEX account_home_by_message ON account_home (message_seq);

            -- An account's notifications, in the server's order like the home timeline.
            CREATE TABLE account_notifications (
                account    TEXT NOT NULL,
                position   INTEGER NOT NULL,
                id         TEXT NOT NULL,  -- the server's notification ID
                type       TEXT NOT NULL,  -- mention, reblog, favourite, follow, … kept as sent
                created_at INTEGER NOT NULL,
                actor_id   TEXT,           -- users.id of whoever acted
                message_id TEXT,           -- messages.id of the status it is about
                PRIMARY KEY (account, position)
            ) WITHOUT ROWID;
            CREATE UNIQUE INDEX account_notifications_by_id ON account_notifications (account, id);
            CREATE INDEX account_notifications_by_time ON account_notifications (created_at DESC, account, position);

            -- Where each account's sync of each timeline stands. Moved only in the transaction
            -- that stores the page it describes, so a sync killed at any moment resumes exactly.
            CREATE TABLE account_sync (
                account         TEXT NOT NULL,
                timeline        TEXT NOT NULL CHECK (timeline IN ('home', 'notifications')),
                server          TEXT NOT NULL,  -- the authority the account's IDs are namespaced by
                top_id          TEXT,           -- the newest entry's server ID
                top_position    INTEGER,
                synced_at       INTEGER,        -- when a sync last completed (ms since 1970)
                marker_id       TEXT,           -- home: the server's read marker as last seen or set
                marker_position INTEGER,        -- its position in account_home; NULL until stored
                PRIMARY KEY (account, timeline)
            ) WITHOUT ROWID;

            -- Parts of a timeline not fetched yet: below the entry `upper_id` and above
            -- `lower_id`, or, with no lower end, the `remaining` older entries a first sync still
            -- wants. Filled newest first by later syncs; a gap is never silently dropped.
            CREATE TABLE account_gaps (
                account        TEXT NOT NULL,
                timeline       TEXT NOT NULL,
                upper_id       TEXT NOT NULL,  -- fetch below it (max_id)
                upper_position INTEGER NOT NULL,
                lower_id       TEXT,           -- down to it (since_id)
                lower_position INTEGER,
                remaining      INTEGER,
                PRIMARY KEY (account, timeline, upper_position)
            ) WITHOUT ROWID;
            """#, changesTables: false),
        // Building the index reads every reply (0.3 s at a million messages, 200,000 of them
        // replies): `show` leaves it to `timeline upgrade` on large databases.
        Migration(version: 7, name: "an index of replies, for threads", sql: """
            -- `timeline thread ID` finds the replies to a message level by level; without this
            -- each level would scan every message. Only replies are indexed.
            CREATE INDEX messages_by_reply ON messages (reply_to_id) WHERE reply_to_id IS NOT NULL;
            """, changesTables: false, takesTime: true),
        // SQLite parses every table's, index's and trigger's declaration when a connection first
        // reads, so `show` pays for each schema object at every launch even though it never reads
        // these: migration 6's eight objects cost it 227,000 instructions (4.5%; measured with
        // callgrind on the sqlite3 shell), these three 89,000. Home entries and notifications are
        // one table (both are "an entry of a synced timeline at a position"); the cursor and the
        // gaps, read and written only by the sync a few times a page, one JSON object per
        // account and timeline, as a column costs every launch about 2,500 instructions.
        // Home entries now name their message by ID rather than by a cascading `seq` (the cascade
        // needed an index of its own): an entry whose message was deleted is harmless (it counts
        // as read and joins nothing) and `prune` removes it; if the status comes back, so does
        // the entry's message.
        Migration(version: 8, name: "synced accounts in three schema objects instead of eight", sql: #"""
            -- Every entry of a synced account's timelines (`home`: statuses, `notifications`), in
            -- the server's order: `position` grows with it (newer is larger). Server IDs are
            -- opaque strings, never compared as numbers, so this order is the only one the sync
            -- trusts: "read up to the marker" means every home entry at or below the marker's
            -- position. Positions of separate fetches are far apart (2^32), so a gap between
            -- them can be filled later. `message_id` is the status (home) or the status a
            -- notification is about; `type`, `created_at` and `actor_id` (users.id of whoever
            -- acted) are a notification's, NULL for home entries.
            CREATE TABLE synced_entries (
                account TEXT NOT NULL, timeline TEXT NOT NULL, position INTEGER NOT NULL, id TEXT NOT NULL,
                message_id TEXT, type TEXT, created_at INTEGER, actor_id TEXT,
                PRIMARY KEY (account, timeline, position)
            ) WITHOUT ROWID;
            CREATE UNIQUE INDEX synced_entries_by_id ON synced_entries (account, timeline, id);

            -- Where each account's sync of each timeline stands, moved only in the transaction
            -- that stores the page it describes, so a sync killed at any moment resumes exactly.
            -- `state` is a JSON object: `server` (the authority the account's IDs are namespaced
            -- by), `top_id`/`top_position` (the newest entry), `synced_at` (when a sync last
            -- completed, ms since 1970), `marker_id`/`marker_position` (home: the server's read
            -- marker as last seen or set, and its position once stored), and `gaps`: the parts
            -- not fetched yet, each below the entry `upper_id` (at `upper_position`) and above
            -- `lower_id` (at `lower_position`) or, with no lower end, the `remaining` older
            -- entries a first sync still wants. Gaps are filled newest first; never dropped.
            CREATE TABLE synced_timelines (
                account TEXT NOT NULL, timeline TEXT NOT NULL, state TEXT NOT NULL,
                PRIMARY KEY (account, timeline)
            ) WITHOUT ROWID;

            INSERT INTO synced_entries (account, timeline, position, id, message_id)
                SELECT entry.account, 'home', entry.position, entry.status_id, message.id
                FROM account_home AS entry JOIN messages AS message ON message.seq = entry.message_seq;
            INSERT INTO synced_entries (account, timeline, position, id, message_id, type, created_at, actor_id)
                SELECT account, 'notifications', position, id, message_id, type, created_at, actor_id
                FROM account_notifications;
            INSERT INTO synced_timelines (account, timeline, state)
                SELECT sync.account, sync.timeline, json_object(
                    'server', sync.server, 'top_id', sync.top_id, 'top_position', sync.top_position,
                    'synced_at', sync.synced_at, 'marker_id', sync.marker_id, 'marker_position', sync.marker_position,
                    'gaps', json(coalesce((
                        SELECT json_group_array(json_object(
                            'upper_id', gap.upper_id, 'upper_position', gap.upper_position, 'lower_id', gap.lower_id,
                            'lower_position', gap.lower_position, 'remaining', gap.remaining))
                        FROM account_gaps AS gap WHERE gap.account = sync.account AND gap.timeline = sync.timeline), '[]')))
                FROM account_sync AS sync;
            DROP TABLE account_home;
            DROP TABLE account_notifications;
            DROP TABLE account_sync;
            DROP TABLE account_gaps;
            """#, changesTables: false),
        // SQLite 3.40 computes every generated column at every INSERT, used or not: the script
        // test of migration 4 ran twice per message written (the insert, then the indexing),
        // 20 `instr` scans each, 40% of an import's instructions. The test moves into a view
        // that the triggers other programs' writes fire read only when they index a row, while
        // TimelineKit's own transactions test in Swift (`SearchIndexBatch`). The removals read
        // the view before the row changes (BEFORE triggers), so the text is still there; the
        // view holds the one copy of the test, which every connection parses with the schema.
        // Dropping a VIRTUAL column rewrites no row: a schema edit, instant at any size; and the
        // code before reads and writes on without it (its indexing tests the column, which a
        // database it has not migrated still has).
        Migration(version: 9, name: "the search's script test only where a row is indexed", sql: #"""
            DROP TRIGGER messages_search_insert;
            DROP TRIGGER messages_search_update;
            DROP TRIGGER messages_search_delete;
            ALTER TABLE messages DROP COLUMN text_is_unspaced;

            -- The messages whose text holds a character of a script written without spaces
            -- (`SearchScripts`): the trigram index holds exactly these. `b` names the bytes once:
            -- every connection parses this at its first statement, `show`'s included.
            CREATE VIEW messages_unspaced AS SELECT seq, text
                FROM (SELECT seq, text, CAST(text AS BLOB) AS b FROM messages) WHERE
                length(text) <> length(b) AND (instr(b, X'E3')
                    OR instr(b, X'E4')
                    OR instr(b, X'E5')
                    OR instr(b, X'E6')
                    OR instr(b, X'E7')
                    OR instr(b, X'E8')
                    OR instr(b, X'E9')
                    OR instr(b, X'EA')
                    OR instr(b, X'EB')
                    OR instr(b, X'EC')
                    OR instr(b, X'ED')
                    OR instr(b, X'E0B8')
                    OR instr(b, X'E0B9')
                    OR instr(b, X'E0BA')
                    OR instr(b, X'E0BB')
                    OR instr(b, X'E180')
                    OR instr(b, X'E181')
                    OR instr(b, X'E182')
                    OR instr(b, X'E19E')
                    OR instr(b, X'E19F'));

            CREATE TRIGGER messages_search_insert AFTER INSERT ON messages
            WHEN NOT EXISTS (SELECT 1 FROM messages_search_deferred) BEGIN
                INSERT INTO messages_search (rowid, text) VALUES (NEW.rowid, NEW.text);
                INSERT INTO messages_search_unspaced (rowid, text)
                    SELECT seq, text || char(10, 10) FROM messages_unspaced WHERE seq = NEW.rowid;
            END;
            CREATE TRIGGER messages_search_update_removes BEFORE UPDATE ON messages
            WHEN (OLD.text IS NOT NEW.text OR OLD.rowid IS NOT NEW.rowid)
                AND NOT EXISTS (SELECT 1 FROM messages_search_deferred) BEGIN
                INSERT INTO messages_search (messages_search, rowid, text) VALUES ('delete', OLD.rowid, OLD.text);
                INSERT INTO messages_search_unspaced (messages_search_unspaced, rowid, text)
                    SELECT 'delete', seq, text || char(10, 10) FROM messages_unspaced WHERE seq = OLD.rowid;
            END;
            CREATE TRIGGER messages_search_update AFTER UPDATE ON messages
            WHEN (OLD.text IS NOT NEW.text OR OLD.rowid IS NOT NEW.rowid)
                AND NOT EXISTS (SELECT 1 FROM messages_search_deferred) BEGIN
                INSERT INTO messages_search (rowid, text) VALUES (NEW.rowid, NEW.text);
                INSERT INTO messages_search_unspaced (rowid, text)
                    SELECT seq, text || char(10, 10) FROM messages_unspaced WHERE seq = NEW.rowid;
            END;
            CREATE TRIGGER messages_search_delete BEFORE DELETE ON messages
            WHEN NOT EXISTS (SELECT 1 FROM messages_search_deferred) BEGIN
                INSERT INTO messages_search (messages_search, rowid, text) VALUES ('delete', OLD.rowid, OLD.text);
                INSERT INTO messages_search_unspaced (messages_search_unspaced, rowid, text)
                    SELECT 'delete', seq, text || char(10, 10) FROM messages_unspaced WHERE seq = OLD.rowid;
            END;
            """#, changesTables: false),
        // A new table only: no row is rewritten, it takes no time at any size, and the code of
        // the version before reads and writes on without it (a page read from a database not
        // migrated yet, one that cannot be written, carries no interactions). One table with
        // its key as the only index: every schema object costs `show` its parse at each launch.
        // Writing it moves the generation (`TimelineStore.setInteraction`), so a snapshot
        // painted before a favourite is seen to be stale.
        Migration(version: 10, name: "favourites, boosts and bookmarks per account", sql: #"""
            -- What each logged-in account has done to a message at its server (issue 27):
            -- favourited (liked), boosted (reposted), bookmarked, as the server last said.
            -- `records` is a JSON object of the records that hold them where the network keeps
            -- them as records (Bluesky: {"like": "at://…", "repost": "at://…"}): the undo deletes
            -- that record. Keyed by message first: a page reads its messages' rows by key.
            CREATE TABLE message_interactions (
                message_id TEXT NOT NULL, account TEXT NOT NULL,
                favourited INTEGER NOT NULL DEFAULT 0, boosted INTEGER NOT NULL DEFAULT 0,
                bookmarked INTEGER NOT NULL DEFAULT 0, records TEXT,
                PRIMARY KEY (message_id, account)
            ) WITHOUT ROWID;
            """#, changesTables: false),
        // A new table only, as migration 10: no row rewritten, no time taken, and the code of
        // the version before reads and writes on without it (it sends nothing that is queued).
        // Empty but for actions whose server has not answered yet: `show` pays one look-up of an
        // empty table when it builds a snapshot, nothing when it paints one.
        Migration(version: 11, name: "actions waiting for their server", sql: #"""
            -- Favourites, boosts and bookmarks (and their undo) written down before they are sent
            -- and kept until the server answers (issue 27): an action whose server cannot be
            -- reached waits here for the next sync, which sends them in `sequence` order. `key` is
            -- chosen when the action is queued and sent with every try (Mastodon's
            -- Idempotency-Key; Bluesky's record key); `attempts` counts the requests that left.
            -- No AUTOINCREMENT (its sqlite_sequence would be one more object for every launch to
            -- parse): a number is reused only once the queue above it is empty, and only live
            -- rows are ordered by it.
            CREATE TABLE pending_actions (
                sequence INTEGER PRIMARY KEY,
                account TEXT NOT NULL, message_id TEXT NOT NULL, action TEXT NOT NULL,
                created_at INTEGER NOT NULL, key TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0
            );
            """#, changesTables: false),
        // Issue 28: inside a transaction, SQLite gives a statement a journal of its own (a copy
        // of every page it changes, spilled to a temporary file past 127 KiB and kept there for
        // the rest of the transaction) when it writes more than one row and may abort. The
        // immediate foreign key of unread_messages made every message insert (its trigger adds
        // the unread row) and every mark-read (its trigger moves the counts) such a statement:
        // checked at COMMIT instead, it guards the same thing (a transaction that would leave an
        // unread row without its message does not commit), and the cascade from a deleted
        // message is as before, actions being immediate whatever the check. The triggers' count
        // updates take `OR FAIL` for the same reason (a NOT NULL check that cannot fail made the
        // DELETE of a mark-read abortable). The code of the version before reads and writes on
        // without it; copying the unread rows takes time with their number.
        Migration(version: 12, name: "unread flags checked against their message at commit", sql: #"""
            CREATE TEMP TABLE unread_before_v12 AS SELECT seq FROM unread_messages;
            DROP TABLE unread_messages;
            -- A message is unread exactly when its seq is here. New messages start unread (the
            -- insert trigger of messages), whoever inserts them. The reference is checked when
            -- the transaction commits (see the migration's comment in Migration.swift).
            CREATE TABLE unread_messages (
                seq INTEGER PRIMARY KEY REFERENCES messages (seq) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
            );
            INSERT INTO unread_messages SELECT seq FROM temp.unread_before_v12 ORDER BY seq;
            DROP TABLE temp.unread_before_v12;
            CREATE TRIGGER unread_messages_tracked_insert AFTER INSERT ON unread_messages BEGIN
                UPDATE OR FAIL timeline_state SET generation = generation + 1, unread_count = unread_count + 1;
            END;
            CREATE TRIGGER unread_messages_tracked_delete AFTER DELETE ON unread_messages BEGIN
                UPDATE OR FAIL timeline_state SET generation = generation + 1, unread_count = unread_count - 1;
            END;
            """#, changesTables: false, takesTime: true),
        // A new table only, as migration 11: no row rewritten, no time taken, and the code of the
        // version before reads and writes on without it (it sends nothing that waits here).
        // Empty but for changes whose server has not answered yet; `show` never reads it (a
        // waiting post is a stored message of its own, `outbox:KEY`, painted from the snapshot).
        Migration(version: 13, name: "posts and other changes waiting for their server", sql: #"""
            -- Posts, replies and quotes, edits, votes, follows and unfollows, and deletes of the
            -- account's own posts, written down before they are sent and kept until the server
            -- answers (issue 27): one whose server cannot be reached waits here for the next
            -- sync, which sends them in `sequence` order. `kind` is post, edit, vote, follow,
            -- unfollow or delete; `target` the stored message (edit, vote, delete; a post's
            -- stand-in message `outbox:KEY`) or the handle (follow, unfollow); the rest is what
            -- the change carries (a post's draft; a vote's choices, counted from 0, joined by
            -- commas; languages joined by spaces). `key` is chosen when it is queued and sent with
            -- every try (Mastodon's Idempotency-Key; Bluesky's record key); `attempts` counts
            -- the requests that left. No AUTOINCREMENT, as pending_actions.
            CREATE TABLE outbox (
                sequence INTEGER PRIMARY KEY,
                account TEXT NOT NULL, kind TEXT NOT NULL, target TEXT NOT NULL,
                text TEXT, reply_to TEXT, quote_of TEXT, content_warning TEXT, visibility TEXT,
                languages TEXT, choices TEXT,
                created_at INTEGER NOT NULL, key TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0
            );
            """#, changesTables: false),
        // Issue 27: the outbox's table cost every launch of `show` its parse (callgrind: +0.9% of
        // a fresh `show`, 4.66 M instructions against 4.61 M); one column of pending_actions costs
        // nothing measurable. The waiting changes move there, in their order, as rows whose
        // `action` is the change's kind, which the code of the versions before leaves alone (it
        // sends only the actions it knows). No row of the old queue is rewritten.
        Migration(version: 14, name: "waiting posts and changes kept with the waiting actions", sql: #"""
            -- What a waiting post, edit, vote, follow, unfollow or delete carries (issue 27), as a
            -- JSON object: text, reply_to, quote_of, content_warning, visibility, languages
            -- (joined by spaces), choices (counted from 0, joined by commas). NULL for a
            -- favourite, boost or bookmark. Such a row's `action` is post, edit, vote, follow,
            -- unfollow or delete, and its `message_id` the post (a post's stand-in message
            -- `outbox:KEY`) or the handle followed.
            ALTER TABLE pending_actions ADD COLUMN payload TEXT;
            INSERT INTO pending_actions (account, message_id, action, created_at, key, attempts, payload)
                SELECT account, target, kind, created_at, key, attempts,
                       json_object('text', text, 'reply_to', reply_to, 'quote_of', quote_of,
                                   'content_warning', content_warning, 'visibility', visibility,
                                   'languages', languages, 'choices', choices)
                FROM outbox ORDER BY sequence;
            DROP TABLE outbox;
            """#, changesTables: false),
        // Issue 34: a short reference is the message's `seq`, and SQLite gives a new row the
        // largest rowid + 1, so the newest message's reference went to the next one once it was
        // deleted: a `delete bbv` typed from an older screen deleted another post. The numbers a
        // deleted message had are kept here (its own, at its deletion, by whoever deletes it), and
        // TimelineKit's insert numbers a new message above them (`MessageColumns.nextSequence`).
        // O(1) whatever the size: a column with a default, one row, the rowid b-tree's last key.
        Migration(version: 15, name: "deleted messages' references never given again", sql: #"""
            ALTER TABLE timeline_state ADD COLUMN retired_sequence INTEGER NOT NULL DEFAULT 0;
            UPDATE timeline_state SET retired_sequence = (SELECT ifnull(max(seq), 0) FROM messages);
            DROP TRIGGER messages_tracked_delete;
            CREATE TRIGGER messages_tracked_delete AFTER DELETE ON messages BEGIN
                DELETE FROM unread_messages WHERE seq = OLD.seq;
                UPDATE timeline_state SET generation = generation + 1, message_count = message_count - 1,
                    retired_sequence = max(retired_sequence, OLD.seq);
            END;
            """#, changesTables: false),
        // Issue 34: what the person chose not to see is decided when a message is written (a
        // sync, an import, a mute), never when it is painted: the verdict is stored with the
        // message, and every reader skips a hidden one. Four columns, no index (each schema
        // object costs every launch of `show` its parse): ADD COLUMN rewrites no row, takes no
        // time at any size, and the code of the version before reads and writes on without them
        // (it names its columns; a message it writes again keeps none of them until the next
        // sync of ours decides again).
        Migration(version: 16, name: "who may see a message, and what the person's rules make of it", sql: #"""
            -- `visibility`: public, unlisted, private (followers) or direct, where the source says.
            -- `moderation`: what the server said of it that the rules read, as a JSON object
            -- (`ModerationColumn`): labels, filters matched. `warning`: why the rules paint it
            -- collapsed. `hidden`: why they hide it; NULL for every message that is painted.
            ALTER TABLE messages ADD COLUMN visibility TEXT;
            ALTER TABLE messages ADD COLUMN moderation TEXT;
            ALTER TABLE messages ADD COLUMN warning TEXT;
            ALTER TABLE messages ADD COLUMN hidden TEXT;
            """#, changesTables: false),
        // Issue 35: a message carries where it came from, a registered name, instead of the
        // shape of its ID saying it. The rows stored before keep NULL, read as their ID tells
        // (`MessageSource.toldByID`): filling them would rewrite every row and fire the word
        // index's update triggers for each, minutes at a million, for what the ID already says.
        Migration(version: 17, name: "where a message came from", sql: #"""
            -- `source`: mastodon, bluesky, feed, import or an embedder's own name.
            ALTER TABLE messages ADD COLUMN source TEXT;
            """#, changesTables: false),
        // Issue 37: a message keeps the web links its source gave (Mastodon's anchors, Bluesky's
        // link facets and card), which its text may not spell out (Mastodon hides `https://`).
        // Rows stored before keep NULL, read as no links (`open --link` then reads the text).
        Migration(version: 18, name: "a message's web links", sql: #"""
            -- `links`: a JSON array of http and https addresses, NULL when there are none.
            ALTER TABLE messages ADD COLUMN links TEXT;
            """#, changesTables: false),
        // Issue 38: every connection parses the whole schema at its first statement, and these
        // three fire only inside TimelineKit's own transactions (their WHEN asks for the row
        // only those write). They are declared on the writing connection instead, as TEMP
        // triggers (`SearchIndexBatch.noteTriggers`), and `show`'s reconcile, the sqlite3 shell
        // and every other reader no longer parse them: 263k instructions fewer at a first
        // statement (4.07M to 3.81M in the shell, tools/schema-cost/measure). No row changes.
        Migration(version: 19, name: "the search's deferred notes declared by the connection that defers", sql: #"""
            DROP TRIGGER messages_search_insert_deferred;
            DROP TRIGGER messages_search_update_deferred;
            DROP TRIGGER messages_search_delete_deferred;
            """#, changesTables: false),
        // Issue 37: Mastodon 4.3's grouped notifications ("Alice and 12 others liked your post")
        // are stored one entry a group, under the ID of its newest notification: the group's
        // key, so that a group that grew replaces its older entry, and how many notifications it
        // holds. Rows stored before keep NULL, read as one notification each.
        Migration(version: 20, name: "grouped notifications", sql: #"""
            -- `group_key`: the server's opaque key of the group; `group_count`: its notifications.
            ALTER TABLE synced_entries ADD COLUMN group_key TEXT;
            ALTER TABLE synced_entries ADD COLUMN group_count INTEGER;
            """#, changesTables: false),
    ]

    /// Whether a database at `version` still needs a migration that changes tables.
    static func rebuildsTables(after version: Int) -> Bool {
        all.contains { $0.version > version && $0.changesTables }
    }

    /// Whether a database at `version` still needs a migration that takes time with its size.
    static func takesTime(after version: Int) -> Bool {
        all.contains { $0.version > version && $0.takesTime }
    }
}
