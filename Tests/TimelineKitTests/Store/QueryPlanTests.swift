import Testing
@testable import TimelineKit

/// The timeline queries must walk an index in timeline order: a full scan or a sort of the whole
/// table would make `show` slower as the database grows.
@Suite struct QueryPlanTests {
    /// SQLite's plan for `sql`, one detail line per step.
    private func plan(_ sql: String, on connection: SQLiteConnection, bindings: (SQLiteStatement) throws -> Void) throws -> [String] {
        let statement = try connection.statement("EXPLAIN QUERY PLAN " + sql)
        try bindings(statement)
        var details: [String] = []
        while try statement.step() { details.append(statement.text(at: 3)) }
        statement.reset()
        return details
    }

    private func connection(_ directory: TemporaryDirectory) throws -> SQLiteConnection {
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...50))
        return try SQLiteConnection(path: store.path, mode: .readWrite)
    }

    private func expectIndexed(_ details: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(details.contains { $0.contains("USING INDEX messages_by_time") || $0.contains("USING COVERING INDEX messages_by_time") },
                "plan: \(details)", sourceLocation: sourceLocation)
        #expect(!details.contains { $0.hasPrefix("SCAN messages") && !$0.contains("INDEX") }, "plan: \(details)", sourceLocation: sourceLocation)
        #expect(!details.contains { $0.contains("TEMP B-TREE") }, "plan: \(details)", sourceLocation: sourceLocation)
    }

    @Test func theNewestPageWalksTheTimelineIndexWithoutSorting() throws {
        let directory = TemporaryDirectory()
        let details = try plan(TimelineReader.newestSQL, on: connection(directory)) { try $0.bind(20, at: 1) }
        expectIndexed(details)
    }

    @Test func anOlderPageSeeksIntoTheTimelineIndexWithoutSorting() throws {
        let directory = TemporaryDirectory()
        let details = try plan(TimelineReader.olderThanSQL, on: connection(directory)) {
            try $0.bind(20, at: 1)
            try $0.bind(Int64(1_795_000_000_000), at: 2)
            try $0.bind("m10", at: 3)
        }
        expectIndexed(details)
        #expect(details.contains { $0.contains("SEARCH messages USING INDEX messages_by_time") }, "plan: \(details)")
    }

    @Test func lookupsByIDListUseTheIDIndex() throws {
        let directory = TemporaryDirectory()
        let connection = try connection(directory)
        for sql in [
            TimelineTransaction.markReadSQL,
            TimelineTransaction.markUnreadSQL,
            "DELETE FROM messages WHERE id IN (SELECT value FROM json_each(?1))",
        ] {
            let details = try plan(sql, on: connection) { try $0.bind(SQLiteJSONArray(["m1", "m2"]), at: 1) }
            #expect(details.contains { $0.hasPrefix("SEARCH messages USING") && $0.contains("INDEX sqlite_autoindex_messages_1 (id=?)") },
                    "\(sql): \(details)")
            #expect(!details.contains { $0.hasPrefix("SCAN messages") || $0.hasPrefix("SCAN unread_messages") }, "\(sql): \(details)")
        }
    }
}
