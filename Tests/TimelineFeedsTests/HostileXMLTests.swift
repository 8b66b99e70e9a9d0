import Foundation
import Testing
import TimelineFeeds

/// Documents written to hurt a reader: each is refused (or read) within a bounded time and
/// memory, with a typed error naming the problem and where it is.
@Suite struct HostileXMLTests {
    static func parse(_ text: String, limits: FeedLimits = FeedLimits()) throws(FeedError) -> ParsedFeed {
        try FeedParser.parse(Array(text.utf8), url: "https://example.com/feed", limits: limits)
    }

    static func refusal(_ text: String, limits: FeedLimits = FeedLimits()) -> (error: FeedError?, seconds: Double) {
        let clock = ContinuousClock()
        var error: FeedError?
        let elapsed = clock.measure {
            do throws(FeedError) { _ = try parse(text, limits: limits) } catch let thrown { error = thrown }
        }
        let parts = elapsed.components
        return (error, Double(parts.seconds) + Double(parts.attoseconds) / 1e18)
    }

    @Test func billionLaughsIsRefusedQuicklyAsEntityExpansion() {
        var declarations = #"<!ENTITY lol0 "lollollollollollollollollollol">"#
        for level in 1 ... 9 {
            declarations += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
        }
        let document = "<?xml version=\"1.0\"?><!DOCTYPE rss [\(declarations)]><rss><channel><title>&lol9;</title></channel></rss>"
        let (error, seconds) = Self.refusal(document)
        #expect(error?.problem == .entityExpansionTooLarge)
        #expect(error?.line == 1)
        #expect(seconds < 2, "took \(seconds) s")
    }

    @Test func externalEntityIsRefusedAtItsDeclarationAndNothingIsRead() throws {
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("xxe-\(UUID().uuidString).txt")
        try "the secret".write(to: secret, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: secret) }
        let document = """
            <?xml version="1.0"?>
            <!DOCTYPE rss [
              <!ENTITY xxe SYSTEM "\(secret.absoluteString)">
            ]>
            <rss><channel><title>&xxe;</title></channel></rss>
            """
        let (error, _) = Self.refusal(document)
        #expect(error?.problem == .externalEntity(name: "xxe"))
        #expect(error?.line == 3)
        #expect(error.map { "\($0)".contains("external entity") } == true)
    }

    @Test func externalParameterEntityIsNeverLoaded() throws {
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("xxe-\(UUID().uuidString).dtd")
        try #"<!ENTITY leak "the secret">"#.write(to: secret, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: secret) }
        let document = """
            <?xml version="1.0"?>
            <!DOCTYPE rss [<!ENTITY % remote SYSTEM "\(secret.absoluteString)"> %remote;]>
            <rss><channel><title>a &leak; b</title></channel></rss>
            """
        do throws(FeedError) {
            let feed = try Self.parse(document)
            #expect(feed.title?.contains("secret") != true)
        } catch {
            #expect(error.problem == .externalEntity(name: "remote"))
        }
    }

    @Test func deepNestingIsRefusedAtTheLimitWithItsLine() {
        let depth = 100_000
        let document = "<rss>\n" + String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth) + "</rss>"
        let (error, seconds) = Self.refusal(document)
        #expect(error?.problem == .nestedTooDeep(limit: 256))
        #expect(error?.line == 2)
        #expect(seconds < 2, "took \(seconds) s")
    }

    @Test func hugeAttributeIsRefusedWithItsSize() {
        let value = String(repeating: "x", count: 5_000_000)
        let document = "<rss><channel><link href=\"\(value)\"/></channel></rss>"
        let (error, seconds) = Self.refusal(document)
        #expect(error?.problem == .attributeTooLong(bytes: 5_000_000, limit: 1 << 20))
        #expect(seconds < 2, "took \(seconds) s")
    }

    @Test func documentOverTheSizeLimitIsRefusedBeforeParsing() {
        let document = "<rss>" + String(repeating: " ", count: 2000) + "</rss>"
        let (error, _) = Self.refusal(document, limits: FeedLimits(maximumBytes: 1000))
        #expect(error?.problem == .tooLarge(bytes: document.utf8.count, limit: 1000))
    }

    @Test func manyEntityReferencesThatStayUnderExpatsRatioStillMeetTheTextLimit() {
        // Amplification below expat's factor but more text than the limit allows.
        let document = "<!DOCTYPE rss [<!ENTITY a \"" + String(repeating: "a", count: 1000) + "\">]><rss><channel><title>"
            + String(repeating: "&a;", count: 2000) + "</title></channel></rss>"
        let (error, _) = Self.refusal(document, limits: FeedLimits(maximumTextBytes: 1_000_000, maximumEntityAmplification: 1000))
        #expect(error?.problem == .entityExpansionTooLarge)
    }

    @Test func bytesThatAreNotUTF8AreAnEncodingErrorWithTheirPlace() {
        var bytes = Array("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<rss><channel>\n<title>caf".utf8)
        bytes += [0xE9]  // é in ISO-8859-1, not UTF-8
        bytes += Array("</title></channel></rss>".utf8)
        do throws(FeedError) {
            _ = try FeedParser.parse(bytes, url: nil)
            Issue.record("a document with invalid UTF-8 was read")
        } catch {
            guard case let .invalidEncoding(detail) = error.problem else { return #expect(Bool(false), "\(error)") }
            #expect(detail.contains("0xE9"))
            #expect(error.line == 3)
        }
    }

    @Test func anEncodingNobodyReadsIsNamedInTheError() {
        let (error, _) = Self.refusal("<?xml version=\"1.0\" encoding=\"EBCDIC-XYZ\"?><rss/>")
        #expect(error?.problem == .unsupportedEncoding("EBCDIC-XYZ"))
    }

    @Test func malformedXMLSaysExpatsWordsAndWhere() {
        let (error, _) = Self.refusal("<rss>\n<channel>\n<title>a</channel></rss>")
        #expect(error?.problem == .malformedXML("mismatched tag"))
        #expect(error?.line == 3)
        #expect(error?.column == 11)
    }
}
