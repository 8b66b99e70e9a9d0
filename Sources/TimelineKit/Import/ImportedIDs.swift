/// The user and message IDs an import has met, in a temporary table of the import's own
/// transaction: a streamed file of millions of statuses counts each ID once (its summary says
/// how many users and messages the file holds) without holding the IDs in memory. SQLite keeps a
/// temporary table on disk once it outgrows its cache.
struct ImportedIDs {
    private let transaction: TimelineTransaction

    init(_ transaction: TimelineTransaction) throws(TimelineStoreError) {
        self.transaction = transaction
        try transaction.withSQLite { () throws(SQLiteError) in
            try transaction.connection.execute("""
                CREATE TEMP TABLE IF NOT EXISTS imported_ids (kind INTEGER NOT NULL, id TEXT NOT NULL, PRIMARY KEY (kind, id)) WITHOUT ROWID;
                DELETE FROM temp.imported_ids;
                """)
        }
    }

    /// Records the IDs of `timeline`'s users (kind 0) and messages (kind 1).
    func add(_ timeline: DecodedTimeline) throws(TimelineStoreError) {
        try transaction.withSQLite { () throws(SQLiteError) in
            let statement = try transaction.connection.statement("""
                INSERT OR IGNORE INTO temp.imported_ids (kind, id)
                SELECT 0, value FROM json_each(?1) UNION ALL SELECT 1, value FROM json_each(?2)
                """)
            try statement.bind(SQLiteJSONArray(timeline.users.map(\.id)), at: 1)
            try statement.bind(SQLiteJSONArray(timeline.messages.map(\.id)), at: 2)
            try statement.run()
        }
    }

    /// How many distinct users and messages were recorded.
    func counts() throws(TimelineStoreError) -> (users: Int, messages: Int) {
        try transaction.withSQLite { () throws(SQLiteError) in
            (try transaction.connection.integer("SELECT count(*) FROM temp.imported_ids WHERE kind = 0") ?? 0,
             try transaction.connection.integer("SELECT count(*) FROM temp.imported_ids WHERE kind = 1") ?? 0)
        }
    }

    /// Empties the table, so that the connection holds nothing of this import afterwards.
    func drop() throws(TimelineStoreError) {
        try transaction.withSQLite { () throws(SQLiteError) in
            try transaction.connection.execute("DELETE FROM temp.imported_ids")
        }
    }
}
