import Foundation

/// The sqlite3 shell doing each command's work on the same database: the peer of stages 10 and
/// 11, whose time is SQLite's own cost for that work, the floor `timeline` can approach.
///
/// Each script is the SQL `timeline` runs, reproduced as text from TimelineKit's sources (the
/// statements' files are named beside each script), with the settings of TimelineKit's writer
/// connection (`synchronous = FULL`, foreign keys on; WAL is the database's own mode). The bench
/// checks what each peer found or wrote against what `timeline` did, so a copy that drifted from
/// the original fails the run instead of timing other work.
enum ShellPeer {
    /// The shell, where Debian's `sqlite3` package puts it (`make test-deps` installs it).
    static let shell = "/usr/bin/sqlite3"

    static func checkInstalled() throws {
        guard FileManager.default.isExecutableFile(atPath: shell) else {
            throw BenchError("\(shell) is missing: the sqlite3 shell is the peer of stages 10 and 11 (`make test-deps` installs it)")
        }
    }

    /// The command that runs `script` (a file) on `database`, stopping at the first error with a
    /// non-zero status.
    static func command(database: String, script: String) -> [String] {
        [shell, "-bail", "-batch", database, ".read \(script)"]
    }

    /// Writes `text` to `path` and returns the command that runs it on `database`.
    static func prepare(_ text: String, at path: String, database: String) throws -> [String] {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return command(database: database, script: path)
    }

    /// TimelineKit's writer connection's settings (`TimelineStore.openWriter`).
    private static let writer = """
        PRAGMA synchronous = FULL;
        PRAGMA foreign_keys = ON;

        """

    /// A string literal of SQL.
    static func literal(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }

    /// Whole milliseconds from an RFC 3339 time as `timeline export` writes them (UTC, `Z`,
    /// milliseconds only when not zero), like TimelineKit's `RFC3339Time` for those times.
    private static func milliseconds(_ time: String) -> String {
        """
        (CAST(strftime('%s', substr(\(time), 1, 19)) AS INTEGER) * 1000 + CASE WHEN substr(\(time), 20, 1) = '.'
            THEN CAST(substr(substr(\(time), 21, instr(substr(\(time), 21), 'Z') - 1) || '00', 1, 3) AS INTEGER) ELSE 0 END)
        """
    }

    /// `timeline import FILE` of a JSON Lines file written by `timeline export`, into a database
    /// TimelineKit created empty: the lines read by the shell's `.import`, parsed by SQLite's
    /// JSON functions, upserted as TimelineKit's statements do (`UserColumns.insert`/`update`,
    /// `MessageColumns.insert`/`update`, here one `ON CONFLICT DO UPDATE` per table), the
    /// attachments column as `AttachmentsColumn` writes it), read
    /// flags set, and the search index built at the end of the one transaction, as TimelineKit's
    /// transactions do (`DeferredSearchIndexing`), triggers and counts included.
    static func importJSONLines(_ file: String) -> String {
        let line = "l.line"
        return writer + """
            CREATE TEMP TABLE lines (line TEXT);
            .mode ascii
            .separator "\\037" "\\n"
            .import \(file) lines
            .mode list
            \(DeferredSearchIndexing.declareNotes)
            BEGIN IMMEDIATE;
            \(DeferredSearchIndexing.begin);
            INSERT INTO users (id, handle, name, url, bot)
                SELECT \(line)->>'id', \(line)->>'handle', \(line)->>'name', \(line)->>'url', coalesce(\(line)->>'bot', 0)
                FROM temp.lines AS l WHERE \(line)->>'type' = 'user'
            ON CONFLICT (id) DO UPDATE SET
                handle = excluded.handle, name = excluded.name, url = excluded.url, bot = excluded.bot
            WHERE (handle, name, url, bot) IS NOT (excluded.handle, excluded.name, excluded.url, excluded.bot);
            INSERT INTO messages (\(messageColumns))
                SELECT \(line)->>'id', \(line)->>'author', \(line)->>'text', \(milliseconds("\(line)->>'created_at'")),
                    CASE WHEN \(line)->>'edited_at' IS NULL THEN NULL ELSE \(milliseconds("\(line)->>'edited_at'")) END,
                    \(line)->>'reply_to', \(line)->>'reply_to_user', \(line)->>'repost_of', \(line)->>'quote_of',
                    \(line)->>'content_warning', \(line)->>'url',
                    CASE WHEN \(line)->'attachments' IS NULL THEN NULL ELSE (
                        SELECT json_group_array(json(json_patch('{}', json_object(
                            'alt_text', a.value->>'alt_text', 'kind', a.value->>'kind', 'url', a.value->>'url'))))
                        FROM json_each(\(line)->'attachments') AS a) END,
                    coalesce(\(line)->>'likes', 0), coalesce(\(line)->>'reposts', 0), coalesce(\(line)->>'replies', 0),
                    \(line)->>'visibility', coalesce(\(line)->>'source', 'import')
                FROM temp.lines AS l WHERE \(line)->>'type' = 'message'
            \(messageUpsertTail);
            DELETE FROM unread_messages WHERE seq IN (
                SELECT m.seq FROM temp.lines AS l CROSS JOIN messages AS m ON m.id = \(line)->>'id'
                WHERE \(line)->>'type' = 'message' AND \(line)->>'read' = 1);
            \(DeferredSearchIndexing.finish(withFunction: false))
            COMMIT;

            """
    }

    /// `MessageColumns.stored`, as far as a JSON Lines file carries them: issue 35's `export`
    /// writes `visibility` and `source` (the latter left out for `import`, which the import
    /// stores for a line without one, as the shell's `coalesce` does), so the shell reads and
    /// selects them too.
    static let messageColumns = """
        id, author_id, text, created_at, edited_at, reply_to_id, reply_to_user_id, repost_of_id, \
        quote_of_id, content_warning, url, attachments, like_count, repost_count, reply_count, \
        visibility, source
        """

    /// The conflict clause doing `MessageColumns.update`'s work: update in place only what differs.
    private static let messageUpsertTail = """
        ON CONFLICT (id) DO UPDATE SET
            author_id = excluded.author_id, text = excluded.text, created_at = excluded.created_at,
            edited_at = excluded.edited_at, reply_to_id = excluded.reply_to_id,
            reply_to_user_id = excluded.reply_to_user_id, repost_of_id = excluded.repost_of_id,
            quote_of_id = excluded.quote_of_id, content_warning = excluded.content_warning,
            url = excluded.url, attachments = excluded.attachments, like_count = excluded.like_count,
            repost_count = excluded.repost_count, reply_count = excluded.reply_count,
            visibility = excluded.visibility, source = excluded.source
        WHERE (author_id, text, created_at, edited_at, reply_to_id, reply_to_user_id, repost_of_id,
               quote_of_id, content_warning, url, attachments, like_count, repost_count, reply_count,
               visibility, source)
           IS NOT (excluded.author_id, excluded.text, excluded.created_at, excluded.edited_at,
               excluded.reply_to_id, excluded.reply_to_user_id, excluded.repost_of_id,
               excluded.quote_of_id, excluded.content_warning, excluded.url, excluded.attachments,
               excluded.like_count, excluded.repost_count, excluded.reply_count,
               excluded.visibility, excluded.source)
        """

    /// `MessageColumns.select(from: "m")`: the columns and the read flag.
    static let messageSelect = messageColumns
        + ", NOT EXISTS (SELECT 1 FROM unread_messages WHERE unread_messages.seq = m.seq) AS read"

    /// `timeline export FILE`: every user by ID, every message newest first (the timeline
    /// order, `JSONLinesExporter`), printed by the shell's JSON output mode into `file`.
    static func export(to file: String) -> String {
        """
        .mode json
        .output \(file)
        SELECT id, handle, name, url, bot FROM users ORDER BY id;
        SELECT \(messageSelect) FROM messages AS m ORDER BY m.created_at DESC, m.id DESC;
        .output stdout

        """
    }

    /// `timeline mark-read --ids-file FILE`: the IDs read by `.import`, then, in one write
    /// transaction as the tool's, the unknown-ID check (`TimelineTransaction.unknownMessageIDs`,
    /// the tool refuses the whole list when one ID is unknown: the shell prints such IDs and the
    /// bench checks it printed none) and the one statement of `TimelineTransaction.markReadSQL`.
    /// Issue 28: without the check the peer did less work than the tool.
    static func markRead(idsFile: String) -> String {
        writer + """
            CREATE TEMP TABLE ids (id TEXT);
            .mode ascii
            .separator "\\037" "\\n"
            .import \(idsFile) ids
            .mode list
            BEGIN IMMEDIATE;
            SELECT id FROM temp.ids WHERE id NOT IN (SELECT id FROM messages);
            DELETE FROM unread_messages
            WHERE seq IN (SELECT seq FROM messages WHERE id IN (SELECT id FROM temp.ids));
            COMMIT;

            """
    }

    /// `timeline mark-read --all` (`TimelineTransaction.markAllRead`).
    static let markAllRead = writer + "DELETE FROM unread_messages;\n"

    /// `timeline post --as HANDLE TEXT` (`TimelineStore.post`): the author found by handle, a
    /// new `local-` ID from the time and random bits, the message inserted and marked read.
    static func post(handle: String, text: String) -> String {
        writer + """
            BEGIN IMMEDIATE;
            INSERT INTO messages (id, author_id, text, created_at)
                SELECT 'local-' || t.ms || '-' || lower(hex(randomblob(4))), u.id, \(literal(text)), t.ms
                FROM users AS u, (SELECT CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) AS ms) AS t
                WHERE u.handle = \(literal(handle))
            \(messageUpsertTail);
            DELETE FROM unread_messages WHERE seq = last_insert_rowid();
            COMMIT;

            """
    }

    /// `timeline delete ID` (`TimelineTransaction.deleteMessages`).
    static func delete(id: String) -> String {
        writer + "DELETE FROM messages WHERE id IN (SELECT value FROM json_each(\(literal("[\"\(id)\"]"))));\n"
    }

    /// `timeline stats`: the counts and generation (`TimelineReader.state`).
    static let stats = """
        SELECT database_id, generation, message_count, unread_count, user_count FROM timeline_state WHERE singleton = 1;

        """

    /// `timeline doctor --quick` (`TimelineStore+Health.swift`): the schema version, page
    /// figures, `quick_check`, and the counts the triggers keep against the tables.
    static let doctorQuick = """
        PRAGMA user_version;
        PRAGMA page_size;
        PRAGMA page_count;
        PRAGMA freelist_count;
        PRAGMA auto_vacuum;
        PRAGMA quick_check(100);
        BEGIN;
        SELECT database_id, generation, message_count, unread_count, user_count FROM timeline_state WHERE singleton = 1;
        SELECT count(*) FROM messages;
        SELECT count(*) FROM messages m WHERE EXISTS (SELECT 1 FROM unread_messages u WHERE u.seq = m.seq);
        SELECT count(*) FROM users;
        SELECT last_run_at FROM maintenance WHERE singleton = 1;
        COMMIT;

        """

    /// `timeline prune --older-than D --dry-run` (`TimelineStore+Prune.swift`, the statements of
    /// `MaintenanceStatements`): the counts a prune before `cutoff` (ms) would remove, in one
    /// read transaction, with the same bound parameters.
    static func pruneDryRun(cutoff: Int64) -> String {
        let isUnread = { (alias: String) in "EXISTS (SELECT 1 FROM unread_messages u WHERE u.seq = \(alias).seq)" }
        let isOld = { (alias: String) in "(\(alias).created_at < ?1 AND NOT (?2 AND \(isUnread(alias))))" }
        let isPruned = { (alias: String) in
            """
            (\(isOld(alias)) AND \(alias).id NOT IN (
                SELECT k.repost_of_id FROM messages k WHERE k.repost_of_id IS NOT NULL AND NOT \(isOld("k"))
                UNION ALL
                SELECT k.quote_of_id FROM messages k WHERE k.quote_of_id IS NOT NULL AND NOT \(isOld("k"))
                UNION ALL
                SELECT n.message_id FROM synced_entries n WHERE n.message_id IS NOT NULL
                    AND (n.timeline = 'notifications' AND n.created_at >= ?1)))
            """
        }
        let orphanedUsers = """
            id IN (SELECT m.author_id FROM messages m WHERE \(isPruned("m"))
                   UNION SELECT m.reply_to_user_id FROM messages m
                         WHERE m.reply_to_user_id IS NOT NULL AND \(isPruned("m")))
            AND id NOT IN (SELECT m.author_id FROM messages m WHERE NOT \(isPruned("m"))
                           UNION SELECT m.reply_to_user_id FROM messages m
                                 WHERE m.reply_to_user_id IS NOT NULL AND NOT \(isPruned("m"))
                           UNION SELECT n.actor_id FROM synced_entries n
                                 WHERE n.actor_id IS NOT NULL AND (n.timeline = 'notifications' AND n.created_at >= ?1))
            """
        return """
            .parameter set ?1 \(cutoff)
            .parameter set ?2 0
            BEGIN;
            SELECT count(*) FROM messages m WHERE \(isPruned("m"));
            SELECT count(*) FROM users WHERE \(orphanedUsers);
            SELECT count(*) FROM messages m WHERE ?2 AND m.created_at < ?1 AND \(isUnread("m"));
            SELECT message_count FROM timeline_state;
            PRAGMA page_size;
            PRAGMA page_count;
            PRAGMA freelist_count;
            SELECT count(*) FROM synced_entries n WHERE (n.timeline = 'notifications' AND NOT n.created_at >= ?1);
            COMMIT;

            """
    }
}
