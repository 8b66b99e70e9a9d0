import Testing
@testable import TimelineKit

/// `XXH32` is the checksum of every LZ4 frame: held to the reference values and to every
/// checksum liblz4 writes into the frames `LZ4Frame.compress` makes.
@Suite struct XXH32Tests {
    @Test func theReferenceValuesOfTheSpecification() {
        #expect(XXH32.checksum([]) == 0x02CC_5D05)
        #expect(XXH32.checksum(Array("abc".utf8)) == 0x32D1_53FF)
        #expect(XXH32.checksum(Array("Nobody inspects the spammish repetition".utf8)) == 0xE229_3B2F)
    }

    /// Every length from 0 to 64 (each tail of the stripes) and a few blocks of 64 KB: the block
    /// checksums and the content checksum in liblz4's frame are what `XXH32` computes.
    @Test func everyChecksumLiblz4WritesIsTheSame() throws {
        var generator = SplitMix64(seed: 7)
        for count in Array(0 ... 64) + [1000, 65_536, 200_001] {
            let content = (0 ..< count).map { _ in UInt8(truncatingIfNeeded: generator.next() % 7 &* 31) }
            let frame = try LZ4Frame.compress(content)
            var position = 15  // magic, FLG, BD, 8 bytes of content size, header checksum
            var blocks = 0
            while true {
                let word = frame.littleEndianUInt32(at: position)
                position += 4
                if word == 0 { break }
                let size = Int(word & 0x7FFF_FFFF)
                #expect(XXH32.checksum(Array(frame[position ..< position + size])) == frame.littleEndianUInt32(at: position + size),
                        "block \(blocks) of \(count) bytes")
                position += size + 4
                blocks += 1
            }
            #expect(XXH32.checksum(content) == frame.littleEndianUInt32(at: position), "content of \(count) bytes")
            #expect(position + 4 == frame.count)
        }
    }
}

private extension [UInt8] {
    func littleEndianUInt32(at offset: Int) -> UInt32 {
        (0 ..< 4).reduce(UInt32(0)) { $0 | UInt32(self[offset + $1]) << (8 * $1) }
    }
}
