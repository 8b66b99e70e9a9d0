import Foundation
import Testing
@testable import TimelineKit

/// Errors that quote input never carry what the renderer would neutralise: C0 and C1 controls
/// were escaped already; bidirectional overrides and other invisible format characters were
/// printed raw (issue 12, item 7).
@Suite struct ErrorNeutralisingTests {
    typealias F = ImportFixtures

    /// The characters a terminal must never receive from input in an error message: what
    /// `TerminalText.body` lets through of the format characters (the joiners and the marks
    /// LRM, RLM and ALM, which act within their line only) is allowed, as in message text.
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (value < 0x20 && value != 0x0A) || (0x7F ... 0x9F).contains(value)
            || (TerminalText.isFormat(value) && ![0x200C, 0x200D, 0x200E, 0x200F, 0x061C].contains(value))
    }

    static let override = "\u{202E}"

    @Test func anImportErrorShowsABidirectionalOverrideAsAnEscape() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        let path = try directory.write([F.alice, F.message("m1", createdAt: "2026\(Self.override)-11-20")].joined(separator: "\n"))
        #expect {
            try JSONLinesImporter(store: store).importFile(atPath: path)
        } throws: { error in
            let text = "\(error)"
            return text.contains(#""2026\u202e-11-20""#) && !text.unicodeScalars.contains(where: Self.isUnsafe)
        }
    }

    @Test func everyQuotedValueAndFieldNameEscapesFormatCharacters() {
        for hidden in ["\u{202E}", "\u{2066}", "\u{200B}", "\u{FEFF}", "\u{E0041}", "\u{061C}", "\u{00AD}"] {
            let quoted = QuotedValue.quoted("a\(hidden)b")
            #expect(!quoted.unicodeScalars.contains(where: Self.isUnsafe), "\(quoted.unicodeScalars.map(\.value))")
            let error = ImportError(source: "f\(hidden).jsonl", line: 1, field: "x\(hidden)", problem: .unknownRecordType("t\(hidden)"))
            #expect(!error.description.unicodeScalars.contains(where: Self.isUnsafe))
        }
        // JSON's own form: UTF-16 units, a surrogate pair beyond the BMP.
        #expect(QuotedValue.quoted("\u{202E}") == #""\u202e""#)
        #expect(QuotedValue.quoted("\u{E0041}") == #""\udb40\udc41""#)
        #expect(QuotedValue.quoted("é 😀") == #""é 😀""#)
    }

    @Test func aPathHoldingEscapesIsShownInert() {
        let error = ImportError(source: "evil\u{1B}]0;title\u{07}\u{202E}.jsonl", problem: .cannotRead(
            FileSystemError(operation: "open", path: "evil\u{1B}]0;title\u{07}\u{202E}.jsonl", code: .noSuchFileOrDirectory)))
        #expect(!error.description.unicodeScalars.contains(where: Self.isUnsafe))
        #expect(error.description.hasPrefix("evil␛]0;title␇.jsonl"))
    }

    @Test func storeErrorsQuoteAndNeutraliseTheIDsTheyName() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        let hostile = "m\u{1B}[2J\(Self.override)"
        #expect {
            try store.upsert(messages: [Message(id: hostile, authorID: "nobody\(Self.override)", text: "", createdAt: Samples.epoch)])
        } throws: { error in
            let text = "\(error)"
            return text.contains(#""m\u001b[2J\u202e""#) && !text.unicodeScalars.contains(where: Self.isUnsafe)
        }
        var negative = Message(id: hostile, authorID: "u1", text: "", createdAt: Samples.epoch)
        negative.likeCount = -1
        #expect {
            try store.upsert(messages: [negative])
        } throws: { error in
            !"\(error)".unicodeScalars.contains(where: Self.isUnsafe)
        }
        let opened = TimelineStoreError.cannotOpen(path: "/tmp/x\u{9B}31m\(Self.override)", reason: "a\u{1B}b")
        #expect(!opened.description.unicodeScalars.contains(where: Self.isUnsafe))
    }

    @Test func anExportErrorNamingAPathIsNeutralised() {
        let error = ExportError<FileSystemError>.sink(FileSystemError(operation: "write", path: "out\(Self.override)\u{1B}", code: Errno(rawValue: ENOSPC)))
        #expect(!error.description.unicodeScalars.contains(where: Self.isUnsafe))
    }
}
