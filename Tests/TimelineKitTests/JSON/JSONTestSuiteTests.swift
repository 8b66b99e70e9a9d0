import Foundation
import Testing
import TimelineKit

/// JSON conformance: JSONTestSuite's `y_` documents are accepted and its `n_` documents refused,
/// each spliced into an import as the value of an unknown field (which the import reads whole,
/// validating it, and then ignores). See Fixtures/JSONTestSuite/README.md.
///
/// Exceptions, deliberate:
/// - The JSON Lines test skips the four `y_` documents holding a line feed as whitespace
///   (`y_array_with_1_and_newline`, `y_number_double_close_to_zero`, `y_object_with_newlines`,
///   `y_structure_trailing_newline`): a record of JSON Lines is one line by definition. The
///   Mastodon test, which reads whole documents, takes them.
/// - None else: no `y_` document holds a lone surrogate escape (those are `i_` documents, which
///   are implementation-defined and not used; the import refuses them, see `ImportError`), and
///   every `n_` document is refused.
@Suite struct JSONTestSuiteTests {
    static let directory: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0 ..< 4 { url.deleteLastPathComponent() }  // Import, TimelineKitTests, Tests, file
        return url.appendingPathComponent("Fixtures/JSONTestSuite")
    }()

    /// The documents whose names start with `prefix`, with their bytes.
    static func documents(_ prefix: String) throws -> [(name: String, bytes: [UInt8])] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }
            .sorted()
            .map { ($0, Array(try Data(contentsOf: directory.appendingPathComponent($0)))) }
    }

    /// A message line of the import format with `document` as the value of a field it does not know.
    static func messageLine(with document: [UInt8]) -> [UInt8] {
        Array(#"{"type":"user","id":"u1","handle":"a","name":"A"}"#.utf8) + [0x0A]
            + Array(#"{"type":"message","id":"m1","author":"u1","text":"x","created_at":"2026-11-20T10:00:00Z","unknown":"#.utf8)
            + document + Array("}\n".utf8)
    }

    /// A Mastodon status with `document` as the value of a field it does not know.
    static func status(with document: [UInt8]) -> [UInt8] {
        Array(#"{"id":"1","created_at":"2026-11-20T10:00:00Z","content":"<p>x</p>","account":{"id":"1","acct":"a"},"unknown":"#.utf8)
            + document + Array("}".utf8)
    }

    /// Whether the JSON Lines import accepts `bytes`: read with `JSONLinesReader`, no store.
    static func jsonLinesAccepts(_ bytes: [UInt8], in directory: TemporaryDirectory) throws -> Bool {
        let reader = try JSONLinesReader(path: try directory.write(bytes))
        do {
            while try reader.nextRecord() != nil {}
            return true
        } catch {
            #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 && $0.value != 0x0A })
            return false
        }
    }

    static let oneLineOnly: Set<String> = [
        "y_array_with_1_and_newline.json", "y_number_double_close_to_zero.json", "y_object_with_newlines.json",
        "y_structure_trailing_newline.json",
    ]

    @Test func theSuiteIsThere() throws {
        #expect(try Self.documents("y_").count == 95)
        #expect(try Self.documents("n_").count == 188)
    }

    @Test func jsonLinesAcceptsEveryYDocumentAsAnUnknownField() throws {
        let directory = TemporaryDirectory()
        for (name, bytes) in try Self.documents("y_") where !Self.oneLineOnly.contains(name) {
            #expect(try Self.jsonLinesAccepts(Self.messageLine(with: bytes), in: directory), "\(name)")
        }
        // The exceptions are exactly the documents with a line feed in them.
        #expect(Set(try Self.documents("y_").filter { $0.bytes.contains(0x0A) }.map(\.name)) == Self.oneLineOnly)
    }

    @Test func jsonLinesRefusesEveryNDocumentAsAnUnknownField() throws {
        let directory = TemporaryDirectory()
        for (name, bytes) in try Self.documents("n_") {
            #expect(try !Self.jsonLinesAccepts(Self.messageLine(with: bytes), in: directory), "\(name)")
        }
    }

    @Test func theMastodonDecoderAcceptsEveryYDocumentAndRefusesEveryNDocument() throws {
        for (name, bytes) in try Self.documents("y_") {
            #expect(throws: Never.self, "\(name)") { try MastodonDecoder().decode(Self.status(with: bytes)) }
        }
        for (name, bytes) in try Self.documents("n_") {
            #expect(throws: ImportError.self, "\(name)") { try MastodonDecoder().decode(Self.status(with: bytes)) }
        }
    }
}
