import Foundation
import Testing
@testable import TimelineKit

/// Input cut short at every byte, as a dropped connection or a full disk leaves it: every parser
/// gives a result or a clear error naming where, and never crashes (issue 12: a Mastodon status
/// ending inside an HTML tag killed `timeline import`).
@Suite struct TruncatedInputTests {
    /// Every proper prefix of `bytes` that is more than nothing or its final whitespace.
    private static func cuts(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        let end = (bytes.lastIndex { ![0x20, 0x0A, 0x0D, 0x09].contains($0) } ?? -1) + 1
        return (1..<end).map { bytes[..<$0] }
    }

    @Test func aJSONLinesLineCutAtEveryByteIsRefusedWithItsPosition() throws {
        let lines = [
            #"{"type":"user","id":"u1","handle":"alice","name":"Alice 🦊 \"A\" \u00e9\ud83d\ude00","url":"https://x.example/@a","bot":false}"#,
            #"{"type":"message","id":"m1","author":"u1","text":"line\nnext \u001b[31m 日本","created_at":"2026-11-20T10:00:00.123+09:00","edited_at":null,"likes":12,"read":true,"attachments":[{"kind":"image","url":"u","alt_text":"a"}],"unknown":{"a":[1,2.5e-3,true,null]}}"#,
        ]
        for line in lines {
            var parser = JSONLineParser()
            let bytes = Array(line.utf8)
            #expect(Self.parse(bytes, with: &parser) == .record)
            for cut in Self.cuts(of: bytes) {
                let outcome = Self.parse(Array(cut), with: &parser)
                #expect(outcome == .refused(inside: true), "\(String(decoding: cut, as: UTF8.self))")
            }
        }
    }

    private enum Outcome: Equatable {
        case record, blank
        /// Refused, the offset at fault inside the line (or none, for a missing field).
        case refused(inside: Bool)
    }

    private static func parse(_ bytes: [UInt8], with parser: inout JSONLineParser) -> Outcome {
        bytes.withUnsafeBufferPointer { buffer in
            do throws(JSONLineFailure) {
                return try parser.parse(buffer) == nil ? .blank : .record
            } catch {
                return .refused(inside: (error.offset ?? 0) <= bytes.count)
            }
        }
    }

    @Test func aJSONLinesFileCutAtEveryByteImportsWholeLinesOrStopsWithAClearError() throws {
        let directory = TemporaryDirectory()
        let text = ImportFixtures.alice + "\n" + ImportFixtures.message("m1", text: "h\\u00e9llo 🦊") + "\r\n"
        let bytes = Array(text.utf8)
        let store = try directory.store()
        for end in 0...bytes.count {
            let path = try directory.write(Array(bytes[..<end]), to: "cut-\(end).jsonl")
            do {
                _ = try JSONLinesImporter(store: store).importFile(atPath: path)
            } catch {
                #expect(error.line != nil, "\(error)")
                #expect("\(error)".contains("cut-\(end).jsonl:"))
            }
        }
    }

    @Test func mastodonAndTwitterDocumentsCutAtEveryByteAreRefusedWithALine() throws {
        let documents: [(String, (([UInt8]) throws(ImportError) -> DecodedTimeline))] = [
            ("TootSDK/post with emojis and attachments.json", { (bytes) throws(ImportError) in try MastodonDecoder().decode(bytes) }),
            ("mastodon4j/context.json", { (bytes) throws(ImportError) in try MastodonDecoder().decode(bytes) }),
            ("python-twitter/extended_tweet_in_extended_mode.json", { (bytes) throws(ImportError) in try TwitterDecoder().decode(bytes) }),
        ]
        for (name, decode) in documents {
            let bytes = try RealData.bytes(name)
            _ = try decode(bytes)
            for cut in Self.cuts(of: bytes) {
                do {
                    _ = try decode(Array(cut))
                    Issue.record("\(name) cut after \(cut.count) bytes was accepted")
                } catch {
                    #expect(error.line != nil, "\(name) after \(cut.count) bytes: \(error)")
                }
            }
        }
    }

    @Test func timesCutAtEveryByteAreRefused() {
        let rfc3339 = Array("2026-11-20T19:00:00.123456+09:00".utf8)
        for cut in Self.cuts(of: rfc3339) {
            let copy = Array(cut)
            let result = copy.withUnsafeBufferPointer { buffer -> Int64? in try? RFC3339Time.milliseconds(parsing: buffer) }
            #expect(result == nil, "\(String(decoding: copy, as: UTF8.self))")
        }
        let twitter = "Wed Oct 10 20:19:24 +0000 2018"
        for end in 0..<twitter.count {
            if case .success = TwitterTime.milliseconds(parsing: String(twitter.prefix(end))) {
                Issue.record("\(twitter.prefix(end)) was accepted")
            }
        }
    }

    @Test func characterReferencesCutAtEveryScalarStayAsWritten() {
        let text = "&#x1F600;&#128512;&amp;&nbsp;&#39;"
        let scalars = Array(text.unicodeScalars)
        for end in 0..<scalars.count {
            var cut = String.UnicodeScalarView()
            cut.append(contentsOf: scalars[..<end])
            let decoded = HTMLEntities.decode(String(cut))
            #expect(decoded.unicodeScalars.count <= end)
        }
    }
}
