#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import TimelineKit

@Suite struct BinaryCoderTests {
    // MARK: Round trips

    @Test func integersOfEveryWidthRoundTripAtTheirLimits() throws {
        for value in [Limits.minimum, Limits.maximum, Limits.zero] {
            try expectRoundTrip(value)
            try expectRoundTrip([value, value])
        }
        // Top-level single values, too.
        try expectRoundTrip(Int.min)
        try expectRoundTrip(Int8.max)
        try expectRoundTrip(UInt64.max)
        try expectRoundTrip([Int64.min, -1, 0, 1, 63, 64, -64, -65, Int64.max])
    }

    @Test func varintsAreCompact() throws {
        #expect(try BinaryEncoder().encode(0 as UInt64) == [0])
        #expect(try BinaryEncoder().encode(127 as UInt64) == [0x7F])
        #expect(try BinaryEncoder().encode(128 as UInt64) == [0x80, 0x01])
        #expect(try BinaryEncoder().encode(-1 as Int) == [0x01])
        #expect(try BinaryEncoder().encode(1 as Int) == [0x02])
        #expect(try BinaryEncoder().encode(UInt64.max).count == 10)
        #expect(try BinaryEncoder().encode(200 as UInt8) == [200])
        #expect(try BinaryEncoder().encode(-2 as Int8) == [0xFE])
    }

    @Test func boolsRoundTrip() throws {
        try expectRoundTrip(true)
        try expectRoundTrip(false)
        try expectRoundTrip([true, false, true])
        #expect(try BinaryEncoder().encode(true) == [1])
    }

    @Test func floatingPointRoundTripsBitForBit() throws {
        let doubles: [Double] = [
            0, -0.0, 1.5, -1e-300, .infinity, -.infinity, .nan, -.nan, .signalingNaN,
            .leastNonzeroMagnitude, .greatestFiniteMagnitude, .pi,
            Double(bitPattern: 0x7FF8_0000_DEAD_BEEF),
        ]
        let floats: [Float] = [0, -0.0, 1.5, .infinity, -.infinity, .nan, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
        let decodedDoubles = try roundTrip(doubles)
        let decodedFloats = try roundTrip(floats)
        #expect(decodedDoubles.map(\.bitPattern) == doubles.map(\.bitPattern))
        #expect(decodedFloats.map(\.bitPattern) == floats.map(\.bitPattern))
        let pair = try roundTrip(FloatPair(float: -.nan, double: -0.0))
        #expect(pair.float.bitPattern == (-Float.nan).bitPattern)
        #expect(pair.double.bitPattern == (-0.0 as Double).bitPattern)
        #expect(try BinaryEncoder().encode(1.0 as Double) == [0, 0, 0, 0, 0, 0, 0xF0, 0x3F])
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
            try expectRoundTrip(Tagged(tag: string, count: 1))
        }
        #expect(try BinaryEncoder().encode("hé") == [3, 0x68, 0xC3, 0xA9])
    }

    @Test func nestedStructsRoundTrip() throws {
        let value = Outer(
            name: "outer",
            inner: Inner(id: 1, tags: ["a", "b"], point: Point(x: -3, y: 4)),
            inners: [Inner(id: 2, tags: [], point: Point(x: 0, y: 0)), Inner(id: 3, tags: ["c"], point: Point(x: 1, y: -1))]
        )
        try expectRoundTrip(value)
    }

    @Test func optionalsRoundTripNilOrNotAtEveryPosition() throws {
        let full = Optionals(
            int: -5, string: "s", bool: false, double: 2.5, date: Date(timeIntervalSinceReferenceDate: 12.25),
            point: Point(x: 1, y: 2), list: [1, 2], nested: .some(nil), uint8: 0, int16: Int16.min, last: "end"
        )
        try expectRoundTrip(full)
        try expectRoundTrip(Optionals())
        // Each field alone, each pair of fields, and all of them.
        for mask in 0 ..< (1 << 11) where mask.nonzeroBitCount <= 2 || mask == (1 << 11) - 1 {
            var value = Optionals()
            if mask & 1 != 0 { value.int = full.int }
            if mask & 2 != 0 { value.string = full.string }
            if mask & 4 != 0 { value.bool = full.bool }
            if mask & 8 != 0 { value.double = full.double }
            if mask & 16 != 0 { value.date = full.date }
            if mask & 32 != 0 { value.point = full.point }
            if mask & 64 != 0 { value.list = full.list }
            if mask & 128 != 0 { value.nested = .some(.some(7)) }
            if mask & 256 != 0 { value.uint8 = 255 }
            if mask & 512 != 0 { value.int16 = Int16.max }
            if mask & 1024 != 0 { value.last = "" }
            try expectRoundTrip(value)
        }
    }

    @Test func optionalsOfOptionalsKeepAllThreeStates() throws {
        let values: [Int??] = [.none, .some(.none), .some(.some(42))]
        try expectRoundTrip(values)
        for value in values {
            let decoded = try roundTrip(DoubleOptional(value: value))
            #expect(decoded == DoubleOptional(value: value))
            let topLevel = try BinaryDecoder().decode(Int??.self, from: BinaryEncoder().encode(value))
            #expect(topLevel == value)
        }
        try expectRoundTrip([Optional<String>.none, "x", nil])
    }

    @Test func arraysRoundTripEmptyOrLong() throws {
        try expectRoundTrip([Int]())
        try expectRoundTrip([Point]())
        try expectRoundTrip(Outer(name: "", inner: Inner(id: 0, tags: [], point: Point(x: 0, y: 0)), inners: []))
        // More than 127 elements: the count takes two bytes and is moved into place.
        let long = (0 ..< 300).map { Point(x: $0, y: -$0) }
        try expectRoundTrip(long)
        try expectRoundTrip([[Int]](repeating: Array(0 ..< 130), count: 3))
        try expectRoundTrip(Set(["a", "b", "c"]))
    }

    /// The format stores no keys, so a dictionary, whatever its keys, is refused by name on both
    /// sides, never coded without them.
    @Test func dictionariesAreRefusedWithAClearError() throws {
        let dictionaries: [any Encodable] = [
            ["one": 1, "two": 2], [1: "one"], [String: Int](), [true: "yes"], [Weekday.monday: 1],
            Keyed(byName: ["a": Point(x: 1, y: 1)], byID: [7: "seven"], tail: 9),
        ]
        for value in dictionaries {
            let error = try #require(throws: BinaryEncodingError.self) { try BinaryEncoder().encode(value) }
            try expectUnsupported(error.reason, "a dictionary")
            #expect(error.description.contains("a dictionary cannot be encoded"))
        }
        let keyed = try #require(throws: BinaryEncodingError.self) {
            try BinaryEncoder().encode(Keyed(byName: [:], byID: [:], tail: 9))
        }
        #expect(BinaryCodingKey.render(keyed.codingPath) == "byName")
        for type in [[String: Int].self, [Int: String].self, Keyed.self] as [any Decodable.Type] {
            try expectUnsupported(try expectDecodingError(type, from: [0, 0, 0]).reason, "a dictionary")
        }
    }

    @Test func enumsRoundTripWithRawValues() throws {
        try expectRoundTrip([Color.red, .green, .blue])
        try expectRoundTrip([Priority.low, .high])
        try expectRoundTrip(Painting(title: "t", background: .green, priority: .low))
    }

    /// Enums with associated values (and cases of enums without a raw value) code their case as
    /// a key in front of a nested container: refused on both sides.
    @Test func enumsWithAssociatedValuesAreRefusedWithAClearError() throws {
        let shapes: [Shape] = [.circle(radius: 2.5), .rectangle(width: 1, height: 2), .point, .labelled("x", Point(x: 1, y: 2))]
        for shape in shapes {
            let error = try #require(throws: BinaryEncodingError.self) { try BinaryEncoder().encode(shape) }
            try expectUnsupported(error.reason, "a nested container")
        }
        let inArray = try #require(throws: BinaryEncodingError.self) {
            try BinaryEncoder().encode(Drawing(title: "t", shapes: [.point, .circle(radius: 1)], background: .red))
        }
        #expect(BinaryCodingKey.render(inArray.codingPath) == "shapes[0].point")
        try expectUnsupported(try expectDecodingError(Shape.self, from: [0, 5, 0x70, 0x6F, 0x69, 0x6E, 0x74]).reason, "a type that lists its keys")
    }

    @Test func datesRoundTripAsTheirReferenceInterval() throws {
        let dates = [
            Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSince1970: 1_700_000_000.123),
            Date.distantPast, Date.distantFuture, Date(timeIntervalSinceReferenceDate: -1.5),
        ]
        try expectRoundTrip(dates)
        let bytes = try BinaryEncoder().encode(Date(timeIntervalSinceReferenceDate: 1))
        #expect(bytes == BinaryEncoderTestsSupport.littleEndian(1.0))
    }

    @Test func bytesRoundTripAsRawBytes() throws {
        let bytes = [UInt8](0 ... 255)
        try expectRoundTrip(bytes)
        try expectRoundTrip([UInt8]())
        try expectRoundTrip(Data(bytes))
        try expectRoundTrip(Blob(bytes: [1, 2, 3], data: Data([4, 5]), after: 6))
        // A byte array is its count, then the bytes: the same as its element-by-element encoding.
        #expect(try BinaryEncoder().encode([UInt8]([1, 2, 200])) == [3, 1, 2, 200])
        #expect(try BinaryEncoder().encode(Data([1, 2, 200])) == [3, 1, 2, 200])
    }

    @Test func nestedContainersAndSuperEncodersAreRefusedWithAClearError() throws {
        let hand = try #require(throws: BinaryEncodingError.self) {
            try BinaryEncoder().encode(Hand(name: "custom", numbers: [1, 2, 3], inner: Point(x: 5, y: 6), flag: true))
        }
        try expectUnsupported(hand.reason, "a nested container")
        #expect(BinaryCodingKey.render(hand.codingPath) == "numbers")
        let derived = try #require(throws: BinaryEncodingError.self) { try BinaryEncoder().encode(Derived(base: 4, extra: "x")) }
        try expectUnsupported(derived.reason, "a super encoder")
        #expect(derived.description.contains("a super encoder (a subclass's encode(to:)) cannot be encoded"))

        // Decoding asks for them after the values before them: refused there.
        try expectUnsupported(try expectDecodingError(Hand.self, from: [1, 0x61, 3, 2, 4, 6]).reason, "a nested container")
        try expectUnsupported(try expectDecodingError(Derived.self, from: [1, 0x78, 8]).reason, "a super decoder")
    }

    @Test func int128IsRefusedWithAClearError() throws {
        for value in [Int128.min, 0, 1] as [Int128] {
            let error = try #require(throws: BinaryEncodingError.self) { try BinaryEncoder().encode(value) }
            #expect(error.description.contains("Int128"))
        }
        let unsigned = try #require(throws: BinaryEncodingError.self) { try BinaryEncoder().encode([UInt128.max]) }
        #expect(unsigned.description.contains("UInt128"))
        let field = try #require(throws: BinaryEncodingError.self) { try BinaryEncoder().encode(Wide(name: "n", wide: 7)) }
        #expect(BinaryCodingKey.render(field.codingPath) == "wide" || field.description.contains("wide"))
        let decoding = try expectDecodingError(Int128.self, from: [2])
        #expect(decoding.description.contains("Int128"))
    }

    @Test func timelineModelRoundTrips() throws {
        let snapshot = Self.sampleSnapshot
        try expectRoundTrip(snapshot)
        try expectRoundTrip(snapshot.window.messages)
    }

    /// The snapshot's types are written and read by their field lists (`BinaryRecord`); those
    /// must write exactly what their synthesized `Codable` writes, and read it back, so that the
    /// payload stays a Codable payload. A property added to the model but not to its field list,
    /// or listed out of declaration order, fails here.
    @Test func recordsWriteAndReadWhatCodableDoes() throws {
        let page = Self.sampleSnapshot.window
        let bytes = try BinaryEncoder().encode(page)
        #expect(try BinaryEncoder(writesRecords: false).encode(page) == bytes)
        let direct = try BinaryDecoder(readsRecords: true).decode(TimelinePage.self, from: bytes)
        let codable = try BinaryDecoder(readsRecords: false).decode(TimelinePage.self, from: bytes)
        #expect(direct == page)
        #expect(codable == page)
        // Each field of a fully populated message, user and attachment is read.
        for message in page.messages + page.related {
            let bytes = try BinaryEncoder().encode(message)
            #expect(try BinaryEncoder(writesRecords: false).encode(message) == bytes)
            #expect(try BinaryDecoder(readsRecords: false).decode(Message.self, from: bytes) == message)
            #expect(try BinaryDecoder().decode(Message.self, from: bytes) == message)
        }
        for user in page.users {
            #expect(try BinaryDecoder().decode(User.self, from: BinaryEncoder().encode(user)) == user)
            #expect(try BinaryEncoder(writesRecords: false).encode(user) == BinaryEncoder().encode(user))
        }
        var snapshot = Self.sampleSnapshot
        snapshot.window.nextCursor = TimelineCursor(createdAtMilliseconds: -5, id: "cursor-id")
        let snapshotBytes = try BinaryEncoder().encode(snapshot)
        #expect(try BinaryEncoder(writesRecords: false).encode(snapshot) == snapshotBytes)
        #expect(try BinaryDecoder(readsRecords: true).decode(TimelineSnapshot.self, from: snapshotBytes) == snapshot)
        #expect(try BinaryDecoder(readsRecords: false).decode(TimelineSnapshot.self, from: snapshotBytes) == snapshot)
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

    @Test func decodesFromSlicesAndRawBuffers() throws {
        let bytes = try BinaryEncoder().encode(Point(x: 7, y: -7))
        let padded = [0xAA] + bytes + [0xBB]
        #expect(try BinaryDecoder().decode(Point.self, from: padded[1 ..< padded.count - 1]) == Point(x: 7, y: -7))
        let fromRaw = try bytes.withUnsafeBytes { try BinaryDecoder().decode(Point.self, from: $0) }
        #expect(fromRaw == Point(x: 7, y: -7))
        #expect(try BinaryDecoder().decode([Int].self, from: [0]) == [])
    }

    // MARK: Refusals

    @Test func everyTruncationThrows() throws {
        let bytes = try BinaryEncoder().encode(Self.sampleSnapshot)
        for length in 0 ..< bytes.count {
            #expect(throws: BinaryDecodingError.self) {
                try BinaryDecoder().decode(TimelineSnapshot.self, from: bytes[0 ..< length])
            }
        }
        let outer = try BinaryEncoder().encode(Self.sampleOuter)
        for length in 0 ..< outer.count {
            #expect(throws: BinaryDecodingError.self) {
                try BinaryDecoder().decode(Outer.self, from: outer[0 ..< length])
            }
        }
    }

    @Test func trailingBytesAreRefused() throws {
        let bytes = try BinaryEncoder().encode(Point(x: 1, y: 2))
        let error = try expectDecodingError(Point.self, from: bytes + [0])
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
            for type in [[Int].self, [Point].self, [UInt8].self, Data.self, String.self, [Message].self] as [any Decodable.Type] {
                let error = try expectDecodingError(type, from: count + [1, 2, 3])
                guard case .countTooLarge(_, let remaining) = error.reason else {
                    Issue.record("expected countTooLarge for \(type), got \(error)")
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
        // Inside a struct, the error names the field.
        let tagged: [UInt8] = [3, 0x61, 0xFF, 0x62, 2]
        let error = try expectDecodingError(Tagged.self, from: tagged)
        #expect(error.codingPath.map(\.stringValue) == ["tag"])
    }

    @Test func outOfRangeIntegersAreRefused() throws {
        let tooBig = try BinaryEncoder().encode(Int64(Int32.max) + 1)
        let error = try expectDecodingError(Int32.self, from: tooBig)
        guard case .integerOutOfRange(let type, let value) = error.reason else {
            Issue.record("expected integerOutOfRange, got \(error)")
            return
        }
        #expect(type == "Int32" && value == "2147483648")
        _ = try expectDecodingError(UInt16.self, from: BinaryEncoder().encode(UInt64(70_000)))
        _ = try expectDecodingError([Int16].self, from: BinaryEncoder().encode([Int64.min]))
        _ = try expectDecodingError(Limits.self, from: BinaryEncoder().encode([UInt64.max]))
    }

    @Test func malformedVarintsBoolsAndMarkersAreRefused() throws {
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
        // An optional's presence byte, through `decodeIfPresent` and through `Optional.init(from:)`.
        let presence = try expectDecodingError(DoubleOptional.self, from: [7])
        guard case .invalidPresenceByte(7) = presence.reason else {
            Issue.record("expected invalidPresenceByte, got \(presence)")
            return
        }
        let single = try expectDecodingError(Int?.self, from: [9, 0])
        guard case .invalidPresenceByte(9) = single.reason else {
            Issue.record("expected invalidPresenceByte, got \(single)")
            return
        }
    }

    @Test func errorsNameTheCodingPathAndOffset() throws {
        var snapshot = Self.sampleSnapshot
        snapshot.window.messages[1].text = "AB"
        var bytes = try BinaryEncoder().encode(snapshot)
        // Corrupt the text of the second message: "AB" becomes an invalid UTF-8 byte.
        let marker = try #require(bytes.indices.first { bytes[$0] == 2 && bytes[$0 + 1] == 0x41 && bytes[$0 + 2] == 0x42 })
        bytes[marker + 1] = 0xFF
        let error = try expectDecodingError(TimelineSnapshot.self, from: bytes)
        #expect(BinaryCodingKey.render(error.codingPath) == "window.messages[1].text")
        #expect(error.offset == marker)
        #expect(error.description.contains("window.messages[1].text"))
        #expect(error.description.contains("byte \(marker)"))
    }

    @Test func randomMutationsNeverCrash() throws {
        let bytes = try BinaryEncoder().encode(Self.sampleSnapshot)
        let outer = try BinaryEncoder().encode(Self.sampleOuter)
        var random = SplitMix64(seed: 0x5EED)
        var decoded = 0
        for round in 0 ..< 3000 {
            var mutated = round.isMultiple(of: 3) ? outer : bytes
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
            if round.isMultiple(of: 3) {
                if (try? BinaryDecoder().decode(Outer.self, from: mutated)) != nil { decoded += 1 }
            } else {
                if (try? BinaryDecoder().decode(TimelineSnapshot.self, from: mutated)) != nil { decoded += 1 }
            }
        }
        #expect(decoded < 3000)
    }

    @Test func arrayElementsThatEncodeToNothingAreRefused() throws {
        #expect(throws: BinaryEncodingError.self) { try BinaryEncoder().encode([Empty(), Empty()]) }
        // Hostile data cannot make empty elements spin either.
        let error = try expectDecodingError([Empty].self, from: [3, 0, 0, 0])
        guard case .emptyElement = error.reason else {
            Issue.record("expected emptyElement, got \(error)")
            return
        }
        // An empty struct on its own, or next to other data, is fine.
        try expectRoundTrip(Empty())
        try expectRoundTrip(WithEmpty(before: 1, empty: Empty(), after: 2))
    }

    @Test func deepNestingIsRefusedOnBothSides() throws {
        var list = Chain(next: nil)
        for _ in 0 ..< 200 { list = Chain(next: list) }
        let error = try #require(throws: BinaryEncodingError.self) { try BinaryEncoder().encode(list) }
        guard case .nestingTooDeep = error.reason else {
            Issue.record("expected nestingTooDeep, got \(error)")
            return
        }
        // 200 levels of "present" bytes, as hostile input would declare them.
        let decodeError = try expectDecodingError(Chain.self, from: [UInt8](repeating: 1, count: 200) + [0])
        guard case .nestingTooDeep = decodeError.reason else {
            Issue.record("expected nestingTooDeep, got \(decodeError)")
            return
        }
        var short = Chain(next: nil)
        for _ in 0 ..< 20 { short = Chain(next: short) }
        try expectRoundTrip(short)
    }

    @Test func errorsThrownByTheValueAreWrapped() throws {
        let error = try #require(throws: BinaryDecodingError.self) {
            try BinaryDecoder().decode(Color.self, from: BinaryEncoder().encode("purple"))
        }
        guard case .valueRejected(let underlying) = error.reason else {
            Issue.record("expected valueRejected, got \(error)")
            return
        }
        #expect(underlying is DecodingError)
        let encodeError = try #require(throws: BinaryEncodingError.self) { try BinaryEncoder().encode(Refusing()) }
        guard case .valueRejected = encodeError.reason else {
            Issue.record("expected valueRejected, got \(encodeError)")
            return
        }
    }

    // MARK: Helpers

    private func roundTrip<T: Codable>(_ value: T) throws -> T {
        try BinaryDecoder().decode(T.self, from: BinaryEncoder().encode(value))
    }

    private func expectRoundTrip<T: Codable & Equatable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let bytes = try BinaryEncoder().encode(value)
        let decoded = try BinaryDecoder().decode(T.self, from: bytes)
        #expect(decoded == value, sourceLocation: sourceLocation)
    }

    private func expectUnsupported(
        _ reason: some Sendable, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        switch reason {
        case let reason as BinaryEncodingError.Reason:
            guard case .unsupported(let found) = reason else { break }
            #expect(found.hasPrefix(what), sourceLocation: sourceLocation)
            return
        case let reason as BinaryDecodingError.Reason:
            guard case .unsupported(let found) = reason else { break }
            #expect(found.hasPrefix(what), sourceLocation: sourceLocation)
            return
        default:
            break
        }
        Issue.record("expected unsupported(\(what)), got \(reason)", sourceLocation: sourceLocation)
    }

    /// Skipping `value`'s bytes ends where reading them ends, with nothing left over.
    private func expectSkipMatchesRead<R: BinaryRecord & Equatable>(
        _ value: R, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let bytes = try BinaryEncoder().encode(value)
        let read = try BinaryDecoder().decodeWithReader(from: bytes) { reader in try R.read(from: reader) }
        #expect(read == value, sourceLocation: sourceLocation)
        try BinaryDecoder().decodeWithReader(from: bytes) { reader in try R.skip(in: reader) }
        for length in 0 ..< bytes.count {
            #expect(throws: BinaryDecodingError.self, sourceLocation: sourceLocation) {
                try BinaryDecoder().decodeWithReader(from: Array(bytes[0 ..< length])) { reader in try R.skip(in: reader) }
            }
        }
    }

    private static let sampleOuter = Outer(
        name: "outer",
        inner: Inner(id: 1, tags: ["a", "b"], point: Point(x: -3, y: 4)),
        inners: [Inner(id: 2, tags: [], point: Point(x: 0, y: 0)), Inner(id: 3, tags: ["c"], point: Point(x: 1, y: -1))]
    )

    private func expectDecodingError(
        _ type: any Decodable.Type,
        from bytes: [UInt8],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> BinaryDecodingError {
        func decode<T: Decodable>(_: T.Type) throws(BinaryDecodingError) { _ = try BinaryDecoder().decode(T.self, from: bytes) }
        do {
            try decode(type)
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
                likeCount: 5, repostCount: 1_000_000, replyCount: -1, isRead: true
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

private struct Limits: Codable, Equatable {
    var int: Int, int8: Int8, int16: Int16, int32: Int32, int64: Int64
    var uint: UInt, uint8: UInt8, uint16: UInt16, uint32: UInt32, uint64: UInt64

    static let minimum = Limits(
        int: .min, int8: .min, int16: .min, int32: .min, int64: .min,
        uint: .min, uint8: .min, uint16: .min, uint32: .min, uint64: .min
    )
    static let maximum = Limits(
        int: .max, int8: .max, int16: .max, int32: .max, int64: .max,
        uint: .max, uint8: .max, uint16: .max, uint32: .max, uint64: .max
    )
    static let zero = Limits(
        int: 0, int8: 0, int16: 0, int32: 0, int64: 0,
        uint: 0, uint8: 0, uint16: 0, uint32: 0, uint64: 0
    )
}

private struct Wide: Codable {
    var name: String
    var wide: Int128
}

private struct FloatPair: Codable {
    var float: Float
    var double: Double
}

private struct Tagged: Codable, Equatable {
    var tag: String
    var count: Int
}

private struct Point: Codable, Hashable {
    var x: Int
    var y: Int
}

private struct Inner: Codable, Equatable {
    var id: UInt32
    var tags: [String]
    var point: Point
}

private struct Outer: Codable, Equatable {
    var name: String
    var inner: Inner
    var inners: [Inner]
}

private struct Optionals: Codable, Equatable {
    var int: Int?
    var string: String?
    var bool: Bool?
    var double: Double?
    var date: Date?
    var point: Point?
    var list: [Int]?
    var nested: Int??
    var uint8: UInt8?
    var int16: Int16?
    var last: String?
}

private struct DoubleOptional: Codable, Equatable {
    var value: Int??
}

private struct Keyed: Codable, Equatable {
    var byName: [String: Point]
    var byID: [Int: String]
    var tail: Int
}

private enum Weekday: String, Codable, CodingKeyRepresentable {
    case monday, friday
}

private enum Color: String, Codable {
    case red, green, blue
}

private enum Priority: Int, Codable {
    case low = -1
    case high = 1000
}

private enum Shape: Codable, Equatable {
    case circle(radius: Double)
    case rectangle(width: Int, height: Int)
    case point
    case labelled(String, Point)
}

private struct Drawing: Codable, Equatable {
    var title: String
    var shapes: [Shape]
    var background: Color
}

private struct Painting: Codable, Equatable {
    var title: String
    var background: Color
    var priority: Priority
}

private struct Blob: Codable, Equatable {
    var bytes: [UInt8]
    var data: Data
    var after: Int
}

private struct Empty: Codable, Equatable {}

private struct WithEmpty: Codable, Equatable {
    var before: Int
    var empty: Empty
    var after: Int
}

private final class Chain: Codable {
    let next: Chain?
    init(next: Chain?) { self.next = next }
}

extension Chain: Equatable {
    static func == (a: Chain, b: Chain) -> Bool { a.next == b.next }
}

/// Hand-written Codable that uses nested keyed and unkeyed containers and a super encoder.
private struct Hand: Codable, Equatable {
    var name: String
    var numbers: [Int]
    var inner: Point
    var flag: Bool

    enum Keys: String, CodingKey { case name, numbers, inner, parent }
    enum InnerKeys: String, CodingKey { case x, y }

    init(name: String, numbers: [Int], inner: Point, flag: Bool) {
        self.name = name
        self.numbers = numbers
        self.inner = inner
        self.flag = flag
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(name, forKey: .name)
        var list = container.nestedUnkeyedContainer(forKey: .numbers)
        for number in numbers { try list.encode(number) }
        var point = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
        try point.encode(inner.x, forKey: .x)
        try point.encode(inner.y, forKey: .y)
        var parent = container.superEncoder(forKey: .parent).singleValueContainer()
        try parent.encode(flag)
        var pairs = encoder.unkeyedContainer()
        var pair = pairs.nestedContainer(keyedBy: InnerKeys.self)
        try pair.encode(1, forKey: .x)
        var empty = pairs.nestedUnkeyedContainer()
        try empty.encodeNil()
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        name = try container.decode(String.self, forKey: .name)
        var list = try container.nestedUnkeyedContainer(forKey: .numbers)
        var numbers: [Int] = []
        while !list.isAtEnd { numbers.append(try list.decode(Int.self)) }
        self.numbers = numbers
        let point = try container.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
        inner = Point(x: try point.decode(Int.self, forKey: .x), y: try point.decode(Int.self, forKey: .y))
        flag = try container.superDecoder(forKey: .parent).singleValueContainer().decode(Bool.self)
        var pairs = try decoder.unkeyedContainer()
        let pair = try pairs.nestedContainer(keyedBy: InnerKeys.self)
        guard try pair.decode(Int.self, forKey: .x) == 1 else { throw TestFailure() }
        var empty = try pairs.nestedUnkeyedContainer()
        guard try empty.decodeNil(), pairs.isAtEnd else { throw TestFailure() }
    }
}

private class Base: Codable {
    var base: Int
    init(base: Int) { self.base = base }
}

private final class Derived: Base {
    var extra: String
    enum Keys: CodingKey { case extra }

    init(base: Int, extra: String) {
        self.extra = extra
        super.init(base: base)
    }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        extra = try container.decode(String.self, forKey: .extra)
        try super.init(from: container.superDecoder())
    }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(extra, forKey: .extra)
        try super.encode(to: container.superEncoder())
    }
}

private struct Refusing: Encodable {
    func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "refused"))
    }
}
