/// TimelineKit's end-of-transaction search indexing, as SQL text, for the peers that must do the
/// same work as TimelineKit: GRDB (stage 7) and the sqlite3 shell (stage 10).
///
/// Inside TimelineKit's own write transactions the search triggers only note what changed (while
/// `messages_search_deferred` holds its row), and the transaction indexes it all in one statement
/// per index before COMMIT (`Sources/TimelineKit/Search/SearchIndexBatch.swift`; the search
/// migration says why: row by row, FTS5 flushes at every statement, 40 µs a message). The schema
/// offers the same to any writer. This is that SQL reproduced, not imported: the bench measures
/// from outside, and `DatabaseProbe` checks each peer's index against TimelineKit's instead of
/// trusting the copy.
enum DeferredSearchIndexing {
    static let begin = "INSERT INTO messages_search_deferred (singleton) VALUES (1)"

    /// The UTF-8 lead bytes of the scripts written without spaces (`SearchScripts.unspacedPrefixes`).
    private static let unspacedPrefixes = ["E3", "E4", "E5", "E6", "E7", "E8", "E9", "EA", "EB", "EC", "ED",
                                           "E0B8", "E0B9", "E0BA", "E0BB", "E180", "E181", "E182", "E19E", "E19F"]

    static let finish: String = {
        let test = "(" + unspacedPrefixes.map { "instr(b, X'\($0)')" }.joined(separator: " OR ") + ")"
        return """
            INSERT INTO messages_search (messages_search, rowid, text)
                SELECT 'delete', seq, old_text FROM messages_search_pending WHERE old_text IS NOT NULL;
            INSERT INTO messages_search_unspaced (messages_search_unspaced, rowid, text)
                SELECT 'delete', seq, old_text || char(10, 10)
                FROM (SELECT seq, old_text, CAST(old_text AS BLOB) AS b FROM messages_search_pending WHERE old_text IS NOT NULL)
                WHERE length(old_text) <> length(b) AND \(test);
            INSERT INTO messages_search (rowid, text)
                SELECT m.rowid, m.text FROM messages_search_pending AS p CROSS JOIN messages AS m ON m.rowid = p.seq;
            INSERT INTO messages_search_unspaced (rowid, text)
                SELECT m.rowid, m.text || char(10, 10)
                FROM messages_search_pending AS p CROSS JOIN messages AS m ON m.rowid = p.seq
                WHERE m.text_is_unspaced;
            DELETE FROM messages_search_pending;
            DELETE FROM messages_search_deferred;
            """
    }()
}
