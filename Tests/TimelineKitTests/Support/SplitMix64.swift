/// A small, fast, seedable generator (SplitMix64), so that test data is the same on every run
/// and a failure can be replayed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `count` random bytes, eight from each call to `next()` (fast even in debug builds).
    mutating func bytes(_ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initializedCount in
            var index = 0
            while index < count {
                var word = next()
                for _ in 0..<min(8, count - index) {
                    buffer[index] = UInt8(truncatingIfNeeded: word)
                    word >>= 8
                    index += 1
                }
            }
            initializedCount = count
        }
    }
}
