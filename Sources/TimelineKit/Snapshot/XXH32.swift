/// XXH32 (xxHash, 32 bits), the checksum of the LZ4 frame format: its header checksum, block
/// checksums and content checksum are all XXH32 with seed 0. `XXH32.checksum([]) == 0x02CC5D05`.
///
/// The algorithm as the xxHash specification (`doc/xxhash_spec.md`) writes it: four lanes over
/// 16-byte stripes, then the 4-byte and single-byte tail, then the avalanche. liblz4's frame
/// decoder computes it for every checksum of a frame read whole; `LZ4FrameDecoder`, which
/// decompresses a frame block by block with liblz4's block decoder, computes the header and block
/// checksums here before a paint, and the content checksum after.
/// `XXH32Tests` holds it to every checksum liblz4 writes.
enum XXH32 {
    private static let prime1: UInt32 = 0x9E37_79B1
    private static let prime2: UInt32 = 0x85EB_CA77
    private static let prime3: UInt32 = 0xC2B2_AE3D
    private static let prime4: UInt32 = 0x27D4_EB2F
    private static let prime5: UInt32 = 0x1656_67B1

    /// The XXH32 of `bytes` with seed 0.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        let count = bytes.count
        guard let base = bytes.baseAddress else { return avalanche(prime5) }
        var offset = 0
        var hash: UInt32
        if count >= 16 {
            var lane1 = prime1 &+ prime2, lane2 = prime2, lane3: UInt32 = 0, lane4 = 0 &- prime1
            while count - offset >= 16 {
                // In bounds: offset + 16 <= count.
                lane1 = round(lane1, base.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian)
                lane2 = round(lane2, base.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self).littleEndian)
                lane3 = round(lane3, base.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self).littleEndian)
                lane4 = round(lane4, base.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self).littleEndian)
                offset += 16
            }
            hash = lane1.rotatedLeft(1) &+ lane2.rotatedLeft(7) &+ lane3.rotatedLeft(12) &+ lane4.rotatedLeft(18)
        } else {
            hash = prime5
        }
        hash &+= UInt32(truncatingIfNeeded: count)
        while count - offset >= 4 {
            // In bounds: offset + 4 <= count.
            hash &+= base.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian &* prime3
            hash = hash.rotatedLeft(17) &* prime4
            offset += 4
        }
        while offset < count {
            // In bounds: offset < count.
            hash &+= UInt32(base.load(fromByteOffset: offset, as: UInt8.self)) &* prime5
            hash = hash.rotatedLeft(11) &* prime1
            offset += 1
        }
        return avalanche(hash)
    }

    /// The XXH32 of `bytes` with seed 0.
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }

    @inline(__always)
    private static func round(_ lane: UInt32, _ input: UInt32) -> UInt32 {
        (lane &+ input &* prime2).rotatedLeft(13) &* prime1
    }

    @inline(__always)
    private static func avalanche(_ value: UInt32) -> UInt32 {
        var hash = value
        hash ^= hash >> 15
        hash &*= prime2
        hash ^= hash >> 13
        hash &*= prime3
        hash ^= hash >> 16
        return hash
    }
}

extension UInt32 {
    @inline(__always)
    fileprivate func rotatedLeft(_ count: UInt32) -> UInt32 {
        (self << count) | (self >> (32 - count))
    }
}
