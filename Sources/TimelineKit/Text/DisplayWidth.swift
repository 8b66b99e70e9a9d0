/// How many terminal columns text takes, as modern terminals (xterm, VTE, kitty, iTerm2, tmux)
/// draw it.
///
/// A scalar is 2 columns when it is East Asian Wide or Fullwidth (Unicode 15.0) or an emoji with
/// default emoji presentation; 0 when it is a nonspacing or enclosing mark, a format character
/// (Cf: ZWJ, ZWSP, bidi marks…), a variation selector or a Hangul medial vowel or final
/// consonant; 1 otherwise. Ambiguous-width characters count 1, as in every terminal outside CJK
/// legacy modes. Controls count 0: they are not drawn, and `TerminalText` replaces them anyway.
///
/// A grapheme cluster (`Character`) that is an emoji sequence — it starts with an emoji-presentation
/// scalar or a regional indicator, or has an emoji with VS16 (U+FE0F) or a skin-tone modifier — is
/// 2 columns however many scalars it joins (👨‍👩‍👧, 🇯🇵, 👍🏽, ❤️). Any other cluster is the sum of
/// its scalars. For the combining sequences that make up nearly all text (é, Thai vowels, Hangul
/// jamo) that is the width of the base scalar. It is more only for clusters that hold
/// several spacing letters, such as Indic conjuncts (स्ते) or Thai sara am (กำ): terminals that
/// place one scalar per cell draw those wider than their base, and counting too much leaves a
/// column unused, while counting too little would make the terminal wrap the line itself.
public enum DisplayWidth {
    /// The number of columns `character` takes.
    public static func of(character: Character) -> Int {
        let scalars = character.unicodeScalars
        var iterator = scalars.makeIterator()
        guard let first = iterator.next() else { return 0 }
        guard let second = iterator.next() else { return of(scalar: first) }
        if isRegionalIndicator(first.value) { return 2 }
        if isEmojiPresentation(first) { return 2 }
        // A text-style emoji becomes a 2-column emoji with VS16 or a skin tone; a digit or `#`
        // with VS16 and U+20E3 is a keycap.
        var hasSelector = isEmojiPresentationSelector(second)
        while !hasSelector, let next = iterator.next() {
            hasSelector = isEmojiPresentationSelector(next)
        }
        if hasSelector && first.properties.isEmoji { return 2 }
        var width = 0
        for scalar in scalars { width += of(scalar: scalar) }
        return width
    }

    /// The number of columns `text` takes: the sum of its grapheme clusters' widths.
    public static func of(_ text: String) -> Int {
        of(text[...])
    }

    /// The number of columns `text` takes: the sum of its grapheme clusters' widths.
    public static func of(_ text: Substring) -> Int {
        // The bytes are taken from the base string's `UTF8View`, not the substring's: that one
        // forwards to the generic `Slice<String.UTF8View>`, whose type the runtime builds at
        // first use by checking its generic requirements, a scan of every protocol conformance
        // in the binary: 400,000 instructions and a dozen page faults of `show`'s launch
        // (callgrind). Offsets in a native string's UTF-8 are found in constant time.
        let base = text.base.utf8
        let start = base.distance(from: base.startIndex, to: text.startIndex)
        let end = start + base.distance(from: text.startIndex, to: text.endIndex)
        if let width = base.withContiguousStorageIfAvailable({ width(of: text, utf8: UnsafeBufferPointer(rebasing: $0[start ..< end])) }) {
            return width
        }
        // Bridged or foreign strings have no contiguous UTF-8; a native copy has.
        var copy = String(text)
        copy.makeContiguousUTF8()
        return of(copy)
    }

    /// The width of `text`, whose UTF-8 form is `utf8`.
    ///
    /// Only an emoji sequence is narrower than the sum of its scalars, and every one holds an
    /// emoji-presentation scalar (regional indicators and skin tones are) or VS16. Words without
    /// one are summed scalar by scalar, decoded straight from the bytes, sparing the grapheme
    /// breaking. Words end at a space followed by ASCII: clusters break on both sides of it.
    private static func width(of text: Substring, utf8: UnsafeBufferPointer<UInt8>) -> Int {
        var width = 0
        var wordStart = 0
        var wordWidth = 0
        var wordHasEmoji = false
        var offset = 0
        let count = utf8.count
        while offset < count {
            let lead = utf8[offset]
            if lead < 0x80 {
                offset += 1
                // A space before anything but ASCII may carry marks (even skin tones) in its
                // cluster; it then stays in the word, to be measured with them.
                if lead == 0x20 && (offset == count || utf8[offset] < 0x80) {
                    width += (wordHasEmoji ? clusterWidth(text, from: wordStart, to: offset - 1) : wordWidth) + 1
                    wordStart = offset
                    wordWidth = 0
                    wordHasEmoji = false
                } else if lead >= 0x20 && lead < 0x7F {
                    wordWidth += 1
                }
                continue
            }
            // The text is valid UTF-8: a lead byte tells the length, continuation bytes the rest.
            // In bounds: a `String` holds only valid UTF-8 and a substring's bounds fall between
            // scalars, so every lead byte is followed by all of its continuation bytes.
            var value: UInt32
            if lead < 0xE0 {
                value = UInt32(lead & 0x1F) << 6 | UInt32(utf8[offset + 1] & 0x3F)
                offset += 2
            } else if lead < 0xF0 {
                value = UInt32(lead & 0x0F) << 12 | UInt32(utf8[offset + 1] & 0x3F) << 6 | UInt32(utf8[offset + 2] & 0x3F)
                offset += 3
            } else {
                value = UInt32(lead & 0x07) << 18 | UInt32(utf8[offset + 1] & 0x3F) << 12
                    | UInt32(utf8[offset + 2] & 0x3F) << 6 | UInt32(utf8[offset + 3] & 0x3F)
                offset += 4
            }
            guard !wordHasEmoji, let scalar = Unicode.Scalar(value) else { continue }
            let scalarWidth = of(scalar: scalar)
            if value == 0xFE0F || (scalarWidth == 2 && isEmojiPresentation(scalar)) {
                wordHasEmoji = true
            }
            wordWidth += scalarWidth
        }
        return width + (wordHasEmoji ? clusterWidth(text, from: wordStart, to: count) : wordWidth)
    }

    /// The width of the part of `text` between two UTF-8 offsets, cluster by cluster.
    private static func clusterWidth(_ text: Substring, from start: Int, to end: Int) -> Int {
        let utf8 = text.utf8
        let startIndex = utf8.index(utf8.startIndex, offsetBy: start)
        let endIndex = utf8.index(startIndex, offsetBy: end - start)
        return clusterWidth(text[startIndex..<endIndex])
    }

    /// The width of `text` cluster by cluster, in time linear in its length.
    ///
    /// It steps by subscript and UTF-8 length rather than with the substring's own iterator:
    /// `Substring.index(after:)`, on a substring whose bounds were not made by stepping over
    /// clusters (these come from UTF-8 offsets), first checks that its index is a cluster
    /// boundary by looking backwards, and inside a run of regional indicators that look goes
    /// back to the start of the run. Over a run of flags that was quadratic: 50,000 regional
    /// indicators in a display name took 12 s. The subscript only looks forwards.
    private static func clusterWidth(_ text: Substring) -> Int {
        var width = 0
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            width += of(character: character)
            index = text.utf8.index(index, offsetBy: character.utf8.count)
        }
        return width
    }

    /// The number of columns `scalar` takes on its own, outside any emoji sequence.
    public static func of(scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value >= 0x20 ? 1 : 0 }
        if value < 0xA0 { return 0 }
        // Latin, Greek, Cyrillic, Armenian, Hebrew and Arabic letters: the common cases after
        // ASCII, settled without looking at Unicode properties (a test checks them against it).
        if value < 0x300 { return value == 0xAD ? 0 : 1 }
        if (0x370..<0x483).contains(value) || (0x48A..<0x591).contains(value) || (0x5D0..<0x600).contains(value)
            || (0x620..<0x64B).contains(value) {
            return 1
        }
        // General punctuation (dashes, quotes, bullets, ellipsis): one column, and common.
        if (0x2010...0x2027).contains(value) || (0x2030...0x205E).contains(value) { return 1 }
        // The bulk of CJK text: ideographs and Hangul syllables.
        if (0x4E00...0x9FFF).contains(value) || (0xAC00...0xD7A3).contains(value) { return 2 }
        // Hangul medial vowels and final consonants join the preceding initial consonant's cells.
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
        // Emoji and other pictographs: no marks or format characters among them.
        if (0x1F000...0x1FAFF).contains(value) {
            return isEmojiPresentation(scalar) || EastAsianWidthTable.isWide(value) ? 2 : 1
        }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format:
            return 0
        default:
            break
        }
        return isEmojiPresentation(scalar) || EastAsianWidthTable.isWide(value) ? 2 : 1
    }

    /// Whether `scalar` is an emoji shown as one by default. Every such scalar lies in
    /// U+231A–U+2BFF or U+1F000–U+1FAFF; the range check spares the property lookup for
    /// everything else.
    static func isEmojiPresentation(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        guard (0x231A...0x2BFF).contains(value) || (0x1F000...0x1FAFF).contains(value) else { return false }
        return scalar.properties.isEmojiPresentation
    }

    /// The width of text that is entirely printable ASCII (one column per byte), or `nil` when
    /// it holds anything else. Most handles, URLs and many messages take this path.
    static func asciiWidth(_ utf8: some Collection<UInt8>) -> Int? {
        let fast = utf8.withContiguousStorageIfAvailable { buffer -> Int? in
            for byte in buffer where byte < 0x20 || byte >= 0x7F { return nil }
            return buffer.count
        }
        if let fast { return fast }
        var count = 0
        for byte in utf8 {
            if byte < 0x20 || byte >= 0x7F { return nil }
            count += 1
        }
        return count
    }

    /// A regional indicator: two of them make a flag.
    static func isRegionalIndicator(_ value: UInt32) -> Bool {
        (0x1F1E6...0x1F1FF).contains(value)
    }

    /// VS16 or a skin-tone modifier: either turns a preceding emoji into its 2-column form.
    private static func isEmojiPresentationSelector(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0xFE0F || (0x1F3FB...0x1F3FF).contains(scalar.value)
    }
}
