/// The output of one `BinaryEncoder` call: one growing byte buffer that record fields
/// (`BinaryField`) and every Codable container append to, in the order values are encoded (see
/// `BinaryEncoder` for the format). It is also the `Encoder` handed to `encode(to:)`
/// (`BinaryEncodingContainers.swift`).
///
/// The element count of an unkeyed container is not known when it opens, so each open one leaves
/// a `PendingCount`; it is filled in when the `encode(to:)` that opened it returns (`encodeValue`
/// brackets every such call).
///
/// Like `BinaryReader`, it does not track the coding path while encoding (`codingPath` is
/// empty); a failure's path is built as its `BinaryEncodingError` travels up through the
/// containers, each adding its key.
final class BinaryWriter {
    // `@exclusivity(unchecked)`: see `BinaryReader`. No access overlaps another: none calls out
    // to other code while it lasts.

    /// The bytes written so far.
    @exclusivity(unchecked) private(set) var bytes: [UInt8] = []
    /// Counts still to be written, innermost last.
    @exclusivity(unchecked) private var pending: [PendingCount] = []
    /// An error found where Codable gives no way to throw (opening a container); thrown when the
    /// `encode(to:)` that found it returns.
    @exclusivity(unchecked) private var deferredError: BinaryEncodingError?
    @exclusivity(unchecked) private var nesting = 0
    @exclusivity(unchecked) private var nextSerial: UInt32 = 0
    /// Whether `BinaryRecord` types are written by their field lists (always, except in the tests
    /// that check that their synthesized `encode(to:)` writes the same bytes).
    let writesRecords: Bool

    /// The element count of an open unkeyed container.
    private struct PendingCount {
        /// The index of the one-byte placeholder for the count.
        let position: Int
        /// Tells this container from a later one that reuses its slot in `pending`.
        let serial: UInt32
        var count = 0
    }

    /// Where an unkeyed container finds its `PendingCount`.
    struct PendingHandle {
        let slot: Int
        let serial: UInt32
    }

    init(writesRecords: Bool = true) {
        self.writesRecords = writesRecords
        bytes.reserveCapacity(1024)
    }

    // MARK: Values

    /// Encodes any value: a `BinaryRecord` by its field list, an optional with a presence byte,
    /// anything else through its `encode(to:)`, after which the counts its containers left
    /// pending are written.
    func encodeValue<T: Encodable>(_ value: T) throws {
        if writesRecords, let record = value as? any BinaryRecord {
            record.write(to: self)
            return
        }
        if value is any BinaryUnsupportedCollection {
            throw error(.unsupported(what: "a dictionary"))
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
        // A refusal the containers could not throw leaves with this value, so that the
        // containers around it add their keys to its path.
        if let deferredError {
            self.deferredError = nil
            throw deferredError
        }
        finishPending(downTo: mark)
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

    /// Opens an unkeyed container, writing a one-byte placeholder for its count.
    func openPending() -> PendingHandle {
        let serial = nextSerial
        nextSerial &+= 1
        pending.append(PendingCount(position: bytes.count, serial: serial))
        bytes.append(0)
        return PendingHandle(slot: pending.count - 1, serial: serial)
    }

    /// Counts one more element of the container `handle` names; returns the element's index, or
    /// `nil` if the container is no longer open.
    @inline(__always)
    func countElement(_ handle: PendingHandle) -> Int? {
        guard handle.slot < pending.count, pending[handle.slot].serial == handle.serial else { return nil }
        let index = pending[handle.slot].count
        pending[handle.slot].count = index + 1
        return index
    }

    func pendingCount(_ handle: PendingHandle) -> Int {
        guard handle.slot < pending.count, pending[handle.slot].serial == handle.serial else { return 0 }
        return pending[handle.slot].count
    }

    /// Writes the counts of the containers opened since `mark`, innermost first: each one only
    /// moves bytes after its own position, which come after every position still waiting. Every
    /// element took at least one byte (`UnkeyedBinaryEncodingContainer` refuses empty ones), so
    /// no count exceeds the bytes after it, which the decoder would refuse.
    private func finishPending(downTo mark: Int) {
        while pending.count > mark {
            let entry = pending.removeLast()
            if entry.count < 0x80 {
                bytes[entry.position] = UInt8(entry.count)
            } else {
                var count: [UInt8] = []
                Self.appendVarint(UInt64(entry.count), to: &count)
                bytes.replaceSubrange(entry.position ... entry.position, with: count)
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

    /// Zigzag (0, -1, 1, -2, … → 0, 1, 2, 3, …), then as unsigned: small magnitudes of either
    /// sign take few bytes.
    @inline(__always)
    func writeSigned(_ value: some FixedWidthInteger & SignedInteger) {
        let value = Int64(value)
        Self.appendVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)), to: &bytes)
    }

    @inline(__always)
    func writeFloat(_ value: Float) { appendLittleEndian(value.bitPattern) }

    @inline(__always)
    func writeDouble(_ value: Double) { appendLittleEndian(value.bitPattern) }

    /// Varint byte length, then the UTF-8 bytes.
    func writeString(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            Self.appendVarint(UInt64(utf8.count), to: &bytes)
            bytes.append(contentsOf: utf8)
        }
    }

    /// Unsigned LEB128: seven bits a byte, least significant first, high bit set on all but the last.
    @inline(__always)
    private static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    @inline(__always)
    private func appendLittleEndian<I: FixedWidthInteger>(_ value: I) {
        // Reads exactly the value's own bytes (a safe, bounded view of a local copy).
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}

/// `Optional`, as seen by `BinaryWriter.encodeValue`: written as a presence byte (0 absent,
/// 1 present) and, when present, the wrapped value. `Optional`'s own `encode(to:)` cannot be used
/// because it writes a present value with no marker in front of it.
protocol BinaryEncodableOptional {
    func encodePresenceAndValue(to writer: BinaryWriter) throws
}

extension Optional: BinaryEncodableOptional where Wrapped: Encodable {
    func encodePresenceAndValue(to writer: BinaryWriter) throws {
        writer.writePresence(self != nil)
        if let wrapped = self { try writer.encodeValue(wrapped) }
    }
}

/// The collections the binary format leaves out, refused by name instead of being coded wrong:
/// a `[String: V]` or `[Int: V]` encodes itself into a keyed container, whose keys the format
/// does not store (see `BinaryEncoder`).
protocol BinaryUnsupportedCollection {}

extension Dictionary: BinaryUnsupportedCollection {}
