/// Decodes the HTML character references that Mastodon content and tweet text carry.
///
/// Named references: all 2,125 of the HTML Standard (`&amp;`, `&hellip;`, `&eacute;`, `&mdash;`,
/// `&nbsp;`, which becomes U+00A0 so that wrapping keeps the words it joins together; a few
/// stand for two scalars), from `HTMLEntityTable`, generated from the standard's list.
/// Numeric references: decimal `&#39;` and hexadecimal `&#x27;`/`&#X27;`. The terminating `;`
/// is required, also for the legacy names HTML accepts without it (`&copy`): text such as
/// `AT&T` or `&copy2024` is not guessed at. Anything else — an unknown name, a missing `;`, a
/// number that is no Unicode scalar (`&#0;`, a surrogate, beyond U+10FFFF) — stays exactly as
/// written, so no text is lost.
///
/// What comes out is still untrusted: `&#27;` is an escape character, which the renderer's
/// `TerminalText` neutralises like any other.
public enum HTMLEntities {
    /// `text` with its character references decoded.
    public static func decode(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var output = String.UnicodeScalarView()
        decode(Array(text.unicodeScalars)[...], into: &output)
        return String(output)
    }

    /// Appends `scalars` to `output` with their character references decoded.
    static func decode(_ scalars: ArraySlice<Unicode.Scalar>, into output: inout String.UnicodeScalarView) {
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if scalar == "&", let (decoded, next) = reference(in: scalars, at: index) {
                output.append(decoded.first)
                if let second = decoded.second { output.append(second) }
                index = next
            } else {
                output.append(scalar)
                index += 1
            }
        }
    }

    /// What a reference stands for: one scalar, or two for a few named ones (`&NotEqualTilde;`).
    struct Decoded {
        var first: Unicode.Scalar
        var second: Unicode.Scalar?
    }

    /// The longest reference worth reading: `&`, the longest name, `;` (`&#x10FFFF;` is shorter).
    private static let maximumLength = HTMLEntityTable.longestName + 2

    /// The scalar the reference starting with the `&` at `start` stands for and the index after
    /// its `;`, or `nil` when it is not one this decoder knows.
    static func reference(in scalars: ArraySlice<Unicode.Scalar>, at start: Int) -> (Decoded, Int)? {
        let limit = min(scalars.endIndex, start + maximumLength)
        guard let semicolon = scalars[start + 1 ..< limit].firstIndex(of: ";") else { return nil }
        let body = scalars[start + 1 ..< semicolon]
        guard let first = body.first else { return nil }
        if first == "#" {
            var digits = body.dropFirst()
            var radix: UInt32 = 10
            if let marker = digits.first, marker == "x" || marker == "X" {
                radix = 16
                digits = digits.dropFirst()
            }
            guard !digits.isEmpty else { return nil }
            var value: UInt32 = 0
            for digit in digits {
                guard let digitValue = hexValue(digit), digitValue < radix else { return nil }
                value = value * radix + digitValue
                guard value <= 0x10FFFF else { return nil }
            }
            guard value != 0, let decoded = Unicode.Scalar(value) else { return nil }
            return (Decoded(first: decoded), semicolon + 1)
        }
        guard let entry = named(body), let first = Unicode.Scalar(entry.first) else { return nil }
        return (Decoded(first: first, second: entry.second == 0 ? nil : Unicode.Scalar(entry.second)), semicolon + 1)
    }

    /// The table's entry for `name`, by binary search over its sorted names.
    private static func named(_ name: ArraySlice<Unicode.Scalar>) -> (first: UInt32, second: UInt32)? {
        let entries = HTMLEntityTable.entries
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            let order = compare(entries[middle].name, name)
            if order == 0 { return (entries[middle].first, entries[middle].second) }
            if order < 0 { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// The order of an (ASCII) table name and `name`: negative, zero or positive.
    private static func compare(_ tableName: StaticString, _ name: ArraySlice<Unicode.Scalar>) -> Int {
        tableName.withUTF8Buffer { bytes in
            var index = name.startIndex
            for byte in bytes {
                guard index < name.endIndex else { return 1 }
                let scalar = name[index].value
                if UInt32(byte) != scalar { return UInt32(byte) < scalar ? -1 : 1 }
                index += 1
            }
            return index < name.endIndex ? -1 : 0
        }
    }

    private static func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar.value {
        case 0x30 ... 0x39: scalar.value - 0x30
        case 0x41 ... 0x46: scalar.value - 0x41 + 10
        case 0x61 ... 0x66: scalar.value - 0x61 + 10
        default: nil
        }
    }
}
