/// The output of one encoding: one growing byte buffer that record fields (`BinaryField`)
/// append to, in the order they are listed (see `BinaryEncoder` for the format).
final class BinaryWriter {
    // `@exclusivity(unchecked)`: see `BinaryReader`. No access overlaps another: none calls out
    // to other code while it lasts.

    /// The bytes written so far.
    @exclusivity(unchecked) private(set) var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(1024)
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
