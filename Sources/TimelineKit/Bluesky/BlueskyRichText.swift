/// Finds the links, mentions, hashtags and cashtags of a post's text as the official SDK does,
/// so that a post written here reads in every Bluesky app as it would written there.
///
/// The reference is `detectFacets` of `@atproto/api` (`packages/api/src/rich-text/detection.ts`
/// and the regular expressions of `util.ts`), which the Bluesky apps run, as ported to the
/// Python SDK (`atproto_client.utils.detect_facets` and `detect_mentions`), which the tests
/// compare this with (`Tests/TimelineKitTests/Bluesky/BlueskyRichTextSDKTests.swift`). The
/// expressions are followed step by step, matches taken left to right without overlap as a
/// global regular expression does, so the edge cases come out the same:
/// - a link is `http(s)://` and everything up to white space, or a bare domain whose last label
///   is a known top-level domain (`example.com/x` links to `https://example.com/x`), after
///   white space, `(` or a line start; one trailing `.,;:!?` is dropped, then a `)` when the
///   link has no `(` (a Wikipedia link `…/Swift_(language)` keeps its closing parenthesis);
/// - a mention is `@` and a handle after white space, `(` or the start, cut where an ASCII word
///   ends (`@alice.bsky.social's` and `@alice.bsky.social.` mention `alice.bsky.social`), and
///   kept only when its last label is a known top-level domain or `test`;
/// - a tag is `#` or the full-width `＃` after white space or the start, and the run of
///   characters up to white space or a zero-width character, when it holds something that is
///   not a digit or punctuation; its trailing punctuation (Unicode's `P`, CJK's `。`, `、` and
///   `」` included) is not part of it; at most 64 characters;
/// - a cashtag is `$` and a ticker (a letter and up to four letters or digits) followed by white
///   space, the end or `.,;:!?)"'’`; it becomes the tag `$TICKER`, upper-cased.
/// White space is JavaScript's `\s`: the ideographic space U+3000 and the other Unicode spaces
/// separate words as a space does.
///
/// Two decisions differ from the TypeScript and follow the Python SDK, because the TypeScript
/// writes records the lexicon refuses: a mention must be a syntactically valid handle (the
/// TypeScript would send `resolveHandle` for `@-x.com` and write an empty DID), and a bare
/// domain that starts with `http` (`httpbin.org`) is a link to `https://httpbin.org`, not the
/// scheme-less URI `httpbin.org`.
enum BlueskyRichText {
    /// A piece of the text that becomes a facet: its UTF-8 byte range and what it is.
    struct Facet: Equatable {
        enum Feature: Equatable {
            /// A link to the URI (the text's URL, `https://` added to a bare domain).
            case link(String)
            /// A mention of the handle, to be resolved to a DID before it is written.
            case mention(handle: String)
            /// A hashtag (without `#`), or a cashtag (`$AAPL`, with its `$`).
            case tag(String)
        }

        var start: Int
        var end: Int
        var feature: Feature
    }

    /// The facets of `text`, ordered by where they start (a stable sort of mentions, links, tags
    /// and cashtags, the order the SDK finds them in).
    static func detectFacets(in text: String) -> [Facet] {
        let scanner = Scanner(text)
        let found = scanner.mentions() + scanner.links() + scanner.tags() + scanner.cashtags()
        return found.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
    }

    /// Whether `text` can be a handle: a domain name of at least two labels of ASCII letters,
    /// digits and inner hyphens (63 bytes at most), the last starting with a letter, 253 bytes
    /// at most (the AT Protocol's handle syntax).
    static func isHandle(_ text: String) -> Bool {
        let labels = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard labels.count >= 2, text.utf8.count <= 253, let last = labels.last, let first = last.first, Scanner.isASCIILetter(first) else {
            return false
        }
        return labels.allSatisfy { label in
            !label.isEmpty && label.count <= 63 && label.first != UInt8(ascii: "-") && label.last != UInt8(ascii: "-")
                && label.allSatisfy { Scanner.isASCIIAlphanumeric($0) || $0 == UInt8(ascii: "-") }
        }
    }

    /// Whether the last label of `domain` is a top-level domain (exactly, lower case, as the
    /// SDK compares).
    static func hasKnownTopLevelDomain(_ domain: some StringProtocol) -> Bool {
        guard let dot = domain.lastIndex(of: ".") else { return false }
        return TopLevelDomains.all.contains(String(domain[domain.index(after: dot)...]))
    }

    /// Unicode's `\p{P}`: the seven punctuation categories (CJK's `。`, `、`, `「」` among them).
    static func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation: true
        default: false
        }
    }

    /// The text as Unicode scalars (the SDK's regular expressions match code points) with the
    /// UTF-8 offset of each, and one matcher per kind of facet.
    private struct Scanner {
        let scalars: [Unicode.Scalar]
        /// `utf8Offsets[i]` is the byte offset of `scalars[i]`; the last entry is the length.
        let utf8Offsets: [Int]

        init(_ text: String) {
            scalars = Array(text.unicodeScalars)
            var offsets: [Int] = []
            offsets.reserveCapacity(scalars.count + 1)
            var offset = 0
            for scalar in scalars {
                offsets.append(offset)
                offset += UTF8.width(scalar)
            }
            offsets.append(offset)
            utf8Offsets = offsets
        }

        private func facet(_ start: Int, _ end: Int, _ feature: Facet.Feature) -> Facet {
            Facet(start: utf8Offsets[start], end: utf8Offsets[end], feature: feature)
        }

        private func string(_ start: Int, _ end: Int) -> String {
            var result = String.UnicodeScalarView()
            result.append(contentsOf: scalars[start ..< end])
            return String(result)
        }

        private func scalar(_ index: Int) -> Unicode.Scalar? {
            index >= 0 && index < scalars.count ? scalars[index] : nil
        }

        /// `MENTION_REGEX`: `(^|\s|\()(@)([a-zA-Z0-9.-]+)(\b)`.
        func mentions() -> [Facet] {
            var facets: [Facet] = []
            var position = 0
            while position < scalars.count {
                let at: Int
                if position == 0, scalars[0] == "@" {
                    at = 0
                } else if Self.isSpace(scalars[position]) || scalars[position] == "(", scalar(position + 1) == "@" {
                    at = position + 1
                } else {
                    position += 1
                    continue
                }
                var runEnd = at + 1
                while let next = scalar(runEnd), Self.isHandleCharacter(next) { runEnd += 1 }
                // `[…]+` gives back characters until `\b` holds: the last one kept is a word
                // character and the next is not, or the other way round.
                var end = runEnd
                while end > at + 1, Self.isWordCharacter(scalar(end - 1)) == Self.isWordCharacter(scalar(end)) { end -= 1 }
                guard end > at + 1 else {
                    position += 1
                    continue
                }
                let handle = string(at + 1, end)
                if BlueskyRichText.isHandle(handle), BlueskyRichText.hasKnownTopLevelDomain(handle) || handle.hasSuffix(".test") {
                    facets.append(facet(at, end, .mention(handle: handle)))
                }
                position = end
            }
            return facets
        }

        /// `URL_REGEX` (case-insensitive, `^` at line starts):
        /// `(^|\s|\()((https?:\/\/[\S]+)|((?<domain>[a-z][a-z0-9]*(\.[a-z0-9]+)+)[\S]*))`.
        func links() -> [Facet] {
            var facets: [Facet] = []
            var position = 0
            while position < scalars.count {
                // `^` is tried before a leading white space or `(`, as the alternation orders them.
                let match: (start: Int, end: Int, domainEnd: Int?)
                if position == 0 || scalars[position - 1] == "\n", let found = linkMatch(from: position) {
                    match = (position, found.end, found.domainEnd)
                } else if Self.isSpace(scalars[position]) || scalars[position] == "(", let found = linkMatch(from: position + 1) {
                    match = (position + 1, found.end, found.domainEnd)
                } else {
                    position += 1
                    continue
                }
                position = match.end
                if let facet = link(match) { facets.append(facet) }
            }
            return facets
        }

        /// Where a link that starts at `start` ends, and where its domain ends when it has no
        /// scheme; nil when none starts there.
        private func linkMatch(from start: Int) -> (end: Int, domainEnd: Int?)? {
            var index = start
            for scheme in ["https://", "http://"] where hasPrefixIgnoringCase(scheme, at: start) {
                index = start + scheme.unicodeScalars.count
                // `[\S]+`: at least one character; else `https?` gives back and the domain is tried.
                guard let first = scalar(index), !Self.isSpace(first) else { break }
                while let next = scalar(index), !Self.isSpace(next) { index += 1 }
                return (index, nil)
            }
            guard let first = scalar(start), Self.isASCIILetter(first) else { return nil }
            index = start + 1
            while let next = scalar(index), Self.isASCIIAlphanumeric(next) { index += 1 }
            var domainEnd: Int?
            while scalar(index) == ".", let after = scalar(index + 1), Self.isASCIIAlphanumeric(after) {
                index += 2
                while let next = scalar(index), Self.isASCIIAlphanumeric(next) { index += 1 }
                domainEnd = index
            }
            guard let domainEnd else { return nil }
            while let next = scalar(index), !Self.isSpace(next) { index += 1 }
            return (index, domainEnd)
        }

        /// The link facet of a match, its trailing punctuation dropped as the SDK drops it; nil
        /// for a scheme in capitals (the SDK compares `http://` exactly) or a bare domain
        /// without a known top-level domain.
        private func link(_ match: (start: Int, end: Int, domainEnd: Int?)) -> Facet? {
            var end = match.end
            var uri = string(match.start, end)
            if let domainEnd = match.domainEnd {
                guard BlueskyRichText.hasKnownTopLevelDomain(string(match.start, domainEnd)) else { return nil }
                uri = "https://" + uri
            } else if !uri.hasPrefix("http://") && !uri.hasPrefix("https://") {
                return nil
            }
            if let last = uri.unicodeScalars.last, ".,;:!?".unicodeScalars.contains(last) {
                uri.unicodeScalars.removeLast()
                end -= 1
            }
            if uri.unicodeScalars.last == ")", !uri.unicodeScalars.contains("(") {
                uri.unicodeScalars.removeLast()
                end -= 1
            }
            return facet(match.start, end, .link(uri))
        }

        private func hasPrefixIgnoringCase(_ prefix: String, at start: Int) -> Bool {
            var index = start
            for expected in prefix.unicodeScalars {
                guard let actual = scalar(index), actual.value < 0x80,
                      Self.lowercased(actual) == expected.value else { return false }
                index += 1
            }
            return true
        }

        /// `TAG_REGEX`: `#` or `＃` after white space or the start, and the run up to white space
        /// or a zero-width character when it does not start with U+FE0F and holds a character
        /// that is not a digit, white space or punctuation.
        func tags() -> [Facet] {
            var facets: [Facet] = []
            var position = 0
            while position < scalars.count {
                let hash: Int
                if position == 0, Self.isHashSign(scalars[0]) {
                    hash = 0
                } else if Self.isSpace(scalars[position]), let next = scalar(position + 1), Self.isHashSign(next) {
                    hash = position + 1
                } else {
                    position += 1
                    continue
                }
                var end = hash + 1
                while let next = scalar(end), !Self.isSpace(next), !Self.isZeroWidth(next) { end += 1 }
                position = hash + 1
                guard scalar(hash + 1) != "\u{FE0F}",
                      scalars[hash + 1 ..< end].contains(where: { !($0.value >= 0x30 && $0.value <= 0x39) && !BlueskyRichText.isPunctuation($0) }) else {
                    continue
                }
                position = end
                while end > hash + 1, BlueskyRichText.isPunctuation(scalars[end - 1]) { end -= 1 }
                let tag = string(hash + 1, end)
                // The SDK counts UTF-16 units and, past 64, graphemes.
                guard tag.utf16.count <= 64 || tag.count <= 64 else { continue }
                facets.append(facet(hash, end, .tag(tag)))
            }
            return facets
        }

        /// `CASHTAG_REGEX`: `(^|\s|\()\$([A-Za-z][A-Za-z0-9]{0,4})(?=\s|$|[.,;:!?)"'’])`.
        func cashtags() -> [Facet] {
            var facets: [Facet] = []
            var position = 0
            while position < scalars.count {
                let dollar: Int
                if position == 0, scalars[0] == "$" {
                    dollar = 0
                } else if Self.isSpace(scalars[position]) || scalars[position] == "(", scalar(position + 1) == "$" {
                    dollar = position + 1
                } else {
                    position += 1
                    continue
                }
                guard let first = scalar(dollar + 1), Self.isASCIILetter(first) else {
                    position += 1
                    continue
                }
                var end = dollar + 2
                while let next = scalar(end), Self.isASCIIAlphanumeric(next) { end += 1 }
                // Within the run every character is a letter or digit, so only the whole run,
                // five characters at most, can be followed by what the look-ahead wants.
                guard end - dollar - 1 <= 5, scalar(end).map({ Self.isSpace($0) || ".,;:!?)\"'\u{2019}".unicodeScalars.contains($0) }) ?? true else {
                    position += 1
                    continue
                }
                facets.append(facet(dollar, end, .tag("$" + string(dollar + 1, end).uppercased())))
                position = end
            }
            return facets
        }

        // MARK: Character classes

        /// JavaScript's `\s`: the Unicode spaces and line ends, the byte order mark.
        static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x09 ... 0x0D, 0x20, 0xA0, 0x1680, 0x2000 ... 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: true
            default: false
            }
        }

        /// The zero-width characters that end a tag as white space does.
        static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0xAD, 0x2060, 0x200A, 0x200B, 0x200C, 0x200D, 0x20E2: true
            default: false
            }
        }

        static func isHashSign(_ scalar: Unicode.Scalar) -> Bool { scalar == "#" || scalar == "\u{FF03}" }

        static func isHandleCharacter(_ scalar: Unicode.Scalar) -> Bool {
            isASCIIAlphanumeric(scalar) || scalar == "." || scalar == "-"
        }

        /// An ASCII word character (`\b` without the Unicode flag): a letter, a digit or `_`.
        static func isWordCharacter(_ scalar: Unicode.Scalar?) -> Bool {
            guard let scalar else { return false }
            return isASCIIAlphanumeric(scalar) || scalar == "_"
        }

        static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x80 && isASCIILetter(UInt8(scalar.value)) }

        static func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
            scalar.value < 0x80 && isASCIIAlphanumeric(UInt8(scalar.value))
        }

        static func isASCIILetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

        static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool { isASCIILetter(byte) || (byte >= 0x30 && byte <= 0x39) }

        static func lowercased(_ scalar: Unicode.Scalar) -> UInt32 {
            scalar.value >= 0x41 && scalar.value <= 0x5A ? scalar.value | 0x20 : scalar.value
        }
    }
}
