@testable import TimelineKit

/// Tells whether SQLite opened a statement transaction (and so a statement journal) on a
/// connection inside its write transaction, from the outside.
///
/// SQLite does not say which statements get one (`usesStmtJournal` is compiled in, not shown by
/// EXPLAIN), but opening one calls `xSavepoint` on every virtual table the transaction has
/// written, and FTS5 answers by writing out its pending terms as a new segment. So: write one
/// row to a scratch FTS5 table in `temp` (it stays pending, in memory), run the statements, and
/// see whether the table's `_data` gained rows. Only the first statement transaction writes
/// anything: a probe answers for the statements run after it, together.
struct StatementJournalProbe {
    let connection: SQLiteConnection
    private let rowsBefore: Int

    /// Sets the probe up; `connection` must be inside a write transaction.
    init(_ connection: SQLiteConnection) throws {
        self.connection = connection
        try connection.execute("""
            CREATE VIRTUAL TABLE IF NOT EXISTS temp.statement_journal_probe USING fts5 (x);
            INSERT INTO temp.statement_journal_probe (x) VALUES ('pending');
            """)
        rowsBefore = try connection.integer("SELECT count(*) FROM temp.statement_journal_probe_data") ?? 0
    }

    /// Whether a statement run since `init` opened a statement transaction.
    func sawStatementJournal() throws -> Bool {
        try (connection.integer("SELECT count(*) FROM temp.statement_journal_probe_data") ?? 0) > rowsBefore
    }
}
