import Foundation
import Testing
@testable import TimelineKit

/// Two stores on one file in one process (`show -f` with an account: the follow loop reads while
/// the account's sync writes). POSIX locks belong to the process, and closing any descriptor of
/// the file drops all of them: opening the second store must not unlock the first.
@Suite struct SecondStoreTests {
    @Test func openingASecondStoreOnTheSameFileKeepsTheFirstOnesCommitsSafe() throws {
        let directory = TemporaryDirectory()
        let first = try Samples.store(in: directory)
        try first.upsert(messages: [Samples.message(1)])
        _ = try first.timeline(limit: 10)  // the reader connection is open too

        let second = try TimelineStore(path: first.path)
        #expect(try second.timeline(limit: 10).messages.count == 1)
        // Another process opens and closes the database. Had the first store's locks been
        // dropped, that close would checkpoint and delete the WAL under it.
        try SQLiteShell.run(first.path, "SELECT count(*) FROM messages")
        try first.upsert(messages: [Samples.message(2)])
        try second.upsert(messages: [Samples.message(3)])
        #expect(try SQLiteShell.run(first.path, "SELECT count(*) FROM messages") == "3\n")
        #expect(try SQLiteShell.run(first.path, "PRAGMA integrity_check") == "ok\n")
    }
}
