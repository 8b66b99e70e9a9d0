/// The single-byte encodings expat does not know but real feeds declare, described the way
/// expat's unknown-encoding handler wants them: the Unicode scalar of each byte.
enum SingleByteEncoding {
    /// The scalar of each of the 256 bytes of the encoding `name` (any case), `nil` for an
    /// encoding not described here.
    static func map(named name: String) -> [Int32]? {
        switch name.lowercased() {
        case "windows-1252", "cp1252", "x-cp1252", "cp-1252": windows1252
        default: nil
        }
    }

    /// windows-1252 is ISO-8859-1 but for 0x80-0x9F, where it has typographic characters
    /// (curly quotes, dashes, the euro sign). The five bytes it leaves undefined (0x81, 0x8D,
    /// 0x8F, 0x90, 0x9D) map to the C1 controls of the same value, as the WHATWG Encoding
    /// Standard does, so no byte is an error. The table was printed from Python's `cp1252`
    /// codec, not typed by hand.
    static let windows1252: [Int32] = (0 ..< 0x80).map { Int32($0) } + high1252 + (0xA0 ..< 0x100).map { Int32($0) }

    private static let high1252: [Int32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]
}
