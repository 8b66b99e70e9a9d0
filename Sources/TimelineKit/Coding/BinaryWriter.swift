#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `Encoder` behind `BinaryEncoder`: one growing byte buffer that every container of one
/// `encode` call appends to, in the order values are encoded (see `BinaryEncoder` for the format).
///
/// Element counts of unkeyed containers and dictionaries are not known when they open, so each
/// open one leaves a `PendingCount`; it is filled in when the `encode(to:)` that opened it
/// returns (`encodeValue` brackets every such call).
///
/// Like `BinaryReader`, it does not track the coding path while encoding (`codingPath` is
/// empty); a failure's path is built as its `BinaryEncodingError` travels up through the
/// containers, each adding its key.
final class BinaryWriter: Encoder {
    // `@exclusivity(unchecked)`: see `BinaryReader`. No access overlaps another: none calls out
    // to other code while it lasts.

    /// The bytes written so far.
    @exclusivity(unchecked) var bytes: [UInt8] = []
    /// Counts still to be written, innermost last.
    @exclusivity(unchecked) var pending: [PendingCount] = []
    /// An error found where Codable gives no way to throw (opening a container); thrown at the end.
    @exclusivity(unchecked) private(set) var deferredError: BinaryEncodingError?
    @exclusivity(unchecked) private var nesting = 0
    @exclusivity(unchecked) private var nextSerial: UInt32 = 0

    /// The element count of an open unkeyed container or dictionary.
    struct PendingCount {
        /// Unkeyed container: the index of the one-byte placeholder for the count.
        /// Dictionary: where its header (count and key table) will be inserted.
        let position: Int
        /// Tells this container from a later one that reuses its slot in `pending`.
        let serial: UInt32
        /// Whether this is a dictionary rather than an unkeyed container.
        let isDictionary: Bool
        var count = 0
        /// The encoded keys of a dictionary, in order.
        var keys: [UInt8] = []
    }

    /// Where a container finds its `PendingCount`.
    struct PendingHandle {
        let slot: Int
        let serial: UInt32
    }

    /// Written in front of a nested container or super encoder opened in an unkeyed container, so
    /// that every element takes at least one byte even if the nested container stays empty.
    static let nestedElementMarker: UInt8 = 0

    init() {
        bytes.reserveCapacity(1024)
    }

    // MARK: Encoder

    /// Always empty (see the type's documentation); errors carry the full path.
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        keyedContainer(keyedBy: Key.self)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        makeUnkeyedContainer()
    }

    func makeUnkeyedContainer() -> UnkeyedBinaryEncodingContainer {
        UnkeyedBinaryEncodingContainer(writer: self, handle: openPending(dictionary: false))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueBinaryEncodingContainer(writer: self)
    }

    /// A keyed container: with a key table if `Key` is the standard library's dictionary key.
    func keyedContainer<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
        if DictionaryCodingKeyType.matches(Key.self) {
            return KeyedEncodingContainer(
                KeyedBinaryEncodingContainer<Key>(writer: self, dictionary: openPending(dictionary: true))
            )
        }
        return positionalContainer(keyedBy: Key.self)
    }

    /// A keyed container that stores no keys, whatever `Key` is.
    func positionalContainer<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedBinaryEncodingContainer<Key>(writer: self, dictionary: nil))
    }

    // MARK: Values

    /// Encodes any value: the common leaf types directly, optionals with a presence byte, and
    /// everything else through its `encode(to:)`, after which the counts its containers left
    /// pending are written.
    func encodeValue<T: Encodable>(_ value: T) throws {
        // Fast paths. Each writes exactly what the type's own `encode(to:)` would have written.
        if T.self == String.self, let string = value as? String {
            Self.appendString(string, to: &bytes)
            return
        }
        if T.self == Int.self, let int = value as? Int {
            writeSigned(int)
            return
        }
        if T.self == Date.self, let date = value as? Date {
            writeDouble(date.timeIntervalSinceReferenceDate)
            return
        }
        if T.self == [UInt8].self, let array = value as? [UInt8] {
            Self.appendVarint(UInt64(array.count), to: &bytes)
            bytes.append(contentsOf: array)
            return
        }
        if T.self == Data.self, let data = value as? Data {
            Self.appendVarint(UInt64(data.count), to: &bytes)
            bytes.append(contentsOf: data)
            return
        }

        nesting += 1
        defer { nesting -= 1 }
        guard nesting <= BinaryEncoder.maximumNesting else {
            throw error(.nestingTooDeep(limit: BinaryEncoder.maximumNesting))
        }
        let mark = pending.count
        do {
            if let optional = value as? any BinaryEncodableOptional {
                try optional.encodePresenceAndValue(to: self)
            } else {
                try value.encode(to: self)
            }
        } catch let error as BinaryEncodingError {
            throw error
        } catch {
            throw self.error(.valueRejected(error))
        }
        try finishPending(downTo: mark)
    }

    /// Encodes the value stored under `key` (a property name or an array index): a failure
    /// inside it gets `key` in front of its coding path.
    func encodeValue<T: Encodable>(_ value: T, at key: some CodingKey) throws {
        do {
            try encodeValue(value)
        } catch let error as BinaryEncodingError {
            throw error.prefixed(with: key)
        }
    }

    /// An error at the current offset; containers add its coding path as it travels up.
    func error(_ reason: BinaryEncodingError.Reason) -> BinaryEncodingError {
        BinaryEncodingError(reason, offset: bytes.count)
    }

    /// Remembers the first error found where Codable gives no way to throw.
    func deferError(_ error: BinaryEncodingError) {
        if deferredError == nil { deferredError = error }
    }

    // MARK: Pending counts

    /// Opens an unkeyed container (writing a one-byte placeholder for its count) or a dictionary.
    func openPending(dictionary: Bool) -> PendingHandle {
        let serial = nextSerial
        nextSerial &+= 1
        pending.append(PendingCount(position: bytes.count, serial: serial, isDictionary: dictionary))
        if !dictionary { bytes.append(0) }
        return PendingHandle(slot: pending.count - 1, serial: serial)
    }

    /// Whether `handle` still names an open container.
    @inline(__always)
    func isOpen(_ handle: PendingHandle) -> Bool {
        handle.slot < pending.count && pending[handle.slot].serial == handle.serial
    }

    /// Counts one more element of the container `handle` names; returns the element's index, or
    /// `nil` if the container is no longer open.
    @inline(__always)
    func countElement(_ handle: PendingHandle) -> Int? {
        guard isOpen(handle) else { return nil }
        let index = pending[handle.slot].count
        pending[handle.slot].count = index + 1
        return index
    }

    /// Counts one more entry of the dictionary `handle` names and appends its key to the key
    /// table; `false` if the dictionary is no longer open.
    func addDictionaryKey(_ key: some CodingKey, _ handle: PendingHandle) -> Bool {
        guard isOpen(handle) else { return false }
        pending[handle.slot].count += 1
        StoredKey(key).append(to: &pending[handle.slot].keys)
        return true
    }

    func pendingCount(_ handle: PendingHandle) -> Int {
        isOpen(handle) ? pending[handle.slot].count : 0
    }

    /// Writes the counts (and dictionary key tables) of the containers opened since `mark`,
    /// innermost first: each one only moves bytes after its own position, which come after
    /// every position still waiting.
    func finishPending(downTo mark: Int) throws(BinaryEncodingError) {
        while pending.count > mark {
            let entry = pending.removeLast()
            if entry.isDictionary {
                var header: [UInt8] = []
                header.reserveCapacity(entry.keys.count + 10)
                Self.appendVarint(UInt64(entry.count), to: &header)
                header.append(contentsOf: entry.keys)
                bytes.insert(contentsOf: header, at: entry.position)
            } else {
                // The decoder refuses a count larger than the bytes that follow it, so make sure
                // valid data never has one. The output only grows after this point.
                let following = bytes.count - entry.position - 1
                guard entry.count <= following else {
                    throw error(.moreElementsThanBytes(count: entry.count, bytes: following))
                }
                if entry.count < 0x80 {
                    bytes[entry.position] = UInt8(entry.count)
                } else {
                    var count: [UInt8] = []
                    Self.appendVarint(UInt64(entry.count), to: &count)
                    bytes.replaceSubrange(entry.position ... entry.position, with: count)
                }
            }
        }
    }

    // MARK: Primitives

    @inline(__always)
    func writeBool(_ value: Bool) { bytes.append(value ? 1 : 0) }

    @inline(__always)
    func writePresence(_ present: Bool) { bytes.append(present ? 1 : 0) }

    @inline(__always)
    func writeByte(_ value: UInt8) { bytes.append(value) }

    @inline(__always)
    func writeUnsigned(_ value: some FixedWidthInteger & UnsignedInteger) {
        Self.appendVarint(UInt64(value), to: &bytes)
    }

    @inline(__always)
    func writeSigned(_ value: some FixedWidthInteger & SignedInteger) {
        Self.appendVarint(Self.zigzag(Int64(value)), to: &bytes)
    }

    func writeUInt128(_ value: UInt128) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    func writeInt128(_ value: Int128) {
        writeUInt128(UInt128(bitPattern: (value << 1) ^ (value >> 127)))
    }

    @inline(__always)
    func writeFloat(_ value: Float) { Self.appendLittleEndian(value.bitPattern, to: &bytes) }

    @inline(__always)
    func writeDouble(_ value: Double) { Self.appendLittleEndian(value.bitPattern, to: &bytes) }

    @inline(__always)
    func writeString(_ value: String) { Self.appendString(value, to: &bytes) }

    // MARK: Byte-level helpers, shared with `StoredKey`

    /// Zigzag mapping: small magnitudes of either sign become small unsigned numbers.
    @inline(__always)
    static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    /// Unsigned LEB128: seven bits a byte, least significant first, high bit set on all but the last.
    @inline(__always)
    static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    @inline(__always)
    static func appendLittleEndian<I: FixedWidthInteger>(_ value: I, to bytes: inout [UInt8]) {
        // Reads exactly the value's own bytes (a safe, bounded view of a local copy).
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Varint byte length, then the UTF-8 bytes.
    static func appendString(_ value: String, to bytes: inout [UInt8]) {
        var value = value
        value.withUTF8 { utf8 in
            appendVarint(UInt64(utf8.count), to: &bytes)
            bytes.append(contentsOf: utf8)
        }
    }
}
