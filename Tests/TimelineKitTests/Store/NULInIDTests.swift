import Foundation
import Testing
import TimelineKit

/// IDs holding U+0000 are refused everywhere they can enter (issue 12, item 9). SQLite's JSON
/// functions, through which every list of IDs reaches a query, end a string at a NUL: a user
/// `u\0x` could be stored, but a message naming it was refused as having an unknown author
/// (`u`), and marking `a\0b` read marked `a`.
@Suite struct NULInIDTests {
    typealias F = ImportFixtures

    @Test(arguments: [
        (#"{"type":"user","id":"u\u0000x","handle":"a","name":"A"}"#, "id"),
        (F.message(#"m\u0000y"#), "id"),
        (F.message("m1", author: #"u1\u0000"#), "author"),
        (F.message("m1", extra: #","reply_to":"\u0000""#), "reply_to"),
        (F.message("m1", extra: #","reply_to_user":"u\u00001""#), "reply_to_user"),
        (F.message("m1", extra: #","repost_of":"a\u0000""#), "repost_of"),
        (F.message("m1", extra: #","quote_of":"a\u0000b""#), "quote_of"),
    ])
    func anImportedIDHoldingNULIsRefusedWithItsField(line: String, field: String) throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        let path = try directory.write([F.alice, line].joined(separator: "\n"))
        #expect {
            try JSONLinesImporter(store: store).importFile(atPath: path)
        } throws: { error in
            guard let error = error as? ImportError else { return false }
            return error.problem == .nulInID && error.line == 2 && error.field == field
                && error.description.contains("`\(field)` holds the character U+0000 (\\u0000), which no ID may hold")
        }
        #expect(try store.state().messageCount == 0)
    }

    @Test func aNULInTextNamesAndHandlesIsKept() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        try store.importText([#"{"type":"user","id":"u1","handle":"a\u0000b","name":"A\u0000"}"#,
                              F.message("m1", text: #"x\u0000y"#)].joined(separator: "\n"), in: directory)
        #expect(try store.message(id: "m1")?.text == "x\u{0}y")
        #expect(try store.users(handle: "a\u{0}b").first?.name == "A\u{0}")
    }

    @Test func theDecodersRefuseANULInAnID() throws {
        let status = #"[{"id":"1","created_at":"2026-11-20T10:00:00Z","content":"","account":{"id":"a\u0000","acct":"a"}}]"#
        #expect {
            try MastodonDecoder().decode(Array(status.utf8))
        } throws: { error in
            (error as? ImportError)?.problem == .nulInID && (error as? ImportError)?.field == "[0].account.id"
        }
        let tweet = #"[{"id_str":"1\u0000","created_at":"Wed Oct 10 20:19:24 +0000 2018","text":"x","user":{"id_str":"5","screen_name":"f"}}]"#
        #expect {
            try TwitterDecoder().decode(Array(tweet.utf8))
        } throws: { error in
            (error as? ImportError)?.problem == .nulInID && (error as? ImportError)?.field == "[0].id_str"
        }
    }

    @Test func theLibraryRefusesToStoreAnIDHoldingNUL() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        let before = try store.state()
        #expect {
            try store.upsert(users: [User(id: "u\u{0}x", handle: "x", name: "X")])
        } throws: { error in
            guard case let .invalidValue(field, reason) = error as? TimelineStoreError else { return false }
            return field == "user id" && reason.contains("U+0000")
        }
        for message in [Message(id: "m\u{0}", authorID: "u1", text: "", createdAt: Samples.epoch),
                        Message(id: "m9", authorID: "u1\u{0}", text: "", createdAt: Samples.epoch),
                        Message(id: "m9", authorID: "u1", text: "", createdAt: Samples.epoch, quoteOfID: "\u{0}")] {
            #expect(throws: TimelineStoreError.self) { try store.upsert(messages: [message]) }
        }
        #expect(try store.state() == before)
    }

    @Test func anIDHoldingNULFindsNothingRatherThanTheIDCutAtTheNUL() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: [Samples.message(1)])
        #expect(try store.markRead(ids: ["m1\u{0}tail"]) == 0)
        #expect(try store.message(id: "m1")?.isRead == false)
        #expect(try store.messages(ids: ["m1\u{0}"]).isEmpty)
        #expect(try store.deleteMessages(ids: ["m1\u{0}x"]) == 0)
        #expect(try store.message(id: "m1") != nil)
    }

    /// The `sqlite3` shell can still write one (`char(0)`): reading keeps every byte, since text
    /// columns are read with their length.
    @Test func anIDWithNULWrittenByTheShellReadsBackWhole() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try SQLiteShell.run(store.path, "INSERT INTO messages (id, author_id, text, created_at) VALUES ('m' || char(0) || 'x', 'u1', 'from the shell', 1)")
        let page = try store.timeline(limit: 10)
        #expect(page.messages.map(\.id) == ["m\u{0}x"])
        #expect(page.users.map(\.id) == ["u1"])
    }
}
