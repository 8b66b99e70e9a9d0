import Foundation
import Testing
@testable import TimelineKit

/// `TimelineStore.additions(after:limit:)` lists every message stored after a cursor, oldest
/// first, whatever its time and however many: what `show --follow` prints on a pipe, which used
/// to print only the new messages that made it into its 200-message window (issue 12, item 5).
@Suite struct TimelineAdditionsTests {
    /// Every message listed from `cursor` on, page by page, and the cursor after the last page.
    static func listAll(_ store: TimelineStore, after cursor: AdditionCursor, limit: Int = 200)
        throws -> (ids: [String], pages: Int, cursor: AdditionCursor, missed: Bool) {
        var cursor = cursor
        var ids: [String] = []
        var pages = 0
        var missed = false
        while true {
            let added = try store.additions(after: cursor, limit: limit)
            ids += added.page.messages.map(\.id)
            pages += 1
            missed = missed || added.mayHaveMissedSome
            cursor = added.cursor
            if !added.hasMore { return (ids, pages, cursor, missed) }
        }
    }

    static func message(_ id: String, minutes: Double, author: String = "u1") -> Message {
        Message(id: id, authorID: author, text: id, createdAt: Samples.epoch.addingTimeInterval(minutes * 60))
    }

    /// What `message(_:minutes:)`'s time is stored as.
    static func milliseconds(minutes: Double) -> Int64 {
        Int64(((Samples.epoch.timeIntervalSince1970 + minutes * 60) * 1000).rounded())
    }

    @Test func fiveHundredNewerMessagesAreAllListedOldestFirstInPages() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...300))
        let cursor = try store.additionCursor()
        // Stored newest first, as an API page arrives: the listing still runs oldest first.
        let new = (0 ..< 500).map { Self.message(String(format: "n%03d", $0), minutes: 1_000 + Double($0)) }
        try store.upsert(messages: new.reversed())

        let listed = try Self.listAll(store, after: cursor)
        #expect(listed.ids == new.map(\.id))
        #expect(listed.pages == 3)
        #expect(!listed.missed)
        #expect(try store.additions(after: listed.cursor).page.messages.isEmpty)
    }

    @Test func backFilledOlderMessagesAreListedAndUpdatesAreNot() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...300))
        let cursor = try store.additionCursor()
        var edited = Samples.message(300)
        edited.text = "edited"
        edited.likeCount = 7
        let old = (0 ..< 10).map { Self.message("old\($0)", minutes: -10_000 + Double($0)) }
        try store.upsert(messages: [edited] + old.reversed())

        let added = try store.additions(after: cursor)
        #expect(added.page.messages.map(\.id) == old.map(\.id))
        #expect(!added.hasMore)
        #expect(added.page.users.map(\.id) == ["u1"])
    }

    @Test func aLargeBackFillAmongNewerMessagesIsPagedInTimelineOrder() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...50))
        let cursor = try store.additionCursor()
        // Interleaved with the stored ones in time, in a scrambled order of storing.
        let new = (0 ..< 120).map { Self.message("b\($0)", minutes: Double($0) * 0.5 + 0.25) }
        var generator = SplitMix64(seed: 12)
        try store.upsert(messages: new.shuffled(using: &generator))
        let listed = try Self.listAll(store, after: cursor, limit: 7)
        #expect(listed.ids == new.map(\.id))
        #expect(listed.pages == 18)
    }

    @Test func messagesWrittenByTheSQLiteShellAreListed() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        let cursor = try store.additionCursor()
        try SQLiteShell.run(store.path, "INSERT INTO messages (id, author_id, text, created_at) VALUES ('s1', 'u2', 'typed', 5), ('s2', 'u1', 'typed', 4)")
        let added = try store.additions(after: cursor)
        #expect(added.page.messages.map(\.id) == ["s2", "s1"])
        #expect(added.page.users.map(\.id) == ["u1", "u2"])
    }

    /// SQLite numbers a new row one past the largest number in use: after the newest message is
    /// deleted, the next one another program stores takes its number (TimelineKit numbers above
    /// every deleted one since issue 34, but the sqlite3 shell does not), and a cursor that only
    /// remembered that number would take the new message for an old one.
    @Test func aMessageStoredUnderTheNumberOfADeletedOneIsStillListed() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...5))
        let cursor = try store.additionCursor()
        try store.deleteMessages(ids: ["m5", "m4"])
        try SQLiteShell.run(store.path, """
            INSERT INTO messages (id, author_id, text, created_at) VALUES ('again', 'u1', 'again', \(Self.milliseconds(minutes: 100)));
            INSERT INTO messages (id, author_id, text, created_at) VALUES ('and-again', 'u1', 'and-again', \(Self.milliseconds(minutes: -100)));
            """)
        #expect(try SQLiteShell.run(store.path, "SELECT seq FROM messages WHERE id = 'again'").trimmingCharacters(in: .whitespacesAndNewlines) == "4")

        let listed = try Self.listAll(store, after: cursor)
        #expect(listed.ids == ["and-again", "again"])
        #expect(!listed.missed)
    }

    @Test func deletingEveryRememberedMessageIsReported() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...40))
        let cursor = try store.additionCursor()
        try store.deleteMessages(ids: (10...40).map { "m\($0)" })
        try store.upsert(messages: [Self.message("later", minutes: 500)])
        let added = try store.additions(after: cursor)
        #expect(added.mayHaveMissedSome)
        // Nothing older than the cursor is listed as new.
        #expect(!added.page.messages.contains { $0.id.hasPrefix("m") })
        // The next listing starts from a sound cursor again.
        try store.upsert(messages: [Self.message("after", minutes: 600)])
        let next = try store.additions(after: added.cursor)
        #expect(!next.mayHaveMissedSome)
        #expect(next.page.messages.map(\.id) == ["after"])
    }

    @Test func anEmptyDatabaseListsEverythingStoredInIt() throws {
        let directory = TemporaryDirectory()
        let store = try TimelineStore(path: directory.file("timeline.sqlite"))
        let cursor = try store.additionCursor()
        #expect(try store.additions(after: cursor).page.messages.isEmpty)
        try store.upsert(users: [Samples.alice], messages: Samples.messages(1...3))
        #expect(try store.additions(after: cursor).page.messages.map(\.id) == ["m1", "m2", "m3"])
    }

    @Test func aLargeBatchIsPagedAlongTheTimeIndexWithoutSorting() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...50))
        let connection = try SQLiteConnection(path: store.path, mode: .readWrite)
        let statement = try connection.statement("EXPLAIN QUERY PLAN " + TimelineReader.additionsInTimelineOrderSQL)
        for (index, value) in [Int64(10), 40, 1_795_000_000_000].enumerated() { try statement.bind(value, at: Int32(index + 1)) }
        try statement.bind("m10", at: 4)
        try statement.bind(200, at: 5)
        var details: [String] = []
        while try statement.step() { details.append(statement.text(at: 3)) }
        statement.reset()
        #expect(details.contains { $0.contains("SEARCH messages USING INDEX messages_by_time") }, "plan: \(details)")
        #expect(!details.contains { $0.contains("TEMP B-TREE") }, "plan: \(details)")
    }
}
