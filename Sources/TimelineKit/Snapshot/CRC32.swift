/// CRC-32 as used by zlib, gzip, PNG and Ethernet (IEEE 802.3): reflected, polynomial 0xEDB88320,
/// initial value and final XOR 0xFFFFFFFF. `CRC32.checksum("123456789".utf8) == 0xCBF43926`.
///
/// Table-driven, one byte at a time: meant for short inputs such as a file header, not for bulk data.
enum CRC32 {
    /// The CRC-32 of `bytes`.
    static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        let table = Self.table
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return ~crc
    }

    /// `table[n]` is the CRC register after shifting the byte `n` through it eight times:
    /// the remainder contributed by one byte, looked up instead of computed bit by bit.
    private static let table: [UInt32] = (0..<256).map { (index: UInt32) in
        var value = index
        for _ in 0..<8 {
            value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1
        }
        return value
    }
}
