import Foundation
import Testing
@testable import TimelineKit

/// A message's web links (issue 37) kept where a message is kept: the `links` column
/// (migration 18), the snapshot (format 7), and JSON Lines (export, import, `show --json`).
@Suite struct MessageLinksStoreTests {
    static let linked = { () -> Message in
        var message = Samples.message(2)
        message.links = ["https://example.org/article", "https://b.example/x?a=1&b=\"2\""]
        return message
    }()

    @Test func linksAreStoredAsAJSONArrayAndReadBackAndNoneIsNull() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: [Samples.message(1), Self.linked])
        #expect(try store.message(id: "m2")?.links == Self.linked.links)
        #expect(try store.message(id: "m1")?.links == [])
        #expect(try SQLiteShell.run(store.path, "SELECT json_valid(links), json_array_length(links) FROM messages WHERE id = 'm2'").trimmed == "1|2")
        #expect(try SQLiteShell.run(store.path, "SELECT links IS NULL FROM messages WHERE id = 'm1'").trimmed == "1")
        // Another program's text that is no array of web links reads as none, or as what is one.
        try SQLiteShell.run(store.path, #"UPDATE messages SET links = '{"a":1}' WHERE id = 'm1'; UPDATE messages SET links = '["javascript:x","https://ok.example/",7]' WHERE id = 'm2'"#)
        #expect(try store.message(id: "m1")?.links == [])
        #expect(try store.message(id: "m2")?.links == ["https://ok.example/"])
    }

    /// A database of schema version 17 gains the column; its messages read with no links
    /// (`open --link` then reads their text) and new ones keep theirs.
    @Test func migration18AddsTheColumnAndOlderMessagesHaveNone() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("timeline.sqlite")
        do {
            let store = try TimelineStore(path: path)
            try store.upsert(users: [Samples.alice], messages: [Samples.message(1)])
        }
        try Samples.undoMigration18(path)
        #expect(try SQLiteShell.run(path, "PRAGMA user_version").trimmed == "17")

        let store = try TimelineStore(path: path)
        #expect(try SQLiteShell.run(path, "PRAGMA user_version").trimmed == String(Migration.latestVersion))
        #expect(try store.message(id: "m1")?.links == [])
        try store.upsert(messages: [Self.linked])
        #expect(try store.message(id: "m2")?.links == Self.linked.links)
    }

    /// `show` compares the snapshot's messages with the database's: links that did not make
    /// the round trip would make every linked message an update, and every `show` repaint.
    @Test func linksRoundTripThroughTheSnapshotSoReconcileFindsOnlyRealChanges() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory, configuration: .init(snapshotLimit: 10))
        var messages = Samples.messages(1...12)
        messages[10].links = ["https://example.org/article"]
        messages[11].links = ["https://a.example/", "http://b.example/c"]
        try store.upsert(messages: messages)
        let snapshot = try store.snapshotFile.read()
        #expect(snapshot.window.messages.first { $0.id == "m12" }?.links == ["https://a.example/", "http://b.example/c"])
        #expect(snapshot.window.messages == (try store.timeline(limit: 10).messages))
        #expect(try store.reconcile(snapshot).isEmpty)

        // A change elsewhere moves the generation: the messages are compared, and only it is one.
        try SQLiteShell.run(store.path, "UPDATE messages SET like_count = 99 WHERE id = 'm5'")
        let changes = try store.reconcile(snapshot)
        #expect(changes.updated == ["m5"])
        #expect(changes.inserted.isEmpty && changes.removed.isEmpty)
    }

    @Test func exportWritesLinksAndImportReadsThemBack() throws {
        let line = JSONLinesExporter.line(for: Self.linked, author: nil)
        #expect(line.contains(#","links":["https://example.org/article","https://b.example/x?a=1&b=\"2\""],"#))
        #expect(!JSONLinesExporter.line(for: Samples.message(1), author: nil).contains("links"))
        // `show --json` writes them too.
        #expect(JSONLinesExporter.line(for: Self.linked, author: Samples.alice).contains(#""links":["#))

        let directory = TemporaryDirectory()
        let store = try directory.store()
        let alice = JSONLinesExporter.line(for: Samples.alice)
        _ = try store.importText(alice + "\n" + line + "\n" + JSONLinesExporter.line(for: Samples.message(1), author: nil), in: directory)
        #expect(try store.message(id: "m2")?.links == Self.linked.links)
        #expect(try store.message(id: "m1")?.links == [])
        // What is no web link is left out, as from a server.
        let hostile = #"{"type":"message","id":"m3","author":"u1","text":"x","created_at":"2026-01-01T10:00:00Z","links":["javascript:alert(1)","https://ok.example/"]}"#
        _ = try store.importText(alice + "\n" + hostile, in: directory)
        #expect(try store.message(id: "m3")?.links == ["https://ok.example/"])
    }
}
