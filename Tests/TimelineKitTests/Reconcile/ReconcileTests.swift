import Foundation
import Testing
@testable import TimelineKit

@Suite struct ReconcileTests {
    /// A store of 30 messages whose snapshot holds the newest 10, and that snapshot.
    private func setUp(_ directory: TemporaryDirectory) throws -> (TimelineStore, TimelineSnapshot) {
        let store = try Samples.store(in: directory, configuration: .init(snapshotLimit: 10))
        try store.upsert(messages: Samples.messages(1...30))
        return (store, try store.snapshotFile.read())
    }

    @Test func anUnchangedDatabaseAnswersFromTheGenerationAlone() throws {
        let directory = TemporaryDirectory()
        let (store, snapshot) = try setUp(directory)
        let changes = try store.reconcile(snapshot)
        #expect(changes.isEmpty)
        #expect(changes.window == snapshot.window)
        #expect(changes.state == snapshot.state)
    }

    @Test func newMessagesAreInsertedAndPushOthersOut() throws {
        let directory = TemporaryDirectory()
        let (store, snapshot) = try setUp(directory)
        try SQLiteShell.run(store.path, """
            INSERT INTO messages (id, author_id, text, created_at) VALUES
              ('m31', 'u1', 'new', \(MillisecondTime.milliseconds(from: Samples.message(31).createdAt))),
              ('m32', 'u2', 'newer', \(MillisecondTime.milliseconds(from: Samples.message(32).createdAt)))
            """)
        let changes = try store.reconcile(snapshot)
        #expect(changes.inserted == ["m32", "m31"])
        #expect(changes.scrolledOut == ["m22", "m21"])
        #expect(changes.removed.isEmpty && changes.updated.isEmpty && changes.scrolledIn.isEmpty)
        #expect(changes.state.messageCount == 32)
        #expect(changes.state.unreadCount == 32)
        #expect(changes.window.messages.first?.text == "newer")
    }

    @Test func editsCountsReadStateAndAuthorNamesAreUpdates() throws {
        let directory = TemporaryDirectory()
        let (store, snapshot) = try setUp(directory)
        try SQLiteShell.run(store.path, "UPDATE messages SET text = 'edited', edited_at = 1795009999000 WHERE id = 'm30'")
        try SQLiteShell.run(store.path, "UPDATE messages SET like_count = 99 WHERE id = 'm29'")
        try store.markRead(ids: ["m28"])
        var changes = try store.reconcile(snapshot)
        #expect(changes.updated == ["m30", "m29", "m28"])
        #expect(changes.state.unreadCount == 29)

        // Renaming the author changes every line that shows her.
        try store.upsert(users: [User(id: "u1", handle: "alice", name: "Alice Renamed")])
        changes = try store.reconcile(snapshot)
        #expect(changes.updated.count == 10)
        #expect(changes.inserted.isEmpty)
    }

    @Test func deletedMessagesAreRemovedAndOlderOnesScrollIn() throws {
        let directory = TemporaryDirectory()
        let (store, snapshot) = try setUp(directory)
        try SQLiteShell.run(store.path, "DELETE FROM messages WHERE id IN ('m25', 'm30')")
        let changes = try store.reconcile(snapshot)
        #expect(changes.removed == ["m30", "m25"])
        #expect(changes.scrolledIn == ["m20", "m19"])
        #expect(changes.inserted.isEmpty && changes.updated.isEmpty && changes.scrolledOut.isEmpty)
        #expect(changes.state.messageCount == 28)
    }

    @Test func aBackfilledMessageInsideTheShownRangeIsNew() throws {
        let directory = TemporaryDirectory()
        let (store, snapshot) = try setUp(directory)
        var backfilled = Samples.message(25)
        backfilled.id = "m25b"
        try store.upsert(messages: [backfilled])
        let changes = try store.reconcile(snapshot)
        #expect(changes.inserted == ["m25b"])
        #expect(changes.scrolledOut == ["m21"])
    }

    @Test func anEditOfARepostedOriginalUpdatesTheRepost() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory, configuration: .init(snapshotLimit: 5))
        var repost = Samples.message(100, text: "")
        repost.repostOfID = "m1"
        try store.upsert(messages: Samples.messages(1...10) + [repost])
        let snapshot = try store.snapshotFile.read()
        #expect(snapshot.window.related.map(\.id) == ["m1"])

        try SQLiteShell.run(store.path, "UPDATE messages SET text = 'original, edited' WHERE id = 'm1'")
        let changes = try store.reconcile(snapshot)
        #expect(changes.updated == ["m100"])
        #expect(changes.window.related.first?.text == "original, edited")
    }

    @Test func aSnapshotOfAnotherDatabaseReconcilesToThisOne() throws {
        let directory = TemporaryDirectory()
        let (store, snapshot) = try setUp(directory)
        var foreign = snapshot
        foreign.state.databaseID = "ffffffffffffffffffffffffffffffff"
        let changes = try store.reconcile(foreign)
        #expect(changes.window == snapshot.window)
        #expect(changes.state.databaseID == snapshot.state.databaseID)
    }

    @Test func reconcilingAfterARefreshFindsNothing() throws {
        let directory = TemporaryDirectory()
        let (store, snapshot) = try setUp(directory)
        try SQLiteShell.run(store.path, "DELETE FROM messages WHERE id = 'm30'")
        #expect(!(try store.reconcile(snapshot).isEmpty))
        try store.writeSnapshot()
        #expect(try store.reconcile(store.snapshotFile.read()).isEmpty)
    }
}
