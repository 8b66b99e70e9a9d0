import Testing
@testable import TimelineKit

@Suite struct CRC32Tests {
    /// The catalogued check value of CRC-32/ISO-HDLC (the zlib/PNG CRC) is CRC("123456789") = 0xCBF43926.
    @Test func matchesTheStandardCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    }

    @Test func matchesKnownZlibValues() {
        #expect(CRC32.checksum([UInt8]()) == 0)
        #expect(CRC32.checksum(Array("a".utf8)) == 0xE8B7_BE43)
        #expect(CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
        #expect(CRC32.checksum([UInt8](repeating: 0, count: 32)) == 0x190A_55AD)
        #expect(CRC32.checksum([UInt8](repeating: 0xFF, count: 32)) == 0xFF6C_AB0B)
    }

    /// Every sequence of bytes gives the same answer: arrays, slices with non-zero start indices, lazy sequences.
    @Test func acceptsAnySequenceOfBytes() {
        let bytes = Array("xx123456789yy".utf8)
        #expect(CRC32.checksum(bytes[2..<11]) == 0xCBF4_3926)
        #expect(CRC32.checksum("123456789".utf8) == 0xCBF4_3926)
        #expect(CRC32.checksum((0x31...0x39).lazy.map { UInt8($0) }) == 0xCBF4_3926)
    }

    /// The table-driven version agrees with the textbook bit-at-a-time definition, for every single byte
    /// (which exercises every table entry) and for longer mixed inputs.
    @Test func agreesWithBitwiseDefinition() {
        for byte in UInt8.min...UInt8.max {
            #expect(CRC32.checksum([byte]) == bitwiseCRC32([byte]))
        }
        var state: UInt32 = 12345
        var bytes: [UInt8] = []
        for length in 0..<200 {
            #expect(CRC32.checksum(bytes) == bitwiseCRC32(bytes), "length \(length)")
            state = state &* 1_103_515_245 &+ 12345
            bytes.append(UInt8(truncatingIfNeeded: state >> 16))
        }
    }

    /// A file-header checksum must notice any single flipped bit.
    @Test func detectsEverySingleBitFlip() {
        let header = Array("TLSNAP\u{0}\u{1}timeline snapshot header v1".utf8)
        let original = CRC32.checksum(header)
        for index in header.indices {
            for bit in 0..<8 {
                var damaged = header
                damaged[index] ^= 1 << bit
                #expect(CRC32.checksum(damaged) != original, "byte \(index) bit \(bit)")
            }
        }
    }

    private func bitwiseCRC32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 {
                crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0)
            }
        }
        return ~crc
    }
}
