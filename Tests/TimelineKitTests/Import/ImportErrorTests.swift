import Foundation
import Testing
import TimelineKit

/// Each malformed input names its line and field, says what is wrong, and leaves the database
/// exactly as it was.
@Suite("JSONLines import errors")
struct ImportErrorTests {
    typealias F = ImportFixtures

    /// Imports `bytes` into a store that already holds a user and a message, expects an
    /// `ImportError` at `line` and `field`, and checks that the store did not change.
    @discardableResult
    func expectFailure(
        _ bytes: [UInt8], line: Int?, field: String?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ImportError {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        try store.importText(#"{"type":"user","id":"u0","handle":"zed","name":"Zed"}"# + "\n" + F.message("m0", author: "u0"), in: directory)
        let before = try store.state()
        let path = try directory.write(bytes, to: "bad.jsonl")

        var caught: ImportError?
        do {
            let summary = try JSONLinesImporter(store: store, batchSize: 2).importFile(atPath: path)
            Issue.record("expected an ImportError, but the import succeeded: \(summary)", sourceLocation: sourceLocation)
        } catch {
            caught = error
        }
        let error = try #require(caught, sourceLocation: sourceLocation)
        #expect(error.source == path, sourceLocation: sourceLocation)
        #expect(error.line == line, "\(error)", sourceLocation: sourceLocation)
        #expect(error.field == field, "\(error)", sourceLocation: sourceLocation)
        #expect(try store.state() == before, "the failed import changed the database", sourceLocation: sourceLocation)
        #expect(error.description.contains("Nothing was imported"), sourceLocation: sourceLocation)
        return error
    }

    @discardableResult
    func expectFailure(
        lines: [String], line: Int?, field: String?, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ImportError {
        try expectFailure(Array(lines.joined(separator: "\n").utf8), line: line, field: field, sourceLocation: sourceLocation)
    }

    /// Three valid lines (written in two batches of two) before the line under test.
    let validStart = [F.alice, F.message("m1"), F.message("m2")]

    @Test func malformedJSONNamesTheLineAndColumn() throws {
        let error = try expectFailure(
            lines: validStart + [#"{"type":"user","id":"u2" "handle":"bob","name":"Bob"}"#], line: 4, field: nil)
        guard case let .malformedJSON(detail) = error.problem else { Issue.record("\(error)"); return }
        #expect(detail.contains("expected ',' or '}'"))
        #expect(error.column == 26)
        #expect(error.description.hasPrefix(error.source + ":4:26: malformed JSON"))
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let error = try expectFailure(lines: [#"{"type":"user","name":"éé漢字😀",,}"#], line: 1, field: nil)
        #expect(error.column == 31)
    }

    @Test func aLineThatIsNotAnObjectIsRefused() throws {
        let error = try expectFailure(lines: validStart + [#"["type","user"]"#], line: 4, field: nil)
        #expect(error.column == 1)
        guard case .malformedJSON = error.problem else { Issue.record("\(error)"); return }
    }

    @Test func dataAfterTheObjectIsRefused() throws {
        let error = try expectFailure(lines: [F.alice + " {}"], line: 1, field: nil)
        guard case .malformedJSON = error.problem else { Issue.record("\(error)"); return }
    }

    @Test func trailingCommasAndUnterminatedStringsAreMalformed() throws {
        try expectFailure(lines: [#"{"type":"user","id":"u2","handle":"b","name":"B",}"#], line: 1, field: nil)
        try expectFailure(lines: [#"{"type":"user","id":"u2","handle":"b","name":"B"#], line: 1, field: "name")
        try expectFailure(lines: [#"{"type":"user","id":"u2","handle":"b","name":"\x"}"#], line: 1, field: "name")
        try expectFailure(lines: [#"{"type":"user","id":"u2","handle":"b","name":"B","n":01}"#], line: 1, field: "n")
    }

    /// A line may name where its message came from (`show --json` writes `source`); a name
    /// that cannot be one is refused, naming the line and the field, and nothing is imported.
    @Test func aSourceThatCannotBeANameIsRefusedNamingTheField() throws {
        let error = try expectFailure(lines: validStart + [F.message("m3", extra: #","source":"RSS Feed""#)], line: 4, field: "source")
        #expect(error.description.contains("`source` must be a source's name"))
    }

    /// `links` (issue 37) is an array of strings: anything else is refused, naming the field
    /// or the element, and nothing is imported.
    @Test func linksThatAreNotAnArrayOfStringsAreRefusedNamingTheField() throws {
        try expectFailure(lines: validStart + [F.message("m3", extra: #","links":"https://a.example/""#)], line: 4, field: "links")
        try expectFailure(lines: validStart + [F.message("m3", extra: #","links":["https://a.example/",3]"#)], line: 4, field: "links[1]")
    }

    @Test func aWrongTypeNamesTheFieldAndWhatWasFound() throws {
        let error = try expectFailure(lines: validStart + [F.message("m3", extra: #","likes":"12""#)], line: 4, field: "likes")
        #expect(error.problem == .wrongType(expected: "a non-negative integer", found: #"a string, "12""#))
        #expect(error.description.contains(#"`likes` must be a non-negative integer, found a string, "12"."#))
    }

    @Test func aBooleanFieldRefusesAString() throws {
        try expectFailure(lines: validStart + [F.message("m3", extra: #","read":"yes""#)], line: 4, field: "read")
    }

    @Test func aNegativeCountIsRefused() throws {
        let error = try expectFailure(lines: validStart + [F.message("m3", extra: #","reposts":-3"#)], line: 4, field: "reposts")
        #expect(error.problem == .wrongType(expected: "a non-negative integer", found: "the number -3"))
    }

    @Test func aFractionalOrHugeCountIsRefused() throws {
        try expectFailure(lines: [F.message("m3", extra: #","replies":1.5"#)], line: 1, field: "replies")
        let error = try expectFailure(lines: [F.message("m3", extra: #","replies":99999999999999999999"#)], line: 1, field: "replies")
        #expect(error.problem == .numberTooLarge("99999999999999999999"))
    }

    @Test func aMissingFieldIsNamed() throws {
        let error = try expectFailure(
            lines: validStart + [#"{"type":"message","id":"m3","author":"u1","text":"hi"}"#], line: 4, field: "created_at")
        #expect(error.problem == .missingField)
        #expect(error.column == nil)
        try expectFailure(lines: [#"{"id":"u2","handle":"b","name":"B"}"#], line: 1, field: "type")
        try expectFailure(lines: [#"{"type":"user","id":"u2","name":"B"}"#], line: 1, field: "handle")
    }

    @Test func aRequiredFieldMayNotBeNull() throws {
        let error = try expectFailure(lines: [#"{"type":"user","id":"u2","handle":null,"name":"B"}"#], line: 1, field: "handle")
        #expect(error.problem == .wrongType(expected: "a string", found: "null"))
    }

    @Test func aDuplicateKnownFieldIsRefused() throws {
        let error = try expectFailure(lines: [#"{"type":"user","id":"u2","handle":"b","name":"B","id":"u3"}"#], line: 1, field: "id")
        #expect(error.problem == .duplicateField)
    }

    @Test func invalidUTF8IsRefusedWithItsField() throws {
        var bytes = Array((validStart.joined(separator: "\n") + "\n").utf8)
        bytes += Array(#"{"type":"message","id":"m3","author":"u1","text":"caf"#.utf8) + [0xC3, 0x28]
            + Array(#"","created_at":"2026-11-20T10:00:00Z"}"#.utf8)
        let error = try expectFailure(bytes, line: 4, field: "text")
        #expect(error.problem == .invalidUTF8)
        #expect(error.column == 54)
    }

    @Test func overlongAndSurrogateUTF8AreRefused() throws {
        for bad: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80], [0xFF]] {
            let bytes = Array(#"{"type":"user","id":"u2","handle":"b","name":""#.utf8) + bad + Array(#""}"#.utf8)
            let error = try expectFailure(bytes, line: 1, field: "name")
            #expect(error.problem == .invalidUTF8)
        }
    }

    @Test func rawControlCharactersInStringsAreRefused() throws {
        let error = try expectFailure(lines: [F.message("m3", text: "a\u{1b}[2Jb")], line: 1, field: "text")
        guard case let .malformedJSON(detail) = error.problem else { Issue.record("\(error)"); return }
        #expect(detail.contains("0x1B"))
    }

    @Test func aLineLongerThanOneMebibyteIsRefusedQuicklyWithoutReadingItAll() throws {
        // 10 MB in one line: refused after the first megabyte or two.
        var bytes = Array((validStart.joined(separator: "\n") + "\n").utf8)
        bytes += Array(#"{"type":"message","id":"m3","author":"u1","text":""#.utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "a"), count: 10_000_000)
        bytes += Array(#"","created_at":"2026-11-20T10:00:00Z"}"#.utf8) + [0x0A] + Array(F.message("m4").utf8)
        let clock = ContinuousClock()
        let start = clock.now
        let error = try expectFailure(bytes, line: 4, field: nil)
        #expect(clock.now - start < .seconds(2))
        #expect(error.problem == .lineTooLong(limit: 1_048_576))
        #expect(error.description.contains("1,048,576 bytes"))
    }

    @Test func aLineOfExactlyOneMebibyteIsAccepted() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        let prefix = #"{"type":"user","id":"u1","handle":"alice","name":"Alice","padding":""#
        let line = prefix + String(repeating: "p", count: 1_048_576 - prefix.utf8.count - 2) + #""}"#
        #expect(line.utf8.count == 1_048_576)
        try store.importText(line + "\r\n" + line, in: directory)
        #expect(try store.state().userCount == 1)
        _ = try expectFailure(lines: [line + " "], line: 1, field: nil)
    }

    @Test func aTextLongerThanTheLimitIsRefused() throws {
        let text = String(repeating: "é", count: 50_001)  // 100,002 bytes
        let error = try expectFailure(lines: validStart + [F.message("m3", text: text)], line: 4, field: "text")
        #expect(error.problem == .textTooLong(bytes: 100_002, limit: 100_000))
    }

    @Test func aTextOfExactlyTheLimitIsAccepted() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        // Escapes count as what they decode to: 99,999 bytes of "a" plus one "\n".
        try store.importText(F.alice + "\n" + F.message("m1", text: String(repeating: "a", count: 99_999) + #"\n"#), in: directory)
        #expect(try store.message(id: "m1")?.text.utf8.count == 100_000)
    }

    @Test func anUnknownRecordTypeIsNamed() throws {
        let error = try expectFailure(lines: validStart + [#"{"type":"boost","id":"b1"}"#], line: 4, field: "type")
        #expect(error.problem == .unknownRecordType("boost"))
        try expectFailure(lines: [#"{"type":7,"id":"b1"}"#], line: 1, field: "type")
    }

    @Test(arguments: [
        ("2026-02-30T10:00:00Z", "is not a valid date: February 2026 has 28 days"),
        ("2025-02-29T10:00:00Z", "is not a valid date: February 2025 has 28 days"),
        ("2026-13-01T10:00:00Z", "is not a valid date: month 13 is not between 01 and 12"),
        ("2026-04-31T10:00:00Z", "is not a valid date: April 2026 has 30 days"),
        ("2026-11-00T10:00:00Z", "is not a valid date: there is no day 00"),
        ("2026-11-20T10:00:00", "has no time zone; add Z for UTC or an offset such as +01:00"),
        ("2026-11-20 10:00:00Z", "has a space between date and time; RFC 3339 needs a T there"),
        ("2026-11-20T24:00:00Z", "is not a valid time: hour 24 is not between 00 and 23"),
        ("2026-11-20T10:60:00Z", "is not a valid time: minute 60 is not between 00 and 59"),
        ("2026-11-20T10:00:61Z", "is not a valid time: second 61 is not between 00 and 60"),
        ("2026-11-20T10:00:60Z", "is not a valid time: second 60 (a leap second) can only be 23:59:60 UTC"),
        ("2026-11-20T10:00:00.Z", "has a decimal point without digits after it"),
        ("2026-11-20T10:00:00+0900", "has a malformed offset; write it as +hh:mm or -hh:mm, e.g. +09:00"),
        ("2026-11-20T10:00:00+24:00", "has an offset beyond ±23:59"),
        ("2026-11-20", "is a date without a time; write a time and a zone, e.g. 2026-11-20T00:00:00Z"),
        ("1795168800", "is not an RFC 3339 time like 2026-11-20T10:00:00Z or 2026-11-20T19:00:00.5+09:00"),
        ("2026-11-20T10:00:00Zjunk", "is not an RFC 3339 time like 2026-11-20T10:00:00Z or 2026-11-20T19:00:00.5+09:00"),
    ])
    func invalidTimesSayWhatIsWrong(time: String, reason: String) throws {
        let error = try expectFailure(lines: validStart + [F.message("m3", createdAt: time)], line: 4, field: "created_at")
        #expect(error.problem == .invalidTime(value: time, reason: reason))
    }

    @Test func badEditedAtIsNamedToo() throws {
        let error = try expectFailure(
            lines: [F.message("m3", extra: #","edited_at":"2026-02-30T10:00:00Z""#)], line: 1, field: "edited_at")
        #expect(error.description.contains(#"`edited_at`: "2026-02-30T10:00:00Z" is not a valid date: February 2026 has 28 days."#))
    }

    @Test func aTimeThatIsNotAStringIsAWrongType() throws {
        try expectFailure(lines: [#"{"type":"message","id":"m3","author":"u1","text":"","created_at":1795168800}"#], line: 1, field: "created_at")
    }

    @Test func anEmptyIDIsRefused() throws {
        let error = try expectFailure(lines: validStart + [F.message("")], line: 4, field: "id")
        #expect(error.problem == .emptyID)
        try expectFailure(lines: [F.message("m3", author: "")], line: 1, field: "author")
        try expectFailure(lines: [F.message("m3", extra: #","reply_to":"""#)], line: 1, field: "reply_to")
    }

    @Test func negativeOrFractionalIntegerIDsAreRefused() throws {
        try expectFailure(lines: [#"{"type":"user","id":-5,"handle":"b","name":"B"}"#], line: 1, field: "id")
        try expectFailure(lines: [#"{"type":"user","id":5.0,"handle":"b","name":"B"}"#], line: 1, field: "id")
    }

    @Test func aLoneSurrogateEscapeIsRefused() throws {
        let error = try expectFailure(lines: validStart + [F.message("m3", text: #"oops \ud83d alone"#)], line: 4, field: "text")
        #expect(error.problem == .loneSurrogate(#"\ud83d"#))
        try expectFailure(lines: [F.message("m3", text: #"\ude00"#)], line: 1, field: "text")
        try expectFailure(lines: [F.message("m3", text: #"\ud83d\u0041"#)], line: 1, field: "text")
    }

    @Test func attachmentErrorsNameTheElementAndField() throws {
        let error = try expectFailure(
            lines: [F.message("m3", extra: #","attachments":[{"kind":"image"},{"kind":5}]"#)], line: 1, field: "attachments[1].kind")
        #expect(error.problem == .wrongType(expected: #"a string such as "image""#, found: "the number 5"))
        try expectFailure(lines: [F.message("m3", extra: #","attachments":[{"url":"x"}]"#)], line: 1, field: "attachments[0].kind")
        try expectFailure(lines: [F.message("m3", extra: #","attachments":["image"]"#)], line: 1, field: "attachments[0]")
        try expectFailure(lines: [F.message("m3", extra: #","attachments":{"kind":"image"}"#)], line: 1, field: "attachments")
        try expectFailure(lines: [F.message("m3", extra: #","attachments":[{"kind":"a","alt_text":true}]"#)], line: 1, field: "attachments[0].alt_text")
    }

    @Test func deepNestingIsRefusedInsteadOfExhaustingTheStack() throws {
        let deep = String(repeating: "[", count: 100_000)
        let error = try expectFailure(lines: [F.message("m3", extra: #","x":"# + deep)], line: 1, field: "x")
        #expect(error.problem == .nestedTooDeep(limit: 128))
        #expect(error.description.contains("nested more than 128 levels deep"), "\(error)")
    }

    @Test func anUnknownAuthorIsReportedAtTheFirstLineThatNamesIt() throws {
        let error = try expectFailure(lines: validStart + [
            F.message("m3", author: "ghost"),
            F.message("m4", author: "u1"),
            F.message("m5", author: "phantom"),
            F.message("m6", author: "ghost"),
        ], line: 4, field: "author")
        #expect(error.problem == .unknownAuthor(messageID: "m3", authorID: "ghost"))
        #expect(error.description.contains(#"names author "ghost""#))
    }

    @Test func anAuthorAlreadyInTheDatabaseIsNotUnknown() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        try store.importText(F.alice, in: directory)
        try store.importText(F.message("m1"), in: directory)
        #expect(try store.state().messageCount == 1)
    }

    @Test func anErrorOnTheLastLineOfAHundredThousandLinesWritesNothing() throws {
        var text = F.alice + "\n"
        text.reserveCapacity(10_000_000)
        for n in 1 ..< 99_999 {
            text += #"{"type":"message","id":"m\#(n)","author":"u1","text":"x","created_at":"2026-11-20T10:00:00Z"}"# + "\n"
        }
        text += F.message("last", extra: #","likes":-1"#) + "\n"

        let directory = TemporaryDirectory()
        let store = try directory.store()
        let before = try store.state()
        let path = try directory.write(text)
        do {
            try JSONLinesImporter(store: store).importFile(atPath: path)
            Issue.record("expected an ImportError")
        } catch {
            #expect(error.line == 100_000)
            #expect(error.field == "likes")
        }
        #expect(try store.state() == before)
    }

    @Test func aMissingFileIsReportedWithoutALine() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        do {
            try JSONLinesImporter(store: store).importFile(atPath: directory.file("nope.jsonl"))
            Issue.record("expected an error")
        } catch {
            #expect(error.line == nil)
            guard case let .cannotRead(failure) = error.problem else { Issue.record("\(error)"); return }
            #expect(failure.isNotFound)
        }
        do {
            try JSONLinesImporter(store: store).importFile(atPath: directory.path)
            Issue.record("expected an error for a directory")
        } catch {
            guard case .cannotRead = error.problem else { Issue.record("\(error)"); return }
        }
    }

    @Test func anUnknownFieldNamedInAnErrorIsEscapedToo() throws {
        var bytes = Array(#"{"type":"user","id":"u2","handle":"b","name":"B","\u001b[2J":"caf"#.utf8)
        bytes += [0xC3, 0x28] + Array(#""}"#.utf8)
        let error = try expectFailure(bytes, line: 1, field: "\u{1b}[2J")
        #expect(error.description.contains(#"`\u001b[2J` holds bytes that are not valid UTF-8"#))
        #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 })
    }

    @Test func errorMessagesNeverCarryRawEscapesFromTheFile() throws {
        let error = try expectFailure(lines: [#"{"type":"\u001b[2J\u001b]0;pwned\u0007","id":"x"}"#], line: 1, field: "type")
        #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 || (0x7F ... 0x9F).contains($0.value) })
        #expect(error.description.contains(#""\u001b[2J\u001b]0;pwned\u0007""#))
    }
}
