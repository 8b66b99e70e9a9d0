/// The scripts written without spaces between words: Thai, Lao, Myanmar, Khmer, and the CJK
/// range (kana, Han, Hangul, with their punctuation). SQLite's unicode61 tokenizer keeps a run of
/// them as one token (`今日は天気がいい` is one "word"), so text and search terms holding them go
/// through the trigram index instead.
///
/// The set is chosen so that SQL can tell it by the first bytes of a character's UTF-8, with
/// `instr` on the text's bytes: the search triggers run that test on every insert, and a GLOB
/// character class cost 5 times as much. Han extension B and later (U+20000 and up), the CJK
/// compatibility ideographs and halfwidth katakana are left out for that reason: alone, they
/// are letters of words; next to common CJK characters, the message is in the trigram index.
///
/// The test is written twice, and tests hold the two together: in SQL, in the view
/// `messages_unspaced` (`unspacedCondition(on:)`), for the triggers that index what other programs
/// write; and in Swift (`holdsUnspaced`), as the SQL function `timeline_text_is_unspaced` that
/// TimelineKit's own transactions index with, because SQLite's `instr` takes about 17
/// instructions a byte for each of the 20 prefixes, 40% of an import. A query term is looked up
/// in the trigram index when `isUnspaced` says so.
enum SearchScripts {
    /// Code point ranges, in order.
    static let unspacedRanges: [ClosedRange<UInt32>] = [
        0x0E00...0x0EFF,   // Thai, Lao                        UTF-8 E0 B8 – E0 BB
        0x1000...0x10BF,   // Myanmar (and Georgian capitals)  UTF-8 E1 80 – E1 82
        0x1780...0x17FF,   // Khmer                            UTF-8 E1 9E – E1 9F
        0x3000...0xD7FF,   // CJK: kana, Han, Hangul, …        UTF-8 E3 – ED
    ]

    /// Whether a scalar belongs to a script written without spaces.
    static func isUnspaced(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        guard value >= 0x0E00 else { return false }
        return unspacedRanges.contains { $0.contains(value) }
    }

    /// The UTF-8 prefixes that start exactly the characters of `unspacedRanges`.
    static let unspacedPrefixes: [[UInt8]] = [
        [0xE3], [0xE4], [0xE5], [0xE6], [0xE7], [0xE8], [0xE9], [0xEA], [0xEB], [0xEC], [0xED],
        [0xE0, 0xB8], [0xE0, 0xB9], [0xE0, 0xBA], [0xE0, 0xBB],
        [0xE1, 0x80], [0xE1, 0x81], [0xE1, 0x82], [0xE1, 0x9E], [0xE1, 0x9F],
    ]

    /// The SQL condition, on `bytes` (the text as a BLOB), that holds when the text has such a
    /// character.
    static func unspacedCondition(on bytes: String) -> String {
        "(" + unspacedPrefixes.map { prefix in
            "instr(\(bytes), X'" + prefix.map { String($0, radix: 16, uppercase: true) }.joined() + "')"
        }.joined(separator: " OR ") + ")"
    }

    /// Whether UTF-8 `bytes` hold a character of `unspacedRanges`: a byte starting one of
    /// `unspacedPrefixes`, found in one pass.
    static func holdsUnspaced(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            // In bounds: index < count by the loop condition, index + 1 checked before its read.
            let byte = bytes[index]
            index += 1
            guard byte >= 0xE0, byte <= 0xED else { continue }
            if byte >= 0xE3 { return true }
            guard index < count else { continue }
            let next = bytes[index]
            if byte == 0xE0, (0xB8 ... 0xBB).contains(next) { return true }
            if byte == 0xE1, (0x80 ... 0x82).contains(next) || (0x9E ... 0x9F).contains(next) { return true }
        }
        return false
    }

    /// The name under which TimelineKit's connections know `holdsUnspaced` in SQL.
    static let unspacedFunction = "timeline_text_is_unspaced"

    /// `holdsUnspaced` as SQLite calls it.
    static let unspacedPredicate: SQLiteConnection.TextPredicate = { bytes, count in
        guard let bytes, count > 0 else { return false }
        return holdsUnspaced(UnsafeBufferPointer(start: bytes, count: Int(count)))
    }
}
