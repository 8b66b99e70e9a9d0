/// IDs for items that give none, and IDs kept to a bounded length.
///
/// Not a security hash: two 64-bit FNV-1a sums with different offsets make 128 bits, so the
/// items of one feed (hundreds) never collide by chance, and the value is the same on every
/// machine and every run (Swift's `Hasher` is seeded per process, which would make an item new
/// at every fetch).
enum FeedItemID {
    /// `hash:` and 32 hexadecimal digits made from `parts`, each followed by a separator so that
    /// ("ab", "c") and ("a", "bc") differ.
    static func hash(_ parts: [String]) -> String {
        var first: UInt64 = 0xCBF2_9CE4_8422_2325
        var second: UInt64 = 0x6C62_272E_07BB_0142
        for part in parts {
            for byte in part.utf8 + [0x1F] {
                first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
        }
        return "hash:" + hex(first) + hex(second)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
