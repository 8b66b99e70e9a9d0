import Foundation
import Testing
@testable import TimelineKit

/// Issue 28: statement journals stay in memory up to `SQLiteConnection.statementJournalSpillBytes`
/// and spill to a temporary file past it. The spill must work: a first cut kept 4 MiB in memory,
/// and SQLite, which writes the in-memory journal to the file in one call, failed that write
/// (its unix VFS writes at most 128 KiB per call) with SQLITE_FULL, "database or disk is full".
@Suite struct StatementJournalTests {
    @Test func theSpillBoundIsOneThatSQLiteCanWriteInOneCall() {
        #expect(SQLiteConnection.statementJournalSpillBytes > 64 << 10)
        #expect(SQLiteConnection.statementJournalSpillBytes <= 0x1ffff)
    }

    @Test func aStatementWhoseJournalOutgrowsMemoryStillCommits() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        let count = 3_000
        let text = String(repeating: "a long message text that fills its page ", count: 40)
        let messages = (1...count).map { Samples.message($0, text: "\(text) \($0)") }
        try store.upsert(messages: messages)
        #expect(SQLiteConnection.statementJournalSpillConfigured)
        // One transaction: the rows stored before it, then one statement (the delete, with its
        // triggers) that changes every page of them: 12 MB of journal, past any bound in memory.
        let deleted = try store.write { transaction in
            try transaction.upsert(messages: [Samples.message(count + 1, text: "one more")])
            return try transaction.deleteMessages(ids: messages.map(\.id))
        }
        #expect(deleted == count)
        #expect(try store.state().messageCount == 1)
    }
}
