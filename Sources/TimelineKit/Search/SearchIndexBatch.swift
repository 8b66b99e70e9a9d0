/// The search index's side of a TimelineKit write transaction: the triggers note the messages
/// whose text changed, and the end of the transaction indexes them in one statement per index
/// (see the search migration for why: FTS5 flushes at every statement savepoint).
///
/// `begin` runs right after `BEGIN IMMEDIATE`, `finish` right before `COMMIT`; a rollback undoes
/// both with the rest. Writers that do neither (the sqlite3 shell, another program) find no
/// row in `messages_search_deferred`, and the triggers index row by row.
enum SearchIndexBatch {
    static let begin = "INSERT INTO messages_search_deferred (singleton) VALUES (1)"

    /// Takes the old texts out of both indexes, puts the current ones in, and empties the
    /// pending list. Old texts come first: a rowid may be in both (an edit). The small trigram
    /// index is filled before the word index: an FTS5 insert merges segments, and the pages a
    /// merge frees go back to SQLite's freelist; the next statement reusing them copies each
    /// into its statement journal (they existed when it started), 836 KB for the trigram
    /// index's insert after a 100k import, 303 KB the other way round (strace, 2026-11-26).
    /// CROSS JOIN keeps
    /// the pending list outside: the planner once scanned all messages for the trigram insert.
    /// The script test is `SearchScripts.holdsUnspaced`, defined on the connection by `prepare`.
    static let finishStatements = [
        """
        INSERT INTO messages_search (messages_search, rowid, text)
            SELECT 'delete', seq, old_text FROM messages_search_pending WHERE old_text IS NOT NULL
        """,
        """
        INSERT INTO messages_search_unspaced (messages_search_unspaced, rowid, text)
            SELECT 'delete', seq, old_text || char(10, 10) FROM messages_search_pending
            WHERE \(SearchScripts.unspacedFunction)(old_text)
        """,
        """
        INSERT INTO messages_search_unspaced (rowid, text)
            SELECT m.rowid, m.text || char(10, 10)
            FROM messages_search_pending AS p CROSS JOIN messages AS m ON m.rowid = p.seq
            WHERE \(SearchScripts.unspacedFunction)(m.text)
        """,
        """
        INSERT INTO messages_search (rowid, text)
            SELECT m.rowid, m.text FROM messages_search_pending AS p CROSS JOIN messages AS m ON m.rowid = p.seq
        """,
        "DELETE FROM messages_search_pending",
        "DELETE FROM messages_search_deferred",
    ]

    /// `finishStatements` as one script.
    static let finish = finishStatements.joined(separator: ";\n") + ";"

    /// Runs `finish`; after a bulk write (`flushingCache`), one statement at a time, the cache
    /// written out before each (`SQLiteConnection.flushCache`): each index insert is one
    /// statement with a statement journal, and would otherwise copy into it every page the
    /// import (or the statement before) left dirty in the cache, as it spills them.
    static func finish(on connection: SQLiteConnection, flushingCache: Bool) throws(SQLiteError) {
        guard flushingCache else { return try connection.execute(finish) }
        for statement in finishStatements {
            try connection.flushCache()
            try connection.execute(statement)
        }
    }

    /// The triggers that index row by row for the writers that do not defer (migration 9). Inside
    /// a TimelineKit transaction they do nothing (their WHEN finds the row of `begin`), but SQLite
    /// compiles them into every statement that writes `messages`, and a write to a virtual table
    /// makes a statement "may abort": with its triggers, one that writes more than one row,
    /// which inside a transaction gets a statement journal (a copy of every page it changes,
    /// on a temporary file past 127 KiB; see `SQLiteConnection.statementJournalSpillBytes`).
    static let rowByRowTriggers = [
        "messages_search_insert", "messages_search_update_removes", "messages_search_update", "messages_search_delete",
    ]

    /// Takes `rowByRowTriggers` out of the schema for the rest of the transaction, and returns
    /// their declarations as the database stores them, oldest first, for `restore`.
    ///
    /// For a transaction that writes many rows (`TimelineTransaction.bulkRows`): its upserts
    /// are then compiled without the triggers and run without statement journals. Nobody else
    /// ever sees them missing: other connections read the last commit, which has them, and
    /// `restore` puts them back before COMMIT, byte for byte what was dropped (so whatever
    /// migration declared them, the schema after is the schema before); a rollback restores
    /// them with the rest. The cost is a schema change per such transaction: 4 rows of
    /// `sqlite_master` written twice, this connection's statements prepared again once, and
    /// every other connection reading the schema again once at its next statement (`show`
    /// reads it at every start anyway).
    static func suspendRowByRowTriggers(_ connection: SQLiteConnection) throws(SQLiteError) -> [String] {
        let statement = try connection.statement(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'messages' AND name IN ("
                + rowByRowTriggers.map { "'\($0)'" }.joined(separator: ", ") + ") ORDER BY rowid")
        var found: [(name: String, sql: String)] = []
        do {
            defer { statement.reset() }
            while try statement.step() { found.append((statement.text(at: 0), statement.text(at: 1))) }
        }
        for trigger in found { try connection.execute("DROP TRIGGER main.\(trigger.name)") }
        return found.map(\.sql)
    }

    /// Declares again, in their order, the triggers `suspendRowByRowTriggers` took out.
    static func restore(_ declarations: [String], on connection: SQLiteConnection) throws(SQLiteError) {
        for declaration in declarations { try connection.execute(declaration) }
    }

    /// The triggers that note, inside a TimelineKit transaction, the messages whose text changed
    /// (the rowid, and the text the index holds for it, NULL for none; the first note of a rowid
    /// wins), for `finish` to index. They are TEMP, declared on the connection that writes, not
    /// kept in the file (migration 19 took them out of it): only TimelineKit's own transactions
    /// ever defer, and in the file every other connection parsed them at its first statement,
    /// `show`'s reconcile and the sqlite3 shell included (263k instructions of the 4.07M of the
    /// shell's first statement on a new database, `tools/schema-cost/measure`).
    /// (NOT EXISTS, not OR IGNORE: an upsert's conflict policy overrides its triggers'.)
    static let noteTriggers = [
        """
        CREATE TEMP TRIGGER IF NOT EXISTS messages_search_insert_noted AFTER INSERT ON main.messages
        WHEN EXISTS (SELECT 1 FROM messages_search_deferred) BEGIN
            INSERT INTO messages_search_pending (seq, old_text)
                SELECT NEW.rowid, NULL WHERE NOT EXISTS (SELECT 1 FROM messages_search_pending WHERE seq = NEW.rowid);
        END
        """,
        """
        CREATE TEMP TRIGGER IF NOT EXISTS messages_search_update_noted AFTER UPDATE ON main.messages
        WHEN (OLD.text IS NOT NEW.text OR OLD.rowid IS NOT NEW.rowid)
            AND EXISTS (SELECT 1 FROM messages_search_deferred) BEGIN
            INSERT INTO messages_search_pending (seq, old_text)
                SELECT OLD.rowid, OLD.text WHERE NOT EXISTS (SELECT 1 FROM messages_search_pending WHERE seq = OLD.rowid);
            INSERT INTO messages_search_pending (seq, old_text)
                SELECT NEW.rowid, NULL WHERE NOT EXISTS (SELECT 1 FROM messages_search_pending WHERE seq = NEW.rowid);
        END
        """,
        """
        CREATE TEMP TRIGGER IF NOT EXISTS messages_search_delete_noted AFTER DELETE ON main.messages
        WHEN EXISTS (SELECT 1 FROM messages_search_deferred) BEGIN
            INSERT INTO messages_search_pending (seq, old_text)
                SELECT OLD.rowid, OLD.text WHERE NOT EXISTS (SELECT 1 FROM messages_search_pending WHERE seq = OLD.rowid);
        END
        """,
    ]

    /// Whether `connection` has `noteTriggers`: asked of its temporary schema (3 rows) rather
    /// than remembered, because a transaction that declared them and rolled back took them
    /// back with it.
    static let hasNoteTriggers = "SELECT count(*) FROM sqlite_temp_master WHERE name = 'messages_search_delete_noted'"

    /// Defines on `connection` what `finish` calls (once per connection), and declares its
    /// `noteTriggers` where it has none yet. Runs inside the write transaction, after its
    /// migrations: a database being created has no `messages` table before them.
    static func prepare(_ connection: SQLiteConnection) throws(SQLiteError) {
        try connection.defineTextPredicate(SearchScripts.unspacedFunction, SearchScripts.unspacedPredicate)
        if try connection.integer(hasNoteTriggers) != 1 {
            for trigger in noteTriggers { try connection.execute(trigger) }
        }
    }
}
