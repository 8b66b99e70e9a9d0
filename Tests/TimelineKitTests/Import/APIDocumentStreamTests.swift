import Foundation
import Testing
@testable import TimelineKit

/// Mastodon and Twitter files are imported element by element, in bounded memory: whatever the
/// file, the streamed import stores what the decoder of a whole file decodes, and fails where it
/// fails.
@Suite struct APIDocumentStreamTests {
    /// What an import stored and what it said: the same from both readers.
    private struct Outcome: Equatable {
        var messages: [Message] = []
        var users: [User] = []
        var counts: [Int] = []
        var error: ImportError?
    }

    private static func streamed(_ bytes: [UInt8], format: ImportFormat) throws -> Outcome {
        let directory = TemporaryDirectory()
        let file = directory.file("input.json")
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let store = try TimelineStore(path: directory.file("timeline.sqlite"))
        let summary: ImportSummary
        do {
            summary = try TimelineImporter(store: store).importFile(atPath: file, format: format)
        } catch {
            return Outcome(error: ImportError(source: "input", line: error.line, column: error.column, field: error.field, problem: error.problem))
        }
        return Outcome(messages: try store.timeline(limit: 100_000).messages, users: try Self.users(store),
                       counts: [summary.users, summary.messages, summary.newUsers, summary.newMessages, summary.lines, summary.bytes])
    }

    private static func whole(_ bytes: [UInt8], format: ImportFormat) throws -> Outcome {
        let directory = TemporaryDirectory()
        let store = try TimelineStore(path: directory.file("timeline.sqlite"))
        let summary: ImportSummary
        do {
            let timeline = format == .mastodon ? try MastodonDecoder().decode(bytes, sourceName: "input")
                : try TwitterDecoder().decode(bytes, sourceName: "input")
            summary = try TimelineImporter(store: store).store(timeline, sourceName: "input")
        } catch {
            return Outcome(error: error)
        }
        let lines = bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } + (bytes.last.map { $0 == 0x0A ? 0 : 1 } ?? 0)
        return Outcome(messages: try store.timeline(limit: 100_000).messages, users: try Self.users(store),
                       counts: [summary.users, summary.messages, summary.newUsers, summary.newMessages, lines, bytes.count])
    }

    private static func users(_ store: TimelineStore) throws -> [User] {
        try store.read { reader throws(SQLiteError) in try reader.allUsers() }
    }

    private static func bytes(_ name: String) throws -> [UInt8] {
        Array(try #require(FileManager.default.contents(atPath: RealData.path(name))))
    }

    /// tag.json's statuses, `copies` times in one array, each copy's IDs its own: several
    /// megabytes, many reads of the stream's chunk.
    private static func largeArray(copies: Int) throws -> [UInt8] {
        let text = String(decoding: try bytes("mastodon4j/tag.json"), as: UTF8.self)
        let inner = text.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst().dropLast()
        let parts = (0 ..< copies).map { copy in inner.replacingOccurrences(of: "\"id\": ", with: "\"id\": \(copy + 1)00") }
        return Array(("[\n" + parts.joined(separator: ",\n") + "\n]\n").utf8)
    }

    @Test(arguments: RealData.mastodonFiles)
    func aRealMastodonFileStoresTheSameStreamedAsReadWhole(name: String) throws {
        let input = try Self.bytes(name)
        let streamed = try Self.streamed(input, format: .mastodon)
        #expect(streamed.error == nil)
        #expect(streamed == (try Self.whole(input, format: .mastodon)))
    }

    @Test(arguments: RealData.twitterFiles)
    func aRealTwitterFileStoresTheSameStreamedAsReadWhole(name: String) throws {
        let input = try Self.bytes(name)
        let streamed = try Self.streamed(input, format: .twitter)
        #expect(streamed.error == nil)
        #expect(streamed == (try Self.whole(input, format: .twitter)))
    }

    @Test func anArrayOfMegabytesIsStoredAsWholeAndEachIDCountedOnce() throws {
        let input = try Self.largeArray(copies: 60)
        #expect(input.count > 3_000_000)
        let streamed = try Self.streamed(input, format: .mastodon)
        #expect(streamed.error == nil)
        #expect(streamed.messages.count > 1_000)
        #expect(streamed == (try Self.whole(input, format: .mastodon)))
    }

    /// A wrong type far into the file, a file cut short, a comma missing between elements, a
    /// trailing comma: the error names the same line, column and field either way.
    @Test func aFailureFarIntoTheFileIsPlacedAsWhenItIsReadWhole() throws {
        let input = String(decoding: try Self.largeArray(copies: 20), as: UTF8.self)
        let last = try #require(input.range(of: "\"favourites_count\": ", options: .backwards))
        var wrongType = input
        wrongType.replaceSubrange(last, with: "\"favourites_count\": \"many\", \"x\": ")
        let cut = String(input.prefix(input.utf8.count * 2 / 3))
        let lastComma = try #require(input.range(of: "},\n  {", options: .backwards) ?? input.range(of: "},\n{", options: .backwards))
        var noComma = input
        noComma.replaceSubrange(lastComma, with: "}\n  {")
        var trailing = input
        trailing.replaceSubrange(try #require(trailing.range(of: "]", options: .backwards)), with: ",]")
        for broken in [wrongType, cut, noComma, trailing] {
            let streamed = try Self.streamed(Array(broken.utf8), format: .mastodon)
            let whole = try Self.whole(Array(broken.utf8), format: .mastodon)
            let error = try #require(streamed.error)
            #expect(error.line == whole.error?.line && error.column == whole.error?.column && error.field == whole.error?.field,
                    "\(error) vs \(String(describing: whole.error))")
            #expect(streamed.messages.isEmpty)
        }
    }

    /// Single bytes changed at random places of a real file (a fixed seed): the streamed import
    /// fails exactly when the whole-file reader does, and stores the same when both succeed.
    @Test func randomlyDamagedFilesFailOrSucceedAsWhenReadWhole() throws {
        let input = try Self.bytes("mastodon4j/public_timeline.json")
        var generator = SplitMix64(seed: 0x5EED)
        let replacements: [UInt8] = Array("{}[],:\"\\ 0a-.tn".utf8) + [0x0A, 0xFF, 0xC3]
        for _ in 0 ..< 150 {
            var damaged = input
            damaged[Int.random(in: 0 ..< damaged.count, using: &generator)] = replacements.randomElement(using: &generator)!
            let streamed = try Self.streamed(damaged, format: .mastodon)
            let whole = try Self.whole(damaged, format: .mastodon)
            #expect((streamed.error == nil) == (whole.error == nil), "\(String(describing: streamed.error)) vs \(String(describing: whole.error))")
            if streamed.error == nil { #expect(streamed == whole) } else { #expect(streamed.error?.line != nil) }
        }
    }
}
