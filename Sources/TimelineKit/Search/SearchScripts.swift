/// The scripts written without spaces between words: Han, kana, Hangul, Thai, Lao, Khmer and
/// Myanmar. SQLite's unicode61 tokenizer keeps a run of them as one token (`今日は天気がいい` is
/// one "word"), so text and search terms holding them go through the trigram index instead.
///
/// The search migration's triggers decide which messages the trigram index holds with
/// `unspacedGlob`; a query term is looked up there when `isUnspaced` says so. The two must
/// agree, and a test checks that the migration's SQL holds exactly `unspacedGlob`.
enum SearchScripts {
    /// Code point ranges, in order.
    static let unspacedRanges: [ClosedRange<UInt32>] = [
        0x0E00...0x0EFF,   // Thai, Lao
        0x1000...0x109F,   // Myanmar
        0x1780...0x17FF,   // Khmer
        0x3005...0x3007,   // 々 〆 〇
        0x3040...0x30FF,   // Hiragana, Katakana
        0x3130...0x318F,   // Hangul compatibility jamo
        0x31F0...0x31FF,   // Katakana phonetic extensions
        0x3400...0x4DBF,   // CJK extension A
        0x4E00...0x9FFF,   // CJK unified ideographs
        0xAC00...0xD7AF,   // Hangul syllables
        0xF900...0xFAFF,   // CJK compatibility ideographs
        0xFF66...0xFF9F,   // Halfwidth katakana
        0x20000...0x3134F, // CJK extensions B to G
    ]

    /// Whether a scalar belongs to a script written without spaces.
    static func isUnspaced(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        guard value >= 0x0E00 else { return false }
        return unspacedRanges.contains { $0.contains(value) }
    }

    /// The GLOB pattern, as SQL text, that matches a text holding at least one such scalar.
    static var unspacedGlob: String {
        var pattern = "'*["
        for range in unspacedRanges {
            pattern.unicodeScalars.append(Unicode.Scalar(range.lowerBound)!)
            pattern += "-"
            pattern.unicodeScalars.append(Unicode.Scalar(range.upperBound)!)
        }
        return pattern + "]*'"
    }
}
