/// The rule a message's web links (``Message/links``) are kept by, written once for every source
/// that reads them (issue 37: Mastodon's anchors, Bluesky's link facets and link cards).
///
/// Links come from a stranger's post, so what is kept is bounded whatever the post holds: only
/// `http` and `https` addresses (any case; `javascript:`, `mailto:`, relative links dropped),
/// none holding white space or control characters (a browser would read such an address
/// otherwise than it is written), each at most ``maximumBytes`` long (a longer one is dropped,
/// not cut: a cut address leads elsewhere), each once, the first ``maximumCount`` in order.
public enum MessageLinks {
    /// The most links kept of one message: a post links a few; the rest of a flood is dropped.
    public static let maximumCount = 20
    /// The longest link kept, in bytes of UTF-8: 2,048, the longest address browsers and
    /// search engines have long been counted on to take.
    public static let maximumBytes = 2_048

    /// The links of `candidates` that are kept, in their order, each once.
    ///
    /// ```swift
    /// MessageLinks.kept(["https://a.example", "javascript:alert(1)", "https://a.example"])
    /// // ["https://a.example"]
    /// ```
    public static func kept(_ candidates: some Sequence<String>) -> [String] {
        var links: [String] = []
        for candidate in candidates where isKept(candidate) && !links.contains(candidate) {
            links.append(candidate)
            if links.count == maximumCount { break }
        }
        return links
    }

    /// Whether `link` is one that would be kept: an `http` or `https` address with something
    /// after its scheme, within the length, without white space or control characters.
    public static func isKept(_ link: String) -> Bool {
        let bytes = link.utf8
        guard bytes.count <= maximumBytes else { return false }
        let scheme: Int
        if hasPrefix(bytes, "https://") {
            scheme = 8
        } else if hasPrefix(bytes, "http://") {
            scheme = 7
        } else {
            return false
        }
        guard bytes.count > scheme else { return false }
        // Control characters and white space, ASCII and beyond (U+0085, U+00A0, U+2028…).
        return !link.unicodeScalars.contains { $0.value < 0x21 || $0.value == 0x7F || $0.properties.isWhitespace
            || $0.properties.generalCategory == .control || $0.properties.generalCategory == .format }
    }

    /// Whether `bytes` start with the lowercase ASCII `prefix`, its letters compared without case.
    private static func hasPrefix(_ bytes: String.UTF8View, _ prefix: String) -> Bool {
        var iterator = bytes.makeIterator()
        for expected in prefix.utf8 {
            guard let byte = iterator.next() else { return false }
            let isLetter = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(expected)
            guard byte == expected || (isLetter && byte | 0x20 == expected) else { return false }
        }
        return true
    }
}
