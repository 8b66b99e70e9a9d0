import Foundation
import Testing
@testable import TimelineKit

/// Issue 33: every number a decoder reads, set to the extremes a hostile server or file can
/// write, goes through import, storage, rendering and the snapshot without a trap. A trap is a
/// crash of this test process: the run then ends without its summary, which CI counts as a
/// failure. What each decode does is also held to the import's promise: it stores the value or
/// refuses it with an `ImportError` naming the field; nothing is half written.
@Suite struct NumericExtremesTests {
    /// Written where a number stands: the integer bounds of every width and one past them,
    /// 2^53 + 1 (past a double's exact integers), what overflows `× 100`, a negative zero,
    /// fractions, exponents that reach infinity or underflow, and a number longer than any type.
    /// The one list is the fuzzers' dictionary, `tools/fuzz/numbers.dict`.
    static let numbers: [String] = {
        let text = (try? String(contentsOfFile: Fixtures.path("../tools/fuzz/numbers.dict"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), let open = line.firstIndex(of: "\""), line.last == "\"" else { return nil }
            return String(line[line.index(after: open) ..< line.index(before: line.endIndex)])
        }
    }()

    /// Written where a string of digits stands (IDs, counts a server writes as strings): the
    /// same extremes as text.
    static let digitStrings = numbers.map { "\"\($0)\"" }

    // MARK: Seeds: one document per decoder, every numeric field its API documents present

    /// `tools/fuzz/seeds/NAME`, which the import fuzzer starts from too.
    static func seed(_ name: String) -> String {
        (try? String(contentsOfFile: Fixtures.path("../tools/fuzz/seeds/" + name), encoding: .utf8)) ?? ""
    }

    static let seeds: [(name: String, format: ImportFormat, document: String)] = {
        let files: [(String, ImportFormat)] = [
            ("mastodon-statuses.json", .mastodon), ("mastodon-notifications.json", .mastodon), ("mastodon-context.json", .mastodon),
            ("twitter-v1.json", .twitter), ("twitter-v2.json", .twitter), ("bluesky-feed.json", .bluesky), ("jsonl-counts.jsonl", .jsonl),
        ]
        let notifications = (try? String(contentsOfFile: Fixtures.path("Bluesky/listNotifications.json"), encoding: .utf8)) ?? ""
        return files.map { ($0.0, $0.1, seed($0.0)) } + [("Bluesky's listNotifications", .bluesky, notifications)]
    }()

    // MARK: Where the numbers stand

    /// The byte ranges of `document`'s number tokens and of its strings that hold only digits.
    static func numericTokens(in document: String) -> [(range: Range<Int>, isString: Bool)] {
        let bytes = Array(document.utf8)
        var tokens: [(Range<Int>, Bool)] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                var end = index + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
                let inner = bytes[(index + 1) ..< end]
                // A key is followed by a colon; only values are numbers to change.
                var next = end + 1
                while next < bytes.count, bytes[next] == UInt8(ascii: " ") { next += 1 }
                let isKey = next < bytes.count && bytes[next] == UInt8(ascii: ":")
                if !isKey, !inner.isEmpty, inner.allSatisfy({ (0x30 ... 0x39).contains($0) }) { tokens.append((index ..< end + 1, true)) }
                index = end + 1
            } else if byte == UInt8(ascii: "-") || (0x30 ... 0x39).contains(byte) {
                var end = index + 1
                while end < bytes.count, "0123456789.eE+-".utf8.contains(bytes[end]) { end += 1 }
                tokens.append((index ..< end, false))
                index = end
            } else {
                index += 1
            }
        }
        return tokens
    }

    /// `document` with the bytes of `range` replaced by `replacement`.
    static func replacing(_ range: Range<Int>, in document: String, with replacement: String) -> String {
        var bytes = Array(document.utf8)
        bytes.replaceSubrange(range, with: Array(replacement.utf8))
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: The tests

    @Test func theExtremesAreReadFromTheFuzzersDictionary() {
        #expect(Self.numbers.count == 22 && Self.numbers.contains("92233720368547759") && Self.numbers.contains("-9223372036854775808"))
    }

    @Test(arguments: seeds.indices)
    func everyNumericFieldAtEveryExtremeIsStoredOrRefusedNeverATrap(seed: Int) throws {
        let (name, format, document) = Self.seeds[seed]
        let directory = TemporaryDirectory()
        let store = try directory.store()
        // The seed itself imports: the extremes are tried on a document that works.
        let seedPath = try directory.write(document, to: "seed.json")
        try TimelineImporter(store: store).importFile(atPath: seedPath, format: format)
        let tokens = Self.numericTokens(in: document)
        #expect(tokens.count >= 3, "\(name): the seed holds too few numbers to try")
        var stored = 0, refused = 0
        for token in tokens {
            for value in token.isString ? Self.digitStrings : Self.numbers {
                let changed = Self.replacing(token.range, in: document, with: value)
                let path = try directory.write(changed, to: "case.json")
                let before = try store.timeline(limit: 50)
                var imported = false
                do {
                    try TimelineImporter(store: store).importFile(atPath: path, format: format)
                    imported = true
                } catch {
                    refused += 1
                    // Refused whole: the store is as it was, and the error names a place.
                    #expect(try store.timeline(limit: 50) == before, "\(name): a refused import changed the store")
                    #expect(error.line != nil || error.field != nil || error.column != nil,
                            "\(name) with \(value): the refusal names no place: \(error)")
                }
                if imported {
                    stored += 1
                    try Self.paint(store, directory: directory)
                }
            }
        }
        // Some extremes are values a store keeps (a count of 0, an ID of digits); none is a trap.
        #expect(stored > 0, "\(name): \(stored) stored, \(refused) refused")
    }

    /// What `show` does with what was stored: the page rendered, the snapshot written and read.
    static func paint(_ store: TimelineStore, directory: TemporaryDirectory) throws {
        let page = try store.timeline(limit: 50)
        let renderer = TimelineRenderer(options: RenderOptions(width: 80))
        _ = renderer.renderText(page, now: Date())
        _ = renderer.renderText(page, now: Date(timeIntervalSince1970: -62_135_596_800))
        _ = renderer.renderText(page, now: Date(timeIntervalSince1970: 253_402_300_799))
        try store.writeSnapshot(force: true)
        let snapshot = try SnapshotFile(path: SnapshotFile.path(forDatabaseAt: store.path)).read()
        _ = renderer.renderText(snapshot.window, now: Date())
    }

    // MARK: What headers and streams say in numbers

    /// Header values as a server can write them: the extremes above, as text, with signs and spaces.
    static let headerValues = numbers + ["+5", " 42 ", "", "1_000", "0x10", "٣", "99999999999999999999999"]

    @Test func rateLimitHeadersAtEveryExtremeGiveATimeOrNoneAndAWaitThatFits() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        for value in Self.headerValues {
            for headers in [["Retry-After": value], ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": value],
                            ["X-RateLimit-Remaining": value, "X-RateLimit-Reset": "60"], ["RateLimit-Remaining": value, "RateLimit-Reset": value]] {
                let response = HTTPResponse(status: 429, headers: headers.map { HTTPHeader(name: $0.key, value: $0.value) })
                let limit = RateLimit(response, now: now)
                let retry = RateLimit.retryDate(after: response, now: now)
                for date in [limit?.reset, retry].compactMap({ $0 }) {
                    let wait = ServerRequester.duration(from: now, to: date)
                    #expect(wait >= .zero, "\(headers): a negative wait")
                    // What the person reads: a time, whatever the server wrote.
                    let said = ServerError.rateLimited(url: "https://x.test/", retryAt: date).description
                    #expect(said.contains("Try again after"), "\(headers): \(said)")
                }
            }
        }
    }

    @Test func aStreamsRetryFieldAtEveryExtremeIsADelayOrIgnored() {
        for value in Self.headerValues {
            var parser = ServerSentEventParser()
            _ = parser.parse(Array("retry: \(value)\ndata: x\n\n".utf8))
            if let delay = parser.reconnectionMilliseconds { #expect(delay >= 0, "retry: \(value)") }
        }
    }

    // MARK: The arithmetic itself

    @Test func saturatingArithmeticStopsAtTheBoundsAndIsExactWithin() {
        #expect(Int64.max.saturatingAdding(1) == .max)
        #expect(Int64.min.saturatingAdding(-1) == .min)
        #expect(Int64.min.saturatingSubtracting(1) == .min)
        #expect(Int64.max.saturatingSubtracting(-1) == .max)
        #expect(Int64(0).saturatingSubtracting(.min) == .max)
        #expect(Int.max.saturatingMultiplied(by: 100) == .max)
        #expect(Int.min.saturatingMultiplied(by: 2) == .min)
        #expect((-Int.max).saturatingMultiplied(by: -2) == .max)
        #expect(Int(40).saturatingAdding(2) == 42 && Int(40).saturatingSubtracting(-2) == 42 && Int(21).saturatingMultiplied(by: 2) == 42)
    }

    @Test func aPollsShareIsRoundedHalfUpAndBoundedWhateverTheCounts() {
        #expect(Int.percentage(60, of: 123) == 49)
        #expect(Int.percentage(63, of: 123) == 51)
        #expect(Int.percentage(1, of: 2) == 50 && Int.percentage(1, of: 3) == 33 && Int.percentage(2, of: 3) == 67)
        #expect(Int.percentage(92_233_720_368_547_759, of: 92_233_720_368_547_759) == 100)
        #expect(Int.percentage(.max, of: .max) == 100)
        #expect(Int.percentage(.max / 2, of: .max) == 50)
        #expect(Int.percentage(.max, of: 1) == .max)
        #expect(Int.percentage(5, of: 0) == 0 && Int.percentage(-5, of: 10) == 0 && Int.percentage(5, of: .min) == 0)
    }

    // MARK: What only a sync reads

    /// The readers of answers that only a sync sees (a status page, a poll after a vote, a
    /// marker, a posted status, notifications) at every extreme of every number: a value or a
    /// `ServerError`, never a trap.
    @Test func everyNumberOfWhatOnlyASyncReadsAtEveryExtremeIsReadOrRefused() throws {
        let namespace = MastodonNamespace(server: try ServerAddress("https://x.test"))
        let url = "https://x.test/api/v1/x"
        var read = 0, refused = 0
        func attempt(_ body: () throws(ServerError) -> Void) {
            do throws(ServerError) { try body(); read += 1 } catch { refused += 1 }
        }
        for document in ["mastodon-statuses.json", "mastodon-notifications.json", "mastodon-marker.json"].map(Self.seed) {
            for token in Self.numericTokens(in: document) {
                for value in token.isString ? Self.digitStrings : Self.numbers {
                    let response = HTTPResponse(status: 200, body: Array(Self.replacing(token.range, in: document, with: value).utf8))
                    attempt { () throws(ServerError) in _ = try FetchedPage.statuses(response, from: url, namespace: namespace) }
                    attempt { () throws(ServerError) in _ = try FetchedPage.notifications(response, from: url, namespace: namespace) }
                    attempt { () throws(ServerError) in _ = try MastodonSync.poll(in: response, from: url) }
                    attempt { () throws(ServerError) in _ = try MastodonSync.status(in: response, from: url, namespace: namespace) }
                    attempt { () throws(ServerError) in _ = try MastodonMarker.home(in: response, from: url) }
                }
            }
        }
        #expect(read > 0 && refused > 0, "\(read) read, \(refused) refused")
    }
}
