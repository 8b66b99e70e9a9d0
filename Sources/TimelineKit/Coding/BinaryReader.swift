#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `Decoder` behind `BinaryDecoder`: the input bytes and a cursor that every container of
/// one `decode` call reads from, in order (see `BinaryEncoder` for the format).
///
/// Safety: the input is read through an unsafe buffer pointer, for speed. Every read first checks
/// `cursor + size <= end`, and `end <= bytes.count` always holds (`end` starts at `bytes.count`
/// and only ever drops, to 0, in `invalidate()`), so no read leaves the buffer. The buffer is
/// valid only while `BinaryDecoder.decode` runs; it calls `invalidate()` before returning, so a
/// reader that a type's `init(from:)` kept reads nothing afterwards instead of freed memory.
///
/// Coding paths: the reader does not track where it is while decoding (that bookkeeping cost
/// several percent of the decoding time), so `codingPath` is always empty. A failure's path is
/// built instead as its `BinaryDecodingError` travels up: each container adds its key.
final class BinaryReader: Decoder {
    // The mutable state is `@exclusivity(unchecked)`: the dynamic exclusivity checks Swift
    // would otherwise run on every access to a class property cost more than the reads. The
    // accesses never overlap: each is a plain load or store, or an append that calls no other
    // code while it runs.

    /// The input. Read only at offsets below `end`.
    private let bytes: UnsafeBufferPointer<UInt8>
    /// The position of the next byte to read; `0 <= cursor <= end`.
    @exclusivity(unchecked) private(set) var cursor = 0
    /// The end of the readable input: `bytes.count`, or 0 once invalidated.
    @exclusivity(unchecked) private(set) var end: Int
    /// An error found where Codable gives no way to throw (single-value `decodeNil()`); thrown
    /// by the next single-value decode, and at the end at the latest.
    @exclusivity(unchecked) private(set) var deferredError: BinaryDecodingError?
    /// How many `init(from:)` calls are running inside each other.
    @exclusivity(unchecked) private var nesting = 0
    /// The types decoded so far (see `route(for:)`), and at the same index how each is decoded.
    @exclusivity(unchecked) private var routedTypes: [ObjectIdentifier] = []
    @exclusivity(unchecked) private var routes: [Route] = []

    /// How a type that is not a leaf is decoded.
    private enum Route {
        /// Through its `init(from:)` and the Codable containers.
        case codable
        /// Straight from the reader (`BinaryDecodable`).
        case direct(any BinaryDecodable.Type)
        /// As an array (`BinaryDecodableArray`).
        case array(any BinaryDecodableArray.Type)
    }

    /// Whether `BinaryDecodable` types are read directly (always, except in the tests that
    /// check the direct route against the Codable one).
    private let decodesDirectly: Bool

    init(_ bytes: UnsafeBufferPointer<UInt8>, decodesDirectly: Bool = true) {
        self.bytes = bytes
        self.end = bytes.count
        self.decodesDirectly = decodesDirectly
    }

    /// Makes every later read fail: called before the input's memory goes away.
    func invalidate() {
        end = 0
        cursor = 0
    }

    /// How many bytes are left to read.
    @inline(__always)
    var remaining: Int { end - cursor }

    // MARK: Decoder

    /// Always empty (see the type's documentation); errors carry the full path.
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try keyedContainer(keyedBy: Key.self)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try makeUnkeyedContainer()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueBinaryDecodingContainer(reader: self)
    }

    /// A keyed container: with the key table read first if `Key` is the standard library's
    /// dictionary key, positional otherwise.
    func keyedContainer<Key: CodingKey>(keyedBy _: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if DictionaryCodingKeyType.matches(Key.self) {
            return KeyedDecodingContainer(try DictionaryBinaryDecodingContainer<Key>(reader: self))
        }
        return KeyedDecodingContainer(KeyedBinaryDecodingContainer<Key>(reader: self))
    }

    /// An unkeyed container, its element count read.
    func makeUnkeyedContainer() throws(BinaryDecodingError) -> UnkeyedBinaryDecodingContainer {
        UnkeyedBinaryDecodingContainer(reader: self, count: try readCount())
    }

    // MARK: Values

    /// Decodes any value: the common leaf types, arrays and `BinaryDecodable` types directly,
    /// everything else through its `init(from:)` (optionals included: their presence byte is
    /// read by `decodeNil()`).
    func decodeValue<T: Decodable>(_: T.Type) throws -> T {
        if Self.isLeaf(T.self) { return try leafValue(T.self) }
        nesting += 1
        defer { nesting -= 1 }
        guard nesting <= BinaryEncoder.maximumNesting else {
            throw fail(.nestingTooDeep(limit: BinaryEncoder.maximumNesting), at: cursor)
        }
        do {
            switch route(for: T.self) {
            case .codable: return try T(from: self)
            case .direct(let type): return try type.decodeDirectly(from: self, as: T.self)
            case .array(let type): return try type.decodeArray(from: self, as: T.self)
            }
        } catch let error as BinaryDecodingError {
            throw error
        } catch {
            throw fail(.valueRejected(error), at: cursor)
        }
    }

    /// Decodes the value stored under `key` (a property name or an array index): a failure
    /// inside it gets `key` in front of its coding path.
    func decodeValue<T: Decodable>(_: T.Type, at key: some CodingKey) throws -> T {
        do {
            return try decodeValue(T.self)
        } catch let error as BinaryDecodingError {
            throw error.prefixed(with: key)
        }
    }

    /// How to decode `T`, remembered per type for the rest of this decode: the runtime's
    /// conformance checks cost about as much as decoding a small struct.
    @inline(__always)
    private func route<T>(for _: T.Type) -> Route {
        let type = ObjectIdentifier(T.self)
        if let index = routedTypes.firstIndex(of: type) { return routes[index] }
        let route: Route
        if decodesDirectly, let known = Self.knownRoute(for: T.self) {
            route = known
        } else if decodesDirectly, let direct = T.self as? any BinaryDecodable.Type {
            route = .direct(direct)
        } else if let array = T.self as? any BinaryDecodableArray.Type {
            route = .array(array)
        } else {
            route = .codable
        }
        if routedTypes.count < 32 {
            routedTypes.append(type)
            routes.append(route)
        }
        return route
    }

    /// The routes of the snapshot's own types, found by comparing type identities. A conformance
    /// cast (`as? any BinaryDecodable.Type`) makes the runtime scan every conformance record in
    /// the binary the first time it meets a type; in the static `timeline` binary, with
    /// ArgumentParser and FoundationEssentials linked in, those scans were 40% of the
    /// instructions of a whole `timeline show` (callgrind).
    private static func knownRoute<T>(for _: T.Type) -> Route? {
        if T.self == Message.self { return .direct(Message.self) }
        if T.self == [Message].self { return .array([Message].self) }
        if T.self == User.self { return .direct(User.self) }
        if T.self == [User].self { return .array([User].self) }
        if T.self == Attachment.self { return .direct(Attachment.self) }
        if T.self == [Attachment].self { return .array([Attachment].self) }
        if T.self == TimelineSnapshot.self { return .direct(TimelineSnapshot.self) }
        if T.self == TimelineState.self { return .direct(TimelineState.self) }
        if T.self == TimelinePage.self { return .direct(TimelinePage.self) }
        if T.self == TimelineCursor.self { return .direct(TimelineCursor.self) }
        return nil
    }

    // MARK: Fields of `BinaryDecodable` types

    /// Reads the next field of a `BinaryDecodable` type: what `decode(_:forKey:)` of its keyed
    /// container would return. `key` only names the field in errors.
    @inline(__always)
    func decode<T: Decodable>(_: T.Type, forKey key: StaticString) throws -> T {
        do {
            return try decodeValue(T.self)
        } catch let error as BinaryDecodingError {
            throw error.prefixed(with: BinaryCodingKey(stringValue: key.description))
        }
    }

    /// Reads the next optional field of a `BinaryDecodable` type: what `decodeIfPresent(_:forKey:)`
    /// of its keyed container would return.
    @inline(__always)
    func decodeIfPresent<T: Decodable>(_: T.Type, forKey key: StaticString) throws -> T? {
        do {
            guard try readPresence() else { return nil }
            return try decodeValue(T.self)
        } catch let error as BinaryDecodingError {
            throw error.prefixed(with: BinaryCodingKey(stringValue: key.description))
        }
    }

    /// Whether `T` is read by `leafValue`: types read straight from the bytes instead of through
    /// `init(from:)` and containers.
    @inline(__always)
    private static func isLeaf<T>(_: T.Type) -> Bool {
        T.self == String.self || T.self == Int.self || T.self == Date.self || T.self == Bool.self
            || T.self == Int64.self || T.self == Double.self || T.self == [UInt8].self || T.self == Data.self
    }

    /// Reads a value of a leaf type (`isLeaf`), exactly as the type's own Codable encoding holds it.
    @inline(__always)
    private func leafValue<T>(_: T.Type) throws(BinaryDecodingError) -> T {
        // Each `unsafeBitCast` below converts a value to its own type: the branch has just
        // checked that `T` is that type (the standard library's keyed container boxes convert
        // their keys the same way). Going through `as!` or `Optional<T>` would cost a runtime
        // type lookup per value.
        if T.self == String.self { return unsafeBitCast(try readString(), to: T.self) }
        if T.self == Date.self {
            return unsafeBitCast(Date(timeIntervalSinceReferenceDate: try readDouble()), to: T.self)
        }
        if T.self == Int.self { return unsafeBitCast(try readSigned(Int.self), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try readBool(), to: T.self) }
        if T.self == Int64.self { return unsafeBitCast(try readSigned(Int64.self), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try readDouble(), to: T.self) }
        if T.self == [UInt8].self { return unsafeBitCast(try readByteArray(), to: T.self) }
        // Callers check `isLeaf(T.self)` first: the only type left is `Data`.
        return unsafeBitCast(try readData(), to: T.self)
    }

    // MARK: Errors

    /// An error at `offset`; containers add its coding path as it travels up.
    func fail(_ reason: BinaryDecodingError.Reason, at offset: Int) -> BinaryDecodingError {
        BinaryDecodingError(reason, offset: offset)
    }

    /// Remembers the first error found where Codable gives no way to throw.
    func deferError(_ error: BinaryDecodingError) {
        if deferredError == nil { deferredError = error }
    }

    // MARK: Primitives

    @inline(__always)
    private func truncated(_ needed: Int, at offset: Int) -> BinaryDecodingError {
        fail(.truncated(needed: needed, available: max(0, end - offset)), at: offset)
    }

    @inline(__always)
    func readByte() throws(BinaryDecodingError) -> UInt8 {
        guard cursor < end else { throw truncated(1, at: cursor) }
        // In bounds: 0 <= cursor < end <= bytes.count.
        let byte = bytes[cursor]
        cursor += 1
        return byte
    }

    @inline(__always)
    func readBool() throws(BinaryDecodingError) -> Bool {
        let byte = try readByte()
        guard byte <= 1 else { throw fail(.invalidBool(byte), at: cursor - 1) }
        return byte == 1
    }

    /// An optional's presence byte: `true` if a value follows.
    @inline(__always)
    func readPresence() throws(BinaryDecodingError) -> Bool {
        let byte = try readByte()
        guard byte <= 1 else { throw fail(.invalidPresenceByte(byte), at: cursor - 1) }
        return byte == 1
    }

    /// An unsigned LEB128 varint of at most 10 bytes that fits 64 bits.
    @inline(__always)
    func readVarint() throws(BinaryDecodingError) -> UInt64 {
        if cursor < end {
            // In bounds: 0 <= cursor < end <= bytes.count.
            let first = bytes[cursor]
            if first < 0x80 {
                cursor += 1
                return UInt64(first)
            }
        }
        return try readLongVarint()
    }

    @inline(never)
    private func readLongVarint() throws(BinaryDecodingError) -> UInt64 {
        var position = cursor
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < end else { throw truncated(1, at: position) }
            // In bounds: 0 <= cursor <= position < end <= bytes.count.
            let byte = bytes[position]
            position += 1
            if shift == 63 {
                // The tenth byte holds only the top bit; anything more overflows 64 bits
                // (or, with its high bit set, makes the varint longer than 10 bytes).
                guard byte <= 1 else { throw fail(.varintOverflow, at: cursor) }
                result |= UInt64(byte) << 63
                break
            }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        cursor = position
        return result
    }

    /// A varint that fits 128 bits (at most 19 bytes).
    func readVarint128() throws(BinaryDecodingError) -> UInt128 {
        var position = cursor
        var result: UInt128 = 0
        var shift: UInt128 = 0
        while true {
            guard position < end else { throw truncated(1, at: position) }
            // In bounds: 0 <= cursor <= position < end <= bytes.count.
            let byte = bytes[position]
            position += 1
            if shift == 126 {
                // The nineteenth byte holds only the top two bits.
                guard byte <= 3 else { throw fail(.varintOverflow, at: cursor) }
                result |= UInt128(byte) << 126
                break
            }
            result |= UInt128(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        cursor = position
        return result
    }

    func readUnsigned<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) throws(BinaryDecodingError) -> T {
        let start = cursor
        let raw = try readVarint()
        guard let value = T(exactly: raw) else {
            throw fail(.integerOutOfRange(type: "\(T.self)", value: "\(raw)"), at: start)
        }
        return value
    }

    func readSigned<T: FixedWidthInteger & SignedInteger>(_: T.Type) throws(BinaryDecodingError) -> T {
        let start = cursor
        let raw = try readVarint()
        let decoded = Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
        guard let value = T(exactly: decoded) else {
            throw fail(.integerOutOfRange(type: "\(T.self)", value: "\(decoded)"), at: start)
        }
        return value
    }

    func readInt8() throws(BinaryDecodingError) -> Int8 { Int8(bitPattern: try readByte()) }

    func readUInt128() throws(BinaryDecodingError) -> UInt128 { try readVarint128() }

    func readInt128() throws(BinaryDecodingError) -> Int128 {
        let raw = try readVarint128()
        return Int128(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    @inline(__always)
    private func readLittleEndian<I: FixedWidthInteger>(_: I.Type) throws(BinaryDecodingError) -> I {
        let size = MemoryLayout<I>.size
        guard end - cursor >= size else { throw truncated(size, at: cursor) }
        // In bounds: cursor + size <= end <= bytes.count.
        let value = UnsafeRawBufferPointer(bytes).loadUnaligned(fromByteOffset: cursor, as: I.self)
        cursor += size
        return I(littleEndian: value)
    }

    func readFloat() throws(BinaryDecodingError) -> Float {
        Float(bitPattern: try readLittleEndian(UInt32.self))
    }

    func readDouble() throws(BinaryDecodingError) -> Double {
        Double(bitPattern: try readLittleEndian(UInt64.self))
    }

    /// A varint count or length, refused if larger than the bytes left. Every element and every
    /// byte of a string takes at least one byte, so valid data never declares more; checking
    /// here means no count can make the decoder allocate or loop beyond the input's size.
    @inline(__always)
    func readCount() throws(BinaryDecodingError) -> Int {
        let start = cursor
        let declared = try readVarint()
        guard declared <= UInt64(remaining) else {
            throw fail(.countTooLarge(declared: declared, remainingBytes: remaining), at: start)
        }
        return Int(declared)
    }

    /// The next `count` bytes, which `readCount` or the caller has checked are there.
    @inline(__always)
    private func take(_ count: Int) -> UnsafeBufferPointer<UInt8> {
        // In bounds: callers pass count <= end - cursor, and end <= bytes.count.
        let slice = UnsafeBufferPointer(rebasing: bytes[cursor ..< cursor + count])
        cursor += count
        return slice
    }

    /// Moves back to `offset`, a position this reader was at before.
    func rewind(to offset: Int) {
        precondition(offset >= 0 && offset <= cursor, "rewinding past the start or forward")
        cursor = offset
    }

    /// Steps over a string's length and bytes without making a `String`.
    func skipString() throws(BinaryDecodingError) {
        let length = try readCount()
        cursor += length
    }

    /// Steps over `count` bytes, refusing to step past the end.
    func skipBytes(_ count: Int) throws(BinaryDecodingError) {
        guard end - cursor >= count else { throw truncated(count, at: cursor) }
        cursor += count
    }

    /// Steps over a varint, refusing an unterminated or overlong one.
    func skipVarint() throws(BinaryDecodingError) {
        _ = try readVarint()
    }

    func readString() throws(BinaryDecodingError) -> String {
        let start = cursor
        let length = try readCount()
        let utf8 = take(length)
        // `String(decoding:)` replaces invalid UTF-8 with U+FFFD instead of failing; the bytes
        // are valid exactly when it kept them all as they were. (`String(validating:)` would say
        // so directly, but through an unspecialized generic path slower than the rest of decoding.)
        let string = String(decoding: utf8, as: UTF8.self)
        guard UTF8Validator.isASCII(utf8) || UTF8Validator.isIdentical(string, to: utf8) else {
            throw fail(.invalidUTF8(byteCount: length), at: start)
        }
        return string
    }

    func readByteArray() throws(BinaryDecodingError) -> [UInt8] {
        let count = try readCount()
        return Array(take(count))
    }

    func readData() throws(BinaryDecodingError) -> Data {
        let count = try readCount()
        return Data(buffer: take(count))
    }

    /// A key stored in front of a nested container or in a dictionary's key table.
    func readStoredKey() throws(BinaryDecodingError) -> StoredKey {
        let tag = try readByte()
        switch tag {
        case StoredKey.stringTag:
            return .string(try readString())
        case StoredKey.intTag:
            return .int(try readSigned(Int.self))
        default:
            throw fail(.invalidKeyTag(tag), at: cursor - 1)
        }
    }

    /// Reads the key in front of a nested container and checks that it is `key`.
    func expectStoredKey(_ key: some CodingKey) throws(BinaryDecodingError) {
        let start = cursor
        let stored = try readStoredKey()
        guard stored.matches(key) else {
            throw fail(.keyMismatch(expected: key.stringValue, found: stored.text), at: start)
        }
    }

    /// The key stored at the cursor, if there is one and `Key` has it; reads nothing.
    func peekStoredKey<Key: CodingKey>(_: Key.Type) -> Key? {
        let start = cursor
        defer { cursor = start }
        return (try? readStoredKey())?.key(Key.self)
    }
}
