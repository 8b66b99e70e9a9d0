/// The web links written in a message's text, in the order they are written, for
/// `timeline open --link N`.
///
/// A link starts with `http://` or `https://` (any case) at the start of the text or after a
/// space or one of `(<["'`, and runs to the next white space; punctuation that ends a sentence
/// (`.,;:!?'"`), and a closing bracket with no opening one in the link, are left out, as the
/// servers' own linkifiers leave them out. The text is the stored plain text (Mastodon's HTML
/// already read), so a link is written in full there.
public enum WebLinks {
    /// The links in `text`, first to last.
    public static func find(in text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        var links: [String] = []
        var index = 0
        while index < scalars.count {
            let starts = index == 0 || isSpace(scalars[index - 1]) || "(<[\"'".unicodeScalars.contains(scalars[index - 1])
            guard starts, let schemeLength = scheme(in: scalars, at: index) else {
                index += 1
                continue
            }
            var end = index + schemeLength
            while end < scalars.count, !isSpace(scalars[end]) { end += 1 }
            var link = Array(scalars[index..<end])
            while let last = link.last, link.count > schemeLength, isTrailing(last, in: link) { link.removeLast() }
            if link.count > schemeLength {
                var string = ""
                string.unicodeScalars.append(contentsOf: link)
                links.append(string)
            }
            index = end
        }
        return links
    }

    /// The length of `http://` or `https://` at `index`, any case; nil when neither is there.
    private static func scheme(in scalars: [Unicode.Scalar], at index: Int) -> Int? {
        for scheme in ["https://", "http://"] {
            let expected = Array(scheme.unicodeScalars)
            guard index + expected.count <= scalars.count else { continue }
            if zip(scalars[index..<(index + expected.count)], expected).allSatisfy({ Self.lowered($0) == $1 }) {
                return expected.count
            }
        }
        return nil
    }

    private static func lowered(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace
    }

    /// Whether `last` ends a sentence rather than the link: punctuation, or a closing bracket
    /// the link does not open.
    private static func isTrailing(_ last: Unicode.Scalar, in link: [Unicode.Scalar]) -> Bool {
        if ".,;:!?'\"".unicodeScalars.contains(last) { return true }
        let pairs: [Unicode.Scalar: Unicode.Scalar] = [")": "(", "]": "[", ">": "<"]
        guard let opening = pairs[last] else { return false }
        return link.filter { $0 == opening }.count < link.filter { $0 == last }.count
    }
}
