import Foundation
import Testing
@testable import TimelineKit

/// Issue 34, "never the wrong post": a short reference names one message for the life of the
/// database. SQLite numbers a new row one above the largest stored, so the newest message's
/// reference used to go to the next message stored after it was deleted, and `delete bbv` typed
/// from an older screen deleted another post.
@Suite struct ShortReferenceRetirementTests {
    static func reference(_ store: TimelineStore, _ id: String) throws -> String {
        try #require(try store.message(id: id)).shortReference.text
    }

    @Test func theNewestMessagesReferenceIsNotGivenToTheNextOneAfterItIsDeleted() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1 ... 3))
        let deleted = try Self.reference(store, "m3")
        try store.deleteMessages(ids: ["m3"])
        try store.upsert(messages: [Samples.message(4)])
        let next = try Self.reference(store, "m4")
        #expect(next != deleted)
        // The deleted reference names nothing now; the live ones still name their messages.
        #expect(throws: TimelineStoreError.self) { try store.resolveMessageReferences([deleted]) }
        #expect(try store.resolveMessageReferences([next]) == ["m4"])
    }

    @Test func aMessageDeletedByTheSQLiteShellRetiresItsReferenceToo() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1 ... 3))
        let deleted = try Self.reference(store, "m3")
        try SQLiteShell.run(store.path, "DELETE FROM messages WHERE id = 'm3'")
        try store.upsert(messages: [Samples.message(4)])
        #expect(try Self.reference(store, "m4") != deleted)
    }

    @Test func aDatabaseMigratedFromAnOlderSchemaRetiresTheReferencesItHoldsWhenTheyAreDeleted() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("old.sqlite")
        try FileManager.default.copyItem(atPath: Fixtures.path("schema-v5.sqlite"), toPath: path)
        let store = try TimelineStore(path: path)
        let newest = try #require(try store.timeline(limit: 1).messages.first)
        let deleted = try Self.reference(store, newest.id)
        try store.deleteMessages(ids: [newest.id])
        try store.upsert(users: [Samples.alice])
        try store.upsert(messages: [Samples.message(900)])
        #expect(try Self.reference(store, "m900") != deleted)
    }

    @Test func storingTheSameMessageAgainKeepsItsReference() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1 ... 2))
        let before = try Self.reference(store, "m2")
        var edited = Samples.message(2)
        edited.text = "edited"
        try store.upsert(messages: [edited])
        #expect(try Self.reference(store, "m2") == before)
    }
}
