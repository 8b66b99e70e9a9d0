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
    /// pending list. Old texts come first: a rowid may be in both (an edit). CROSS JOIN keeps
    /// the pending list outside: the planner once scanned all messages for the trigram insert.
    /// The script test is `SearchScripts.holdsUnspaced`, defined on the connection by `prepare`.
    static let finish = """
        INSERT INTO messages_search (messages_search, rowid, text)
            SELECT 'delete', seq, old_text FROM messages_search_pending WHERE old_text IS NOT NULL;
        INSERT INTO messages_search_unspaced (messages_search_unspaced, rowid, text)
            SELECT 'delete', seq, old_text || char(10, 10) FROM messages_search_pending
            WHERE \(SearchScripts.unspacedFunction)(old_text);
        INSERT INTO messages_search (rowid, text)
            SELECT m.rowid, m.text FROM messages_search_pending AS p CROSS JOIN messages AS m ON m.rowid = p.seq;
        INSERT INTO messages_search_unspaced (rowid, text)
            SELECT m.rowid, m.text || char(10, 10)
            FROM messages_search_pending AS p CROSS JOIN messages AS m ON m.rowid = p.seq
            WHERE \(SearchScripts.unspacedFunction)(m.text);
        DELETE FROM messages_search_pending;
        DELETE FROM messages_search_deferred;
        """

    /// Defines on `connection` what `finish` calls (once per connection).
    static func prepare(_ connection: SQLiteConnection) throws(SQLiteError) {
        try connection.defineTextPredicate(SearchScripts.unspacedFunction, SearchScripts.unspacedPredicate)
    }
}
