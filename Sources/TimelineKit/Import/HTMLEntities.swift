/// Decodes the HTML character references that Mastodon content and tweet text carry.
///
/// Named references: `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;` and `&nbsp;` (which becomes
/// U+00A0, so that wrapping keeps the words it joins together). Numeric references: decimal
/// `&#39;` and hexadecimal `&#x27;`/`&#X27;`. The terminating `;` is required. Anything else —
/// an unknown name, a missing `;`, a number that is no Unicode scalar (`&#0;`, a surrogate, beyond
/// U+10FFFF) — stays exactly as written, so no text is lost or guessed at.
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
                output.append(decoded)
                index = next
            } else {
                output.append(scalar)
                index += 1
            }
        }
    }

    /// The longest reference worth reading: `&#x10FFFF;` and `&nbsp;` are far shorter.
    private static let maximumLength = 12

    /// The scalar the reference starting with the `&` at `start` stands for and the index after
    /// its `;`, or `nil` when it is not one this decoder knows.
    static func reference(in scalars: ArraySlice<Unicode.Scalar>, at start: Int) -> (Unicode.Scalar, Int)? {
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
            return (decoded, semicolon + 1)
        }
        let name = String(String.UnicodeScalarView(body))
        let decoded: Unicode.Scalar
        switch name {
        case "amp": decoded = "&"
        case "lt": decoded = "<"
        case "gt": decoded = ">"
        case "quot": decoded = "\""
        case "apos": decoded = "'"
        case "nbsp": decoded = "\u{A0}"
        default: return nil
        }
        return (decoded, semicolon + 1)
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
