/// Case and accent folding for matching in Swift what the word index matches in SQLite, where
/// the unicode61 tokenizer (with `remove_diacritics 2`) folds case and strips accents from Latin
/// letters: `Café`, `CAFE` and `cafe` are one word. Used to find the ranges to highlight and to
/// check hashtags and mentions, never to decide alone what the index finds.
enum SearchFolding {
    /// `scalar` folded: lower case, without a Latin accent; combining accents (U+0300–U+036F)
    /// fold to nothing.
    static func fold(_ scalar: Unicode.Scalar) -> String {
        let value = scalar.value
        if value < 0x80 { return String(foldASCII(scalar)) }
        if (0x300...0x36F).contains(value) { return "" }
        if let base = latinBase(of: value) { return String(base) }
        return scalar.properties.lowercaseMapping
    }

    /// An ASCII `scalar` folded (upper-case letters to lower case), without making a String.
    static func foldASCII(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        (0x41...0x5A).contains(scalar.value) ? Unicode.Scalar(UInt8(scalar.value + 0x20)) : scalar
    }

    /// `text` folded, scalar by scalar.
    static func fold(_ text: some StringProtocol) -> String {
        var folded = ""
        for scalar in text.unicodeScalars { folded += fold(scalar) }
        return folded
    }

    /// The base letter of a precomposed accented Latin letter (`é`, `Ệ`: `e`), in lower case.
    static func latinBase(of value: UInt32) -> Character? {
        let byte: UInt8
        switch value {
        case 0xC0...0x24F: byte = latinBasesFrom00C0.withUTF8Buffer { $0[Int(value - 0xC0)] }
        case 0x1E00...0x1EFF: byte = latinBasesFrom1E00.withUTF8Buffer { $0[Int(value - 0x1E00)] }
        default: return nil
        }
        return byte == UInt8(ascii: "-") ? nil : Character(Unicode.Scalar(byte))
    }

    // One byte for each scalar of U+00C0–U+024F and U+1E00–U+1EFF: the base letter its lower
    // case is canonically equivalent to with one combining accent (U+0300–U+036F) or two of the
    // stacking ones Vietnamese uses, or `-` for none (`æ`, `ß`, `ø`). A literal, because the
    // standard library has no decomposition table to ask at run time: building the same map
    // from `Character` equivalence took 91 M instructions, 94% of a whole `timeline search`.
    // `SearchFoldingTests` derives both rows that way and holds these to them.
    static let latinBasesFrom00C0: StaticString = "aaaaaa-ceeeeiiii-nooooo--uuuuy--aaaaaa-ceeeeiiii-nooooo--uuuuy-yaaaaaaccccccccdd--eeeeeeeeeegggggggghh--iiiiiiiii---jjkk-llllll----nnnnnn---oooooo--rrrrrrsssssssstttt--uuuuuuuuuuuuwwyyyzzzzzz---------------------------------oo-------------uu----------------------------aaiioouu--uu-------------ggkkoo----j---gg--nn------aaaaeeeeiiiioooorrrruuuusstt--hh------aaee----oo--yy----------------------------"
    static let latinBasesFrom1E00: StaticString = "aabbbbbb--dddddddddd----eeee--ffgghhhhhhhhhhiiiikkkkkkll--llllmmmmmmnnnnnnnnoo------pppprrrr--rrssss------ttttttttuuuuuuuu--vvvvwwwwwwwwwwxxxxyyzzzzzzhtwy------aaaaaaaaaaaaaaaaaaaaaaaaeeeeeeeeeeeeeeeeiiiioooooooooooooooooooooooouuuuuuuuuuuuuuyyyyyyyy------"
}
