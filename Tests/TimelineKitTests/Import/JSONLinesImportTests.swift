import Foundation
import Testing
import TimelineKit

@Suite("JSONLines import")
struct JSONLinesImportTests {
    typealias F = ImportFixtures

    @Test func sampleFixtureImportsWithTheCountsItsReadmeStates() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        let summary = try JSONLinesImporter(store: store).importFile(atPath: F.samplePath)

        #expect(summary.lines == 374)
        #expect(summary.bytes == 112_735)
        #expect(summary.users == 37)
        #expect(summary.messages == 337)
        #expect(summary.newUsers == 37)
        #expect(summary.newMessages == 337)
        #expect(summary.changedRows == 0)
        let state = try store.state()
        #expect(state.userCount == 37)
        #expect(state.messageCount == 337)
        // 99 "read": false and 117 without the field (new, so unread).
        #expect(state.unreadCount == 216)
    }

    @Test func reimportingTheSameFileChangesNothing() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        let importer = JSONLinesImporter(store: store)
        try importer.importFile(atPath: F.samplePath)
        let before = try store.state()

        let again = try importer.importFile(atPath: F.samplePath)

        #expect(try store.state() == before)
        #expect(again.changedNothing)
        #expect(again.messages == 337)
    }

    @Test func sampleFixtureKeepsItsHostileAndUnicodeStringsExactly() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        try JSONLinesImporter(store: store).importFile(atPath: F.samplePath)

        let glitch = try #require(try store.users(ids: ["109318441976520037"]).first)
        #expect(glitch.name.contains("\u{1b}]0;pwned\u{07}"))
        let spoof = try #require(try store.message(id: "117655184622283765"))
        #expect(spoof.text.contains("invoice_\u{202e}gpj.exe\u{202c}"))
        let firstLine = try #require(try store.message(id: "117626012958762273"))
        #expect(firstLine.createdAt == Date(timeIntervalSince1970: 1_794_830_520))  // 2026-11-16T12:02:00Z
    }

    @Test func duplicateIDsInOneFileStoreOneRowAndTheLastLineWins() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        let summary = try store.importText([
            F.alice,
            F.message("m1", text: "first"),
            #"{"type":"user","id":"u1","handle":"alice","name":"Alice Renamed"}"#,
            F.message("m1", text: "second"),
        ].joined(separator: "\n"), in: directory)

        #expect(summary.messages == 2)
        #expect(summary.newMessages == 1)
        #expect(try store.state().messageCount == 1)
        #expect(try store.message(id: "m1")?.text == "second")
        #expect(try store.users(ids: ["u1"]).first?.name == "Alice Renamed")
    }

    @Test func aUserMayComeAfterTheMessagesThatNameIt() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        try store.importText([F.message("m1"), F.message("m2"), F.alice].joined(separator: "\n"), in: directory)
        #expect(try store.state().messageCount == 2)
    }

    @Test func crlfLineEndingsAndAMissingFinalNewlineAreAccepted() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        try store.importText(F.alice + "\r\n" + F.message("m1") + "\r\n" + F.message("m2"), in: directory)
        #expect(try store.state().messageCount == 2)
        #expect(try store.message(id: "m1")?.text == "hello")
    }

    @Test func aByteOrderMarkAtTheStartIsSkipped() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        let path = try directory.write([0xEF, 0xBB, 0xBF] + Array((F.alice + "\n" + F.message("m1") + "\n").utf8))
        let summary = try JSONLinesImporter(store: store).importFile(atPath: path)
        #expect(summary.users == 1)
        #expect(summary.messages == 1)
    }

    @Test func blankLinesAreSkippedButCounted() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        let summary = try store.importText("\n  \t \r\n" + F.alice + "\n\n" + F.message("m1") + "\n   ", in: directory)
        #expect(summary.lines == 6)
        #expect(summary.messages == 1)
    }

    @Test func nullOptionalsMeanTheSameAsAbsentOnes() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        try store.importText([
            #"{"type":"user","id":"u1","handle":"alice","name":"Alice","url":null,"bot":null}"#,
            F.message("m1", extra: #","edited_at":null,"reply_to":null,"reply_to_user":null,"repost_of":null,"quote_of":null,"likes":null,"reposts":null,"replies":null,"read":null,"content_warning":null,"url":null,"attachments":null"#),
        ].joined(separator: "\n"), in: directory)

        let message = try #require(try store.message(id: "m1"))
        #expect(message == Message(id: "m1", authorID: "u1", text: "hello", createdAt: message.createdAt))
        #expect(try store.users(ids: ["u1"]).first == User(id: "u1", handle: "alice", name: "Alice"))
    }

    @Test func unknownFieldsAreIgnoredWhateverTheyHold() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        try store.importText([
            #"{"type":"user","future":{"a":[1,2,{"b":null}],"c":"\u00e9"},"id":"u1","handle":"alice","name":"Alice","text":5}"#,
            F.message("m1", extra: #","language":"en","poll":{"options":["a","b"]},"score":-1.5e3,"bot":"not a user field here""#),
        ].joined(separator: "\n"), in: directory)
        #expect(try store.state().messageCount == 1)
    }

    @Test func allFieldsAreStored() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        try store.importText([
            #"{"type":"user","id":"u1","handle":"alice@example.social","name":"Alice","url":"https://example.social/@alice","bot":true}"#,
            F.message("m1", createdAt: "2026-11-20T10:00:00.123456Z", extra: #","edited_at":"2026-11-20T19:05:00.5+09:00","reply_to":"m0","reply_to_user":"u9","repost_of":"m7","quote_of":"m8","likes":5,"reposts":6,"replies":7,"read":true,"content_warning":"cw","url":"https://example.social/@alice/1","attachments":[{"kind":"image","url":"https://x.example/1.png","alt_text":"a cat"},{"kind":"video","alt_text":null}]"#),
        ].joined(separator: "\n"), in: directory)

        #expect(try store.users(ids: ["u1"]).first == User(
            id: "u1", handle: "alice@example.social", name: "Alice", url: "https://example.social/@alice", isBot: true))
        let expected = Message(
            id: "m1", authorID: "u1", text: "hello",
            createdAt: Date(timeIntervalSince1970: 1_795_168_800.123),
            editedAt: Date(timeIntervalSince1970: 1_795_168_800 + 300.5),
            replyToID: "m0", replyToUserID: "u9", repostOfID: "m7", quoteOfID: "m8",
            contentWarning: "cw", url: "https://example.social/@alice/1",
            attachments: [Attachment(kind: "image", url: "https://x.example/1.png", altText: "a cat"), Attachment(kind: "video")],
            likeCount: 5, repostCount: 6, replyCount: 7, isRead: true)
        #expect(try store.message(id: "m1") == expected)
    }

    @Test func readAbsentKeepsTheStoredFlagAndReadPresentOverwritesIt() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        try store.importText([F.alice, F.message("m1", extra: #","read":true"#), F.message("m2")].joined(separator: "\n"), in: directory)
        #expect(try store.message(id: "m1")?.isRead == true)
        #expect(try store.message(id: "m2")?.isRead == false)

        try store.importText([F.alice, F.message("m1"), F.message("m2", extra: #","read":true"#)].joined(separator: "\n"), in: directory)
        #expect(try store.message(id: "m1")?.isRead == true)
        #expect(try store.message(id: "m2")?.isRead == true)

        try store.importText(F.message("m1", extra: #","read":false"#), in: directory)
        #expect(try store.message(id: "m1")?.isRead == false)
    }

    @Test func idsAndTextThatLookLikeSQLAreStoredAsPlainText() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        let id = #"1'); DROP TABLE messages; --"#
        let author = #"x' OR '1'='1"#
        try store.importText([
            #"{"type":"user","id":"\#(author)","handle":"robert","name":"Robert'); DROP TABLE users;--"}"#,
            F.message(id, author: author, text: #"SELECT * FROM users WHERE name = '' OR 1=1; --"#),
        ].joined(separator: "\n"), in: directory)

        let message = try #require(try store.message(id: id))
        #expect(message.authorID == author)
        #expect(message.text == "SELECT * FROM users WHERE name = '' OR 1=1; --")
        #expect(try store.state().userCount == 1)
    }

    @Test func escapesDecodeExactlyIncludingNUL() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        try store.importText(F.alice + "\n" + F.message("m1", text: #"a\u0000b \"q\" \\ \/ \b\f\n\r\t \u001b[31m \u00e9\u4e2d é"#), in: directory)
        #expect(try store.message(id: "m1")?.text == "a\u{0}b \"q\" \\ / \u{8}\u{c}\n\r\t \u{1b}[31m é中 é")
    }

    @Test func surrogatePairEscapesDecodeToOneCharacter() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        try store.importText(F.alice + "\n" + F.message("m1", text: #"smile \ud83d\ude00 \uD83D\uDE00!"#), in: directory)
        #expect(try store.message(id: "m1")?.text == "smile 😀 😀!")
    }

    @Test func escapedKeysAreMatchedAfterDecoding() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        try store.importText(#"{"\u0074ype":"user","i\u0064":"u1","handle":"alice","name":"Alice"}"#, in: directory)
        #expect(try store.state().userCount == 1)
    }

    @Test func integerIDsAreKeptAsTheirExactDigits() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        try store.importText([
            #"{"type":"user","id":109301442871003451123456789,"handle":"old","name":"Old Mastodon"}"#,
            #"{"type":"message","id":98765432109876543210,"author":109301442871003451123456789,"text":"hi","created_at":"2026-11-20T10:00:00Z","reply_to":0}"#,
        ].joined(separator: "\n"), in: directory)
        let message = try #require(try store.message(id: "98765432109876543210"))
        #expect(message.authorID == "109301442871003451123456789")
        #expect(message.replyToID == "0")
    }

    @Test(arguments: [
        ("2026-11-20T10:00:00Z", 1_795_168_800_000),
        ("2026-11-20t10:00:00z", 1_795_168_800_000),
        ("2026-11-20T10:00:00.5Z", 1_795_168_800_500),
        ("2026-11-20T10:00:00.123456789Z", 1_795_168_800_123),  // truncated, not rounded
        ("2026-11-20T10:00:00.9999Z", 1_795_168_800_999),
        ("2026-11-20T19:00:00+09:00", 1_795_168_800_000),
        ("2026-11-20T05:00:00.25-05:00", 1_795_168_800_250),
        ("2026-11-20T15:30:00+05:30", 1_795_168_800_000),
        ("2026-11-20T10:00:00-00:00", 1_795_168_800_000),
        ("2028-02-29T00:00:00Z", 1_835_395_200_000),        // leap year
        ("2016-12-31T23:59:60Z", 1_483_228_799_999),        // leap second: 23:59:59.999
        ("2017-01-01T08:59:60.5+09:00", 1_483_228_799_999), // the same leap second in Tokyo
        ("1969-12-31T23:59:59.5Z", -500),
        ("0001-01-01T00:00:00Z", -62_135_596_800_000),      // the first instant kept
        ("9999-12-31T23:59:59.999Z", 253_402_300_799_999),  // the last
    ] as [(String, Int64)])
    func rfc3339TimesAreStoredInWholeMilliseconds(time: String, milliseconds: Int64) throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        try store.importText(F.alice + "\n" + F.message("m1", createdAt: time), in: directory)
        let message = try #require(try store.message(id: "m1"))
        #expect(message.cursor.createdAtMilliseconds == milliseconds)
    }

    @Test func importReadsAPipeLikeStandardInput() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        let pipe = Pipe()
        let content = Data((F.alice + "\n" + F.message("m1") + "\n").utf8)
        pipe.fileHandleForWriting.write(content)
        try pipe.fileHandleForWriting.close()

        let summary = try JSONLinesImporter(store: store).importFile(
            fileDescriptor: pipe.fileHandleForReading.fileDescriptor, sourceName: "<stdin>")

        #expect(summary.messages == 1)
        #expect(summary.bytes == content.count)
        #expect(try JSONLinesReader(path: "-").sourceName == "<stdin>")
    }

    @Test func aPipeWriterFasterThanTheReaderIsReadCompletely() throws {
        // More than a pipe buffer (64 KiB) and more than one read chunk, written concurrently.
        let directory = TemporaryDirectory()
        let store = try directory.store()
        var text = F.alice + "\n"
        for n in 0 ..< 5000 { text += F.message("m\(n)", text: String(repeating: "x", count: 100)) + "\n" }
        let pipe = Pipe()
        let bytes = Data(text.utf8)
        let writer = pipe.fileHandleForWriting
        let thread = Thread {
            writer.write(bytes)
            try? writer.close()
        }
        thread.start()
        let summary = try JSONLinesImporter(store: store).importFile(
            fileDescriptor: pipe.fileHandleForReading.fileDescriptor, sourceName: "<stdin>")
        #expect(summary.messages == 5000)
        #expect(summary.bytes == bytes.count)
    }

    @Test func progressIsReportedAndEndsAtTheWholeFile() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        var reports: [ImportProgress] = []
        let summary = try JSONLinesImporter(store: store).importFile(atPath: F.samplePath) { reports.append($0) }
        #expect(reports.last == ImportProgress(lines: 374, bytes: 112_735, totalBytes: 112_735))
        #expect(reports.last?.fractionDone == 1)
        #expect(summary.lines == 374)
    }

    @Test func summaryTellsNewFromChangedRows() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        try store.importText([F.alice, F.message("m1"), F.message("m2")].joined(separator: "\n"), in: directory)
        let summary = try store.importText([F.alice, F.message("m1", text: "edited"), F.message("m2"), F.message("m3")].joined(separator: "\n"), in: directory)
        #expect(summary.newUsers == 0)
        #expect(summary.newMessages == 1)
        #expect(summary.changedRows == 1)
    }

    @Test func theReaderValidatesWithoutAStore() throws {
        let directory = TemporaryDirectory()
        let path = try directory.write(F.alice + "\n\n" + F.message("m1", extra: #","read":false"#) + "\n")
        let reader = try JSONLinesReader(path: path)
        #expect(try reader.nextRecord() == .user(User(id: "u1", handle: "alice", name: "Alice Example")))
        guard case let .message(message, readState) = try reader.nextRecord() else {
            Issue.record("expected a message")
            return
        }
        #expect(reader.lineNumber == 3)
        #expect(message.id == "m1")
        #expect(readState == .overwrite)
        #expect(try reader.nextRecord() == nil)
    }
}
