import Foundation
import Testing
@testable import TimelineKit

@Suite struct ServerSentEventParserTests {
    private func events(_ text: String, maximum: Int = 1 << 20) -> [ServerSentEvent] {
        var parser = ServerSentEventParser(maximumEventBytes: maximum)
        return parser.parse(Array(text.utf8))
    }

    @Test func theStandardsExamplesReadAsItSays() {
        // WHATWG HTML §9.2.6: three data lines make one event joined by line feeds.
        #expect(events("data: YHOO\ndata: +2\ndata: 10\n\n").map(\.data) == ["YHOO\n+2\n10"])
        // Comments are ignored, the id persists to the events after it.
        let stream = events(": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n")
        #expect(stream.map(\.data) == ["first event", "second event", " third event"])
        #expect(stream.map(\.lastEventID) == ["1", "", ""])
        // "data" alone is an empty data line; the last, unterminated event is not dispatched.
        #expect(events("data\n\ndata\ndata\n\ndata:").map(\.data) == ["", "\n"])
        // One space after the colon is dropped, no more.
        #expect(events("data:test\n\ndata: test\n\n").map(\.data) == ["test", "test"])
    }

    @Test func mastodonsEventsAndKeepAlivesAreRead() {
        let stream = events(":thump\n\nevent: update\ndata: {\"id\":\"1\"}\n\n:thump\nevent: delete\ndata: 1\n\n")
        #expect(stream == [ServerSentEvent(type: "update", data: #"{"id":"1"}"#), ServerSentEvent(type: "delete", data: "1")])
        #expect(events("data: x\n\n").first?.type == "message")
    }

    @Test func everyLineEndingWorksAndCRLFSplitAcrossChunksIsOneLineEnd() {
        for ending in ["\n", "\r", "\r\n"] {
            let text = "event: a\(ending)data: 1\(ending)data: 2\(ending)\(ending)"
            #expect(events(text) == [ServerSentEvent(type: "a", data: "1\n2")], "\(ending.debugDescription)")
        }
        var parser = ServerSentEventParser()
        #expect(parser.parse(Array("data: 1\r".utf8)).isEmpty)
        #expect(parser.parse(Array("\n\r".utf8)).map(\.data) == ["1"])
        #expect(parser.parse(Array("\ndata: 2\r\n\r\n".utf8)).map(\.data) == ["2"])
    }

    @Test func idRetryByteOrderMarkAndUnknownFields() {
        var parser = ServerSentEventParser()
        let stream = parser.parse(Array("\u{FEFF}id: 7\nretry: 2500\nretry: soon\nfoo: bar\ndata: x\n\nid: a\u{0}b\ndata: y\n\n".utf8))
        #expect(stream.map(\.data) == ["x", "y"])
        #expect(stream.map(\.lastEventID) == ["7", "7"])  // an id with NUL is ignored
        #expect(parser.reconnectionMilliseconds == 2500)
        #expect(parser.lastEventID == "7")
        var invalid = ServerSentEventParser()
        #expect(invalid.parse(Array("data: ".utf8) + [0xFF, 0x0A, 0x0A]).map(\.data) == ["\u{FFFD}"])
    }

    @Test func anEventLargerThanTheBoundIsDroppedAndTheNextIsRead() {
        var parser = ServerSentEventParser(maximumEventBytes: 64)
        let long = String(repeating: "x", count: 100)
        let many = String(repeating: "data: 0123456789\n", count: 10)
        let stream = parser.parse(Array("data: \(long)\ndata: more\n\ndata: small\n\n\(many)\ndata: last\n\n".utf8))
        #expect(stream.map(\.data) == ["small", "last"])
        #expect(parser.discardedEvents == 2)
    }

    @Test func anEndedStreamDispatchesNoHalfEventAndStartsAfresh() {
        var parser = ServerSentEventParser()
        #expect(parser.parse(Array("id: 3\ndata: half".utf8)).isEmpty)
        parser.finish()
        #expect(parser.parse(Array("data: whole\n\n".utf8)).map(\.data) == ["whole"])
        // The id of the cut event never took effect: a new stream starts with empty buffers.
        #expect(parser.lastEventID == "")
    }

    /// Random streams over the syntax's own characters, cut into random chunks, read the same
    /// as a straightforward reading of the whole text line by line (the standard's algorithm
    /// written plainly), and random bytes never crash the parser.
    @Test func fuzzedStreamsReadLikeTheStandardsAlgorithmInAnyChunking() {
        var random = SplitMix64(seed: 9_2_6)
        let alphabet = ["data", "event", "id", "retry", ":", " ", "\n", "\r", "\r\n", "x", "é", "1", "\n\n", "\u{0}"]
        for _ in 0 ..< 3_000 {
            let text = (0 ..< Int(random.next() % 60)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }.joined()
            let bytes = Array(text.utf8)
            var parser = ServerSentEventParser()
            var chunked: [ServerSentEvent] = []
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + Int(random.next() % 7) + 1)
                chunked += parser.parse(bytes[start ..< end])
                start = end
            }
            #expect(chunked == Self.reference(text), "\(text.debugDescription)")
        }
        for _ in 0 ..< 2_000 {
            var parser = ServerSentEventParser(maximumEventBytes: 32)
            _ = parser.parse(random.bytes(Int(random.next() % 200)))
        }
    }

    /// The standard's algorithm over a whole string.
    static func reference(_ text: String) -> [ServerSentEvent] {
        var lines: [String] = []
        var current = ""
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            if scalar == "\r" || scalar == "\n" {
                if scalar == "\r", scalars.first == "\n" { scalars.removeFirst() }
                lines.append(current)
                current = ""
            } else {
                current.unicodeScalars.append(scalar)
            }
        }
        var events: [ServerSentEvent] = []
        var data = ""
        var type = ""
        var idBuffer = ""
        var lastID = ""
        for line in lines {
            if line.isEmpty {
                lastID = idBuffer
                if !data.isEmpty {
                    data.removeLast()
                    events.append(ServerSentEvent(type: type.isEmpty ? "message" : type, data: data, lastEventID: lastID))
                }
                data = ""
                type = ""
                continue
            }
            if line.hasPrefix(":") { continue }
            var name = line
            var value = ""
            if let colon = line.firstIndex(of: ":") {
                name = String(line[..<colon])
                value = String(line[line.index(after: colon)...])
                if value.hasPrefix(" ") { value.removeFirst() }
            }
            switch name {
            case "event": type = value
            case "data": data += value + "\n"
            case "id": if !value.contains("\u{0}") { idBuffer = value }
            default: break
            }
        }
        return events
    }
}
