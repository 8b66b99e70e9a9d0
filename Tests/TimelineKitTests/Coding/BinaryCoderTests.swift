import Foundation
import Testing
@testable import TimelineKit

/// The snapshot payload's coder: each kind of field's bytes, the records' field lists, and
/// refusals of damaged or hostile input. Fields are coded through `BinaryWriter` and
/// `BinaryReader` directly (`bytes(of:)`, `decode(_:from:)`), the snapshot through the public
/// `BinaryEncoder` and `BinaryDecoder`.
@Suite struct BinaryCoderTests {
    // MARK: Round trips

    @Test func integersOfEveryWidthRoundTripAtTheirLimits() throws {
        try expectLimitsRoundTrip(Int.self)
        try expectLimitsRoundTrip(Int8.self)
        try expectLimitsRoundTrip(Int16.self)
        try expectLimitsRoundTrip(Int32.self)
        try expectLimitsRoundTrip(Int64.self)
        try expectLimitsRoundTrip(UInt.self)
        try expectLimitsRoundTrip(UInt8.self)
        try expectLimitsRoundTrip(UInt16.self)
        try expectLimitsRoundTrip(UInt32.self)
        try expectLimitsRoundTrip(UInt64.self)
        try expectRoundTrip([Int64.min, -1, 0, 1, 63, 64, -64, -65, Int64.max])
    }

    @Test func varintsAreCompact() {
        #expect(bytes(of: 0 as UInt64) == [0])
        #expect(bytes(of: 127 as UInt64) == [0x7F])
        #expect(bytes(of: 128 as UInt64) == [0x80, 0x01])
        #expect(bytes(of: -1 as Int) == [0x01])
        #expect(bytes(of: 1 as Int) == [0x02])
        #expect(bytes(of: UInt64.max).count == 10)
        #expect(bytes(of: 200 as UInt8) == [200])
        #expect(bytes(of: -2 as Int8) == [0xFE])
    }

    @Test func boolsRoundTrip() throws {
        try expectRoundTrip(true)
        try expectRoundTrip(false)
        try expectRoundTrip([true, false, true])
        #expect(bytes(of: true) == [1])
    }

    @Test func floatingPointRoundTripsBitForBit() throws {
        let doubles: [Double] = [
            0, -0.0, 1.5, -1e-300, .infinity, -.infinity, .nan, -.nan, .signalingNaN,
            .leastNonzeroMagnitude, .greatestFiniteMagnitude, .pi,
            Double(bitPattern: 0x7FF8_0000_DEAD_BEEF),
        ]
        let floats: [Float] = [0, -0.0, 1.5, .infinity, -.infinity, .nan, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
        #expect(try decode([Double].self, from: bytes(of: doubles)).map(\.bitPattern) == doubles.map(\.bitPattern))
        #expect(try decode([Float].self, from: bytes(of: floats)).map(\.bitPattern) == floats.map(\.bitPattern))
        #expect(bytes(of: 1.0 as Double) == [0, 0, 0, 0, 0, 0, 0xF0, 0x3F])
    }

    @Test func stringsRoundTripWhateverTheirScript() throws {
        let strings = [
            "", "a", "plain ASCII text", "東京の天気は晴れ", "👩‍👩‍👧‍👦🎉👍🏽", "e\u{301}a\u{308}\u{20DD}",
            "mixed: café, naïve, Ελληνικά, русский, עברית, 日本語 🙂",
            String(repeating: "long line ", count: 100), "\u{0}\u{1}\u{7F}", "\u{10FFFF}",
        ]
        try expectRoundTrip(strings)
        for string in strings {
            try expectRoundTrip(string)
            try expectRoundTrip(User(id: string, handle: string, name: string, url: string))
        }
        #expect(bytes(of: "hé") == [3, 0x68, 0xC3, 0xA9])
    }

    @Test func optionalsRoundTripNilOrNotAtEveryPosition() throws {
        let base = Date(timeIntervalSinceReferenceDate: 12.25)
        let full = Message(
            id: "m", authorID: "a", text: "t", createdAt: base, editedAt: base, replyToID: "r", replyToUserID: "ru",
            repostOfID: "p", quoteOfID: "q", contentWarning: "cw", url: "u")
        try expectRoundTrip(full)
        // Each optional field alone, each pair of them, and none.
        for mask in 0 ..< (1 << 7) where mask.nonzeroBitCount <= 2 {
            var value = Message(id: "m", authorID: "a", text: "t", createdAt: base)
            if mask & 1 != 0 { value.editedAt = full.editedAt }
            if mask & 2 != 0 { value.replyToID = full.replyToID }
            if mask & 4 != 0 { value.replyToUserID = full.replyToUserID }
            if mask & 8 != 0 { value.repostOfID = full.repostOfID }
            if mask & 16 != 0 { value.quoteOfID = full.quoteOfID }
            if mask & 32 != 0 { value.contentWarning = "" }
            if mask & 64 != 0 { value.url = full.url }
            try expectRoundTrip(value)
        }
        let values: [Int??] = [.none, .some(.none), .some(.some(42))]
        #expect(try decode([Int??].self, from: bytes(of: values)) == values)
        #expect(bytes(of: values) == [3, 0, 1, 0, 1, 1, 84])
        try expectRoundTrip([Optional<String>.none, "x", nil])
    }

    @Test func arraysRoundTripEmptyOrLong() throws {
        try expectRoundTrip([Int]())
        try expectRoundTrip([User]())
        try expectRoundTrip(TimelinePage(messages: []))
        // More than 127 elements: the count takes two bytes.
        let long = (0 ..< 300).map { Attachment(kind: "k\($0)", url: $0.isMultiple(of: 2) ? nil : "u") }
        try expectRoundTrip(long)
        #expect(bytes(of: long).prefix(2) == [0xAC, 0x02])
        try expectRoundTrip([[Int]](repeating: Array(0 ..< 130), count: 3))
    }

    @Test func datesRoundTripAsTheirReferenceInterval() throws {
        let dates = [
            Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSince1970: 1_700_000_000.123),
            Date.distantPast, Date.distantFuture, Date(timeIntervalSinceReferenceDate: -1.5),
        ]
        try expectRoundTrip(dates)
        #expect(bytes(of: Date(timeIntervalSinceReferenceDate: 1)) == BinaryEncoderTestsSupport.littleEndian(1.0))
    }

    @Test func bytesRoundTripAsRawBytes() throws {
        try expectRoundTrip([UInt8](0 ... 255))
        try expectRoundTrip([UInt8]())
        #expect(bytes(of: [UInt8]([1, 2, 200])) == [3, 1, 2, 200])
    }

    @Test func timelineModelRoundTrips() throws {
        let snapshot = Self.sampleSnapshot
        #expect(try BinaryDecoder().decode(TimelineSnapshot.self, from: BinaryEncoder().encode(snapshot)) == snapshot)
        #expect(bytes(of: snapshot) == BinaryEncoder().encode(snapshot))
        try expectRoundTrip(snapshot.window.messages)
        var withCursor = snapshot
        withCursor.window.nextCursor = TimelineCursor(createdAtMilliseconds: -5, id: "cursor-id")
        try expectRoundTrip(withCursor)
    }

    /// Each snapshot type's binary field list and its `Codable` keys (what `snapshot --dump`
    /// prints) name the same fields: a property added to a type, and so to its synthesized
    /// Codable, but not to its field list, fails here (as does a name mistyped in a list).
    @Test func everySnapshotFieldListNamesEveryCodableKey() throws {
        var snapshot = Self.sampleSnapshot
        snapshot.window.nextCursor = TimelineCursor(createdAtMilliseconds: 5, id: "c")
        // Fully populated values: JSON leaves absent optionals out.
        let message = snapshot.window.messages[0], user = snapshot.window.users[0]
        let attachment = try #require(message.attachments.first { $0.url != nil && $0.altText != nil })
        try expectFieldListMatchesCodableKeys(snapshot)
        try expectFieldListMatchesCodableKeys(snapshot.state)
        try expectFieldListMatchesCodableKeys(snapshot.window)
        try expectFieldListMatchesCodableKeys(try #require(snapshot.window.nextCursor))
        try expectFieldListMatchesCodableKeys(message)
        try expectFieldListMatchesCodableKeys(message.moderation)
        try expectFieldListMatchesCodableKeys(message.moderation.labels[0])
        try expectFieldListMatchesCodableKeys(message.moderation.filterMatches[0])
        try expectFieldListMatchesCodableKeys(attachment)
        try expectFieldListMatchesCodableKeys(user)
    }

    /// Stepping over a record (what a snapshot preview does with the messages and users it does
    /// not show) follows the same field list as reading it: it ends where reading ends, for every
    /// record type, with every optional field present and absent.
    @Test func skippingARecordStepsOverExactlyWhatReadingReads() throws {
        let snapshot = Self.sampleSnapshot
        try expectSkipMatchesRead(snapshot)
        try expectSkipMatchesRead(snapshot.state)
        try expectSkipMatchesRead(snapshot.window)
        try expectSkipMatchesRead(TimelinePage(messages: []))
        for message in snapshot.window.messages + snapshot.window.related {
            try expectSkipMatchesRead(message)
            for attachment in message.attachments { try expectSkipMatchesRead(attachment) }
        }
        for user in snapshot.window.users { try expectSkipMatchesRead(user) }
        try expectSkipMatchesRead(try #require(snapshot.window.nextCursor))
    }

    // MARK: Refusals

    @Test func everyTruncationThrows() throws {
        let bytes = BinaryEncoder().encode(Self.sampleSnapshot)
        for length in 0 ..< bytes.count {
            #expect(throws: BinaryDecodingError.self) {
                try BinaryDecoder().decode(TimelineSnapshot.self, from: Array(bytes[0 ..< length]))
            }
        }
    }

    @Test func trailingBytesAreRefused() throws {
        let bytes = BinaryEncoder().encode(Self.sampleSnapshot)
        let error = try #require(throws: BinaryDecodingError.self) {
            try BinaryDecoder().decode(TimelineSnapshot.self, from: bytes + [0])
        }
        guard case .trailingBytes(let count) = error.reason else {
            Issue.record("expected trailingBytes, got \(error)")
            return
        }
        #expect(count == 1)
        #expect(error.offset == bytes.count)
    }

    @Test func hugeDeclaredCountsAreRefusedBeforeAllocating() throws {
        // A count of about four billion (and of 2^63) in a few bytes, for every kind of count.
        let fourBillion: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0x0F]
        let huge: [UInt8] = [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]
        for count in [fourBillion, huge] {
            let errors = [
                try expectDecodingError([Int].self, from: count + [1, 2, 3]),
                try expectDecodingError([UInt8].self, from: count + [1, 2, 3]),
                try expectDecodingError(String.self, from: count + [1, 2, 3]),
                try expectDecodingError([Message].self, from: count + [1, 2, 3]),
                try expectDecodingError([User].self, from: count + [1, 2, 3]),
            ]
            for error in errors {
                guard case .countTooLarge(_, let remaining) = error.reason else {
                    Issue.record("expected countTooLarge, got \(error)")
                    continue
                }
                #expect(remaining == 3)
            }
        }
    }

    @Test func invalidUTF8IsRefused() throws {
        let invalid: [[UInt8]] = [
            [0xFF], [0xC3, 0x28], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0x80], [0xE6, 0x97],
            // A truncated four-byte sequence followed by ASCII: replacing it keeps the length.
            [0xF0, 0x9F, 0x98, 0x41],
        ]
        for bytes in invalid {
            let error = try expectDecodingError(String.self, from: [UInt8(bytes.count)] + bytes)
            guard case .invalidUTF8 = error.reason else {
                Issue.record("expected invalidUTF8 for \(bytes), got \(error)")
                continue
            }
        }
        // Inside a record, the error names the field.
        let cursor: [UInt8] = [2, 3, 0x61, 0xFF, 0x62]
        let error = try expectDecodingError(TimelineCursor.self, from: cursor)
        #expect(error.codingPath.map(\.stringValue) == ["id"])
    }

    @Test func outOfRangeIntegersAreRefused() throws {
        let error = try expectDecodingError(Int32.self, from: bytes(of: Int64(Int32.max) + 1))
        guard case .integerOutOfRange(let type, let value) = error.reason else {
            Issue.record("expected integerOutOfRange, got \(error)")
            return
        }
        #expect(type == "Int32" && value == "2147483648")
        _ = try expectDecodingError(UInt16.self, from: bytes(of: UInt64(70_000)))
        _ = try expectDecodingError([Int16].self, from: bytes(of: [Int64.min]))
    }

    @Test func malformedVarintsBoolsAndPresenceBytesAreRefused() throws {
        // Eleven bytes with the continuation bit, and a tenth byte that overflows 64 bits.
        for bytes in [[UInt8](repeating: 0x80, count: 11), [UInt8](repeating: 0xFF, count: 9) + [0x02]] {
            let error = try expectDecodingError(UInt64.self, from: bytes)
            guard case .varintOverflow = error.reason else {
                Issue.record("expected varintOverflow, got \(error)")
                continue
            }
        }
        let bool = try expectDecodingError(Bool.self, from: [2])
        guard case .invalidBool(2) = bool.reason else {
            Issue.record("expected invalidBool, got \(bool)")
            return
        }
        let presence = try expectDecodingError(Int?.self, from: [9, 0])
        guard case .invalidPresenceByte(9) = presence.reason else {
            Issue.record("expected invalidPresenceByte, got \(presence)")
            return
        }
    }

    @Test func errorsNameTheFieldPathAndOffset() throws {
        var snapshot = Self.sampleSnapshot
        snapshot.window.messages[1].text = "AB"
        var bytes = BinaryEncoder().encode(snapshot)
        // Corrupt the text of the second message: "AB" becomes an invalid UTF-8 byte.
        let marker = try #require(bytes.indices.first { bytes[$0] == 2 && bytes[$0 + 1] == 0x41 && bytes[$0 + 2] == 0x42 })
        bytes[marker + 1] = 0xFF
        let error = try #require(throws: BinaryDecodingError.self) { try BinaryDecoder().decode(TimelineSnapshot.self, from: bytes) }
        #expect(BinaryCodingKey.render(error.codingPath) == "window.messages[1].text")
        #expect(error.offset == marker)
        #expect(error.description.contains("window.messages[1].text"))
        #expect(error.description.contains("byte \(marker)"))
    }

    @Test func randomMutationsNeverCrash() throws {
        let bytes = BinaryEncoder().encode(Self.sampleSnapshot)
        var random = SplitMix64(seed: 0x5EED)
        var decoded = 0
        for _ in 0 ..< 3000 {
            var mutated = bytes
            for _ in 0 ... random.next() % 4 {
                let index = Int(random.next() % UInt64(mutated.count))
                switch random.next() % 4 {
                case 0: mutated[index] = UInt8(truncatingIfNeeded: random.next())
                case 1: mutated[index] ^= 1 << (random.next() % 8)
                case 2: mutated.remove(at: index)
                default: mutated.insert(UInt8(truncatingIfNeeded: random.next()), at: index)
                }
            }
            // Either outcome is fine; crashing, trapping or hanging is not.
            if (try? BinaryDecoder().decode(TimelineSnapshot.self, from: mutated)) != nil { decoded += 1 }
        }
        #expect(decoded < 3000)
    }

    // MARK: Helpers

    /// `value`'s bytes, as a record field holding it writes them.
    private func bytes<Field: BinaryField>(of value: Field) -> [UInt8] {
        let writer = BinaryWriter()
        value.write(to: writer)
        return writer.bytes
    }

    /// A `Field` from all of `bytes`, as a record field holding it reads it.
    private func decode<Field: BinaryField>(_: Field.Type, from bytes: [UInt8]) throws(BinaryDecodingError) -> Field {
        try BinaryDecoder().decodeWithReader(from: bytes) { reader throws(BinaryDecodingError) in try Field.read(from: reader) }
    }

    private func expectRoundTrip<Field: BinaryField & Equatable>(
        _ value: Field, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(try decode(Field.self, from: bytes(of: value)) == value, sourceLocation: sourceLocation)
    }

    private func expectLimitsRoundTrip<Integer: BinaryField & FixedWidthInteger>(
        _: Integer.Type, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for value in [Integer.min, Integer.max, 0] {
            try expectRoundTrip(value, sourceLocation: sourceLocation)
            try expectRoundTrip([value, value], sourceLocation: sourceLocation)
        }
    }

    /// The names `R`'s field list gives, in order.
    private struct FieldNames: BinaryFieldVisitor {
        var names: [String] = []
        mutating func visit<Field: BinaryField>(_: inout Field, _ name: StaticString) { names.append(name.description) }
    }

    /// `value`'s field list names exactly the keys of its JSON object (Codable).
    private func expectFieldListMatchesCodableKeys<R: BinaryRecord & Encodable>(
        _ value: R, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var names = FieldNames()
        var copy = value
        copy.visitFields(&names)
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(value))
        let keys = try #require(json as? [String: Any], sourceLocation: sourceLocation).keys
        #expect(Set(names.names) == Set(keys), "\(R.self)", sourceLocation: sourceLocation)
        #expect(names.names.count == keys.count, "\(R.self)", sourceLocation: sourceLocation)
    }

    /// Skipping `value`'s bytes ends where reading them ends, with nothing left over.
    private func expectSkipMatchesRead<R: BinaryRecord & Equatable>(
        _ value: R, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let bytes = bytes(of: value)
        #expect(try decode(R.self, from: bytes) == value, sourceLocation: sourceLocation)
        try BinaryDecoder().decodeWithReader(from: bytes) { reader throws(BinaryDecodingError) in try R.skip(in: reader) }
        for length in 0 ..< bytes.count {
            #expect(throws: BinaryDecodingError.self, sourceLocation: sourceLocation) {
                try BinaryDecoder().decodeWithReader(from: Array(bytes[0 ..< length])) { reader throws(BinaryDecodingError) in
                    try R.skip(in: reader)
                }
            }
        }
    }

    private func expectDecodingError<Field: BinaryField>(
        _ type: Field.Type,
        from bytes: [UInt8],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> BinaryDecodingError {
        do {
            _ = try decode(type, from: bytes)
        } catch {
            return error
        }
        Issue.record("decoding \(type) from \(bytes.prefix(32)) succeeded", sourceLocation: sourceLocation)
        throw TestFailure()
    }

    static var sampleSnapshot: TimelineSnapshot {
        let base = Date(timeIntervalSince1970: 1_700_000_000)
        let users = [
            User(id: "u1", handle: "alice@example.social", name: "Alice 🙂", url: "https://example.social/@alice"),
            User(id: "109876543210987654321", handle: "bob", name: "Bob", url: nil, isBot: true),
        ]
        let messages = [
            Message(
                id: "1", authorID: "u1", text: "Hello, 世界! 🎉", createdAt: base, editedAt: base.addingTimeInterval(60),
                replyToID: "0", replyToUserID: "u2", repostOfID: "r", quoteOfID: "q", contentWarning: "cw",
                url: "https://example.social/@alice/1",
                attachments: [Attachment(kind: "image", url: "https://x/1.png", altText: "a cat"), Attachment(kind: "video")],
                likeCount: 5, repostCount: 1_000_000, replyCount: -1, isRead: true, visibility: .direct,
                moderation: ModerationFacts(labels: [ContentLabel(source: "did:plc:labeler", value: "porn", isOnAuthor: true)],
                                            filterMatches: [FilterMatch(title: "spoilers", action: .blur)]),
                warning: "Filtered: spoilers"
            ),
            Message(id: "2", authorID: "109876543210987654321", text: "", createdAt: base.addingTimeInterval(-1.5)),
            Message(id: "3", authorID: "u1", text: String(repeating: "long text ", count: 30), createdAt: .distantPast, likeCount: Int.max),
        ]
        let related = [Message(id: "r", authorID: "u1", text: "reposted", createdAt: base, attachments: [Attachment(kind: "gifv", altText: "")])]
        let state = TimelineState(databaseID: "db-1", generation: 42, messageCount: 3, unreadCount: 2, userCount: 2)
        let window = TimelinePage(messages: messages, related: related, users: users, nextCursor: TimelineCursor(createdAt: base, id: "3"))
        return TimelineSnapshot(state: state, builtAt: base, limit: 200, window: window)
    }
}

private struct TestFailure: Error {}

private enum BinaryEncoderTestsSupport {
    static func littleEndian(_ value: Double) -> [UInt8] {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) }
    }
}
