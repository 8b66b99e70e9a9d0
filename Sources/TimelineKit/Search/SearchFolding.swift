/// Case and accent folding for matching in Swift what the word index matches in SQLite, where
/// the unicode61 tokenizer (with `remove_diacritics 2`) folds case and strips accents from Latin
/// letters: `Café`, `CAFE` and `cafe` are one word. Used to find the ranges to highlight and to
/// check hashtags and mentions, never to decide alone what the index finds.
enum SearchFolding {
    /// `scalar` folded: lower case, without a Latin accent; combining accents (U+0300–U+036F)
    /// fold to nothing.
    static func fold(_ scalar: Unicode.Scalar) -> String {
        let value = scalar.value
        if value < 0x80 {
            if (0x41...0x5A).contains(value) { return String(Unicode.Scalar(value + 0x20)!) }
            return String(scalar)
        }
        if (0x300...0x36F).contains(value) { return "" }
        let lower = scalar.properties.lowercaseMapping
        if (0xC0...0x24F).contains(value) || (0x1E00...0x1EFF).contains(value),
           let base = latinBases[Character(lower)] {
            return String(base)
        }
        return lower
    }

    /// `text` folded, scalar by scalar.
    static func fold(_ text: some StringProtocol) -> String {
        var folded = ""
        for scalar in text.unicodeScalars { folded += fold(scalar) }
        return folded
    }

    /// Precomposed accented Latin letters (`é`, `ệ`) to their base letter. Swift's `Character`
    /// compares and hashes by canonical equivalence, so keys built as letter + combining marks
    /// find the precomposed forms, without a decomposition table (FoundationEssentials has none).
    private static let latinBases: [Character: Character] = {
        let marks = (0x300...0x36F).compactMap(Unicode.Scalar.init)
        // Vietnamese and a few other languages stack two marks on one letter.
        let stacking: [Unicode.Scalar] = [0x300, 0x301, 0x302, 0x303, 0x306, 0x309, 0x31B, 0x323].compactMap(Unicode.Scalar.init)
        var table: [Character: Character] = [:]
        for base in "abcdefghijklmnopqrstuvwxyz" {
            for mark in marks {
                var key = String(base)
                key.unicodeScalars.append(mark)
                table[Character(key)] = base
            }
            for first in stacking {
                for second in stacking where second != first {
                    var key = String(base)
                    key.unicodeScalars.append(first)
                    key.unicodeScalars.append(second)
                    table[Character(key)] = base
                }
            }
        }
        return table
    }()
}
