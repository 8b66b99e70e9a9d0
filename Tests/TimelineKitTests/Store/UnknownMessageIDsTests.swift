import Foundation
import Testing
@testable import TimelineKit

/// A change by message ID that refuses unknown IDs (issue 15): all or nothing, the unknown IDs
/// named, found in one statement inside the change's own transaction.
@Suite struct UnknownMessageIDsTests {
    @Test func aDeleteWithAnUnknownIDChangesNothingAndNamesIt() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...5))
        let before = try store.state()
        let snapshot = try store.snapshotFile.read()
        #expect(throws: TimelineStoreError.unknownMessages(ids: ["nope"], given: 3)) {
            try store.deleteMessages(ids: ["m1", "nope", "m2"], unknownIDs: .refuse)
        }
        #expect(try store.state() == before)
        #expect(try store.message(id: "m1") != nil)
        #expect(try store.snapshotFile.read().generation == snapshot.generation)
        #expect(try store.deleteMessages(ids: ["m1", "m2"], unknownIDs: .refuse) == 2)
    }

    @Test func markingReadWithUnknownIDsChangesNothingAndNamesEachOnceInTheOrderGiven() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...5))
        let ids = ["zz", "m1", "a\u{0}b", "b", "zz", "m2", "b"]
        #expect(throws: TimelineStoreError.unknownMessages(ids: ["zz", "b", "a\u{0}b"], given: 7)) {
            try store.markRead(ids: ids, unknownIDs: .refuse)
        }
        #expect(try store.state().unreadCount == 5)
        #expect(throws: TimelineStoreError.unknownMessages(ids: ["zz"], given: 2)) {
            try store.markRead(ids: ["m1", "zz"], read: false, unknownIDs: .refuse)
        }
        #expect(try store.markRead(ids: ["m1", "m2", "m1"], unknownIDs: .refuse) == 2)
        #expect(try store.state().unreadCount == 3)
    }

    @Test func ignoringUnknownIDsStaysTheDefault() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...3))
        #expect(try store.markRead(ids: ["m1", "nope"]) == 1)
        #expect(try store.deleteMessages(ids: ["m2", "nope"]) == 1)
    }

    @Test func refusingUnknownIDsAddsOneStatementBeforeTheOneThatChangesTenThousandMessages() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory, configuration: .init(writesSnapshot: false))
        let messages = (1...12_000).map { Samples.message($0) }
        try store.upsert(messages: messages)
        let ids = messages.prefix(10_000).map(\.id)
        let statements = try store.write { transaction in
            let before = transaction.connection.statementRuns
            let changed = try transaction.markRead(ids: ids, unknownIDs: .refuse)
            #expect(changed == 10_000)
            return transaction.connection.statementRuns - before
        }
        #expect(statements == 2)
    }

    @Test func theTransactionTellsWhichIDsAreUnknownAsItSeesTheDatabase() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...2))
        let unknown = try store.write { transaction in
            try transaction.upsert(Samples.message(3))
            try transaction.deleteMessages(ids: ["m1"])
            return try transaction.unknownMessageIDs(among: ["m1", "m2", "m3", "m4"])
        }
        #expect(unknown == ["m1", "m4"])
    }

    @Test func theErrorQuotesAFewIDsCountsTheRestAndSaysNothingChanged() {
        let one = TimelineStoreError.unknownMessages(ids: ["nope"], given: 1).description
        #expect(one.hasPrefix(#"No message has the ID "nope". Nothing was changed"#))
        let many = TimelineStoreError.unknownMessages(ids: (1...12).map { "x\($0)" } + ["\u{1B}[31m"], given: 10_000).description
        #expect(many.hasPrefix(#"Of the 10,000 IDs given, 13 match no message: "x1", "x2", "x3", "x4", "x5" and 8 more. Nothing was changed"#))
        let hostile = TimelineStoreError.unknownMessages(ids: ["a\u{1B}]0;owned\u{7}"], given: 2).description
        #expect(!hostile.contains("\u{1B}") && !hostile.contains("\u{7}"))
        #expect(hostile.contains("1 matches no message"))
    }
}
