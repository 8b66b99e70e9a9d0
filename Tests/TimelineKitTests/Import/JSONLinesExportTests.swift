import Foundation
import Testing
import TimelineKit

@Suite("JSONLines export")
struct JSONLinesExportTests {
    typealias F = ImportFixtures

    @Test func exportImportExportGivesIdenticalBytesAndEqualMessages() throws {
        let directory = TemporaryDirectory()
        let original = try directory.store("original.sqlite")
        try JSONLinesImporter(store: original).importFile(atPath: F.samplePath)

        let first = try F.export(original)
        let copy = try directory.store("copy.sqlite")
        let path = try directory.write(first, to: "export.jsonl")
        let summary = try JSONLinesImporter(store: copy).importFile(atPath: path)
        let second = try F.export(copy)

        #expect(summary.users == 37)
        #expect(summary.messages == 337)
        #expect(first == second)
        #expect(try F.allMessages(copy) == F.allMessages(original))
        #expect(try copy.allUsers() == original.allUsers())
        let (originalState, copyState) = (try original.state(), try copy.state())
        #expect(copyState.unreadCount == originalState.unreadCount)
        #expect(copyState.messageCount == originalState.messageCount)
    }

    @Test func exportWritesEveryUserByIDThenMessagesNewestFirst() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        try store.importText([
            #"{"type":"user","id":"u2","handle":"bob","name":"Bob"}"#,
            F.alice,
            #"{"type":"user","id":"u3","handle":"lurker","name":"Never Posts"}"#,
            F.message("m1", createdAt: "2026-11-20T10:00:00Z"),
            F.message("m3", author: "u2", createdAt: "2026-11-20T12:00:00Z"),
            F.message("m2", createdAt: "2026-11-20T11:00:00Z"),
        ].joined(separator: "\n"), in: directory)

        let lines = String(decoding: try F.export(store), as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 7)
        #expect(lines.last == "")
        let ids = try lines.dropLast().map { line -> String in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return try #require(object?["id"] as? String)
        }
        #expect(ids == ["u1", "u2", "u3", "m3", "m2", "m1"])
    }

    @Test func messageLinesAreCanonical() {
        let message = Message(
            id: "m1", authorID: "u1", text: "hi", createdAt: Date(timeIntervalSince1970: 1_795_168_800),
            editedAt: Date(timeIntervalSince1970: 1_795_168_800.5), replyToID: "m0",
            attachments: [Attachment(kind: "image", altText: "")], likeCount: 3, isRead: true)
        #expect(JSONLinesExporter.line(for: message) == #"{"type":"message","id":"m1","author":"u1","text":"hi","created_at":"2026-11-20T10:00:00Z","edited_at":"2026-11-20T10:00:00.500Z","reply_to":"m0","attachments":[{"kind":"image","alt_text":""}],"likes":3,"reposts":0,"replies":0,"read":true}"#)
        #expect(JSONLinesExporter.line(for: User(id: "u1", handle: "a", name: "A", url: "https://x.example/@a"))
            == #"{"type":"user","id":"u1","handle":"a","name":"A","url":"https://x.example/@a","bot":false}"#)
    }

    /// Issue 35: `export` writes where a message came from and who may see it, and `import`
    /// reads both back, so that an import of an export gives the same messages: the source left
    /// out only when it is `import`, what a line without one means.
    @Test func exportWritesTheSourceAndVisibilityAndImportReadsThemBack() throws {
        let directory = TemporaryDirectory()
        let original = try directory.store("original.sqlite")
        let time = Date(timeIntervalSince1970: 1_795_168_800)
        let messages = [
            Message(id: "feed:0a1b2c3d:item", authorID: "u1", text: "an item", createdAt: time, source: .feed),
            Message(id: "social.example/1", authorID: "u1", text: "a status", createdAt: time.addingTimeInterval(1),
                    visibility: .unlisted, source: .mastodon),
            Message(id: "m1", authorID: "u1", text: "imported", createdAt: time.addingTimeInterval(2), visibility: .direct),
            Message(id: "w1", authorID: "u1", text: "an embedder's", createdAt: time.addingTimeInterval(3), source: try MessageSource("weather")),
        ]
        try original.upsert(users: [User(id: "u1", handle: "alice", name: "Alice")], messages: messages)
        let first = try F.export(original)
        let lines = String(decoding: first, as: UTF8.self)
        #expect(lines.contains(#""read":false,"source":"feed"}"#), "\(lines)")
        #expect(lines.contains(#""read":false,"visibility":"unlisted","source":"mastodon"}"#), "\(lines)")
        #expect(lines.contains(#""read":false,"visibility":"direct"}"#), "\(lines)")
        #expect(lines.contains(#""source":"weather"}"#), "\(lines)")

        let copy = try directory.store("copy.sqlite")
        try JSONLinesImporter(store: copy).importFile(atPath: try directory.write(first, to: "export.jsonl"))
        #expect(try F.allMessages(copy) == F.allMessages(original))
        #expect(try F.allMessages(copy).map(\.source) == [try MessageSource("weather"), .import, .mastodon, .feed], "newest first")
        #expect(try F.export(copy) == first)
    }

    @Test func anUnknownVisibilityIsRefusedWithItsField() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        #expect(throws: ImportError.self) {
            try store.importText(F.alice + "\n" + F.message("m1", extra: #","visibility":"friends""#), in: directory)
        }
        #expect(try store.message(id: "m1") == nil)
    }

    @Test func timesBeforeNineteenSeventyAndMillisecondsAreWrittenExactly() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        try store.importText(F.alice + "\n" + F.message("m1", createdAt: "1969-12-31T23:59:59.001Z", extra: #","edited_at":"2026-11-20T10:00:00.010+01:00""#), in: directory)
        let message = try #require(try store.message(id: "m1"))
        let line = JSONLinesExporter.line(for: message)
        #expect(line.contains(#""created_at":"1969-12-31T23:59:59.001Z""#))
        #expect(line.contains(#""edited_at":"2026-11-20T09:00:00.010Z""#))
    }

    @Test func controlCharactersAreEscapedAndOtherTextStaysUTF8() throws {
        let text = "esc \u{1b}[31m bel \u{7} nul \u{0} del \u{7f} csi \u{9b}31m ls \u{2028} ps \u{2029} tab\t nl\n cr\r quote\" backslash\\ slash/ é 漢字 😀 \u{202e}rlo \u{a0}nbsp"
        let message = Message(id: "m1", authorID: "u1", text: text, createdAt: Date(timeIntervalSince1970: 0))
        let line = JSONLinesExporter.line(for: message)

        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F ... 0x9F).contains($0.value) || $0.value == 0x2028 || $0.value == 0x2029 })
        #expect(line.contains(#"esc \u001b[31m bel \u0007 nul \u0000 del \u007f csi \u009b31m ls \u2028 ps \u2029 tab\t nl\n cr\r quote\" backslash\\ slash/ é 漢字 😀 "#))
        #expect(line.contains("\u{202e}rlo \u{a0}nbsp"))

        // What the exporter writes, the importer reads back unchanged.
        let directory = TemporaryDirectory()
        let store = try directory.store()
        try store.importText(F.alice + "\n" + line, in: directory)
        #expect(try store.message(id: "m1")?.text == text)
    }

    /// The encoder passes eight plain ASCII bytes at a time: a character to escape is escaped
    /// wherever it falls against those words (first, last, across a boundary, in the short tail).
    @Test func aCharacterToEscapeIsEscapedAtEveryOffsetOfTheText() throws {
        let special = ["\u{0}", "\u{1b}", "\t", "\n", "\u{1f}", "\"", "\\", "\u{7f}", "\u{80}", "\u{9b}", "\u{2028}", "\u{2029}"]
        for character in special {
            for offset in 0 ... 17 {
                let text = String(repeating: "a", count: offset) + character + String(repeating: "b", count: 17 - offset)
                let message = Message(id: "m1", authorID: "u1", text: text, createdAt: Date(timeIntervalSince1970: 0))
                let line = JSONLinesExporter.line(for: message)
                #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F ... 0x9F).contains($0.value) || $0.value == 0x2028 || $0.value == 0x2029 },
                        "\(character.debugDescription) at \(offset): \(line)")
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                #expect(object["text"] as? String == text, "\(character.debugDescription) at \(offset): \(line)")
            }
        }
    }

    @Test func showJSONLineCarriesTheAuthorAndStillImports() throws {
        let alice = User(id: "u1", handle: "alice", name: "Alice \u{1b}[1m", isBot: true)
        let message = Message(id: "m1", authorID: "u1", text: "hello", createdAt: Date(timeIntervalSince1970: 1_795_168_800))
        let line = JSONLinesExporter.line(for: message, author: alice)

        #expect(line.hasSuffix(#","read":false,"user":{"type":"user","id":"u1","handle":"alice","name":"Alice \u001b[1m","bot":true},"source":"import"}"#))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let user = try #require(object["user"] as? [String: Any])
        #expect(user["name"] as? String == "Alice \u{1b}[1m")
        #expect(JSONLinesExporter.line(for: message, author: nil).hasSuffix(#","user":null,"source":"import"}"#))

        let directory = TemporaryDirectory()
        let store = try directory.store()
        try store.importText(JSONLinesExporter.line(for: alice) + "\n" + line, in: directory)
        #expect(try store.message(id: "m1") == message)
    }

    @Test func exportToAFileDescriptorWritesTheSameBytesAsTheSink() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        try JSONLinesImporter(store: store).importFile(atPath: F.samplePath)
        let exporter = JSONLinesExporter(store: store, pageSize: 7)

        let path = directory.file("out.jsonl")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        let summary = try exporter.export(toFileDescriptor: handle.fileDescriptor, name: path)
        try handle.close()

        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(Array(written) == (try F.export(store)))
        #expect(summary == ExportSummary(users: 37, messages: 337, bytes: written.count))
    }

    @Test func aFailingSinkStopsTheExportWithItsError() throws {
        struct Full: Error, Equatable {}
        let directory = TemporaryDirectory()
        let store = try directory.store()
        try store.importText(F.alice + "\n" + F.message("m1"), in: directory)
        let exporter = JSONLinesExporter(store: store, allUsers: { () throws(TimelineStoreError) in [] })
        #expect(throws: ExportError<Full>.sink(Full())) {
            try exporter.export { (_: UnsafeRawBufferPointer) throws(Full) in throw Full() }
        }
    }

    @Test func aFailingUserListStopsTheExportWithAStoreError() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        let exporter = JSONLinesExporter(store: store, allUsers: { () throws(TimelineStoreError) in
            throw .busy(path: "x", waitedMilliseconds: 1)
        })
        #expect(throws: ExportError<Never>.store(.busy(path: "x", waitedMilliseconds: 1))) {
            try exporter.export { (_: UnsafeRawBufferPointer) in }
        }
    }

    /// Issue 34: `show --json` says why a terminal folds a message (`"warning"`), the text kept
    /// whole and `content_warning` as it was; an export, which a reimport reads, has no such key.
    @Test func showsJSONSaysWhyTheTextIsFoldedAndTheExportDoesNot() {
        var message = Message(id: "m1", authorID: "u1", text: "the butler did it", createdAt: Date(timeIntervalSince1970: 0), contentWarning: "spoilers")
        let shown = JSONLinesExporter.line(for: message, author: nil)
        #expect(shown.contains(#""text":"the butler did it""#) && shown.contains(#""content_warning":"spoilers""#))
        #expect(shown.contains(#""warning":"spoilers""#), "\(shown)")
        #expect(!JSONLinesExporter.line(for: message).contains(#""warning""#))
        message.contentWarning = ""
        #expect(!JSONLinesExporter.line(for: message, author: nil).contains(#""warning""#))
    }
}
