/// Turns the HTML of a Mastodon status (`content`) into plain text for a terminal, the way the
/// web interface shows it: no regular expressions, no XML parser (Mastodon HTML is not XML, and
/// Foundation's parser is not in FoundationEssentials), one pass over the scalars.
///
/// - `<p>` paragraphs are separated by one blank line; `<br>` is a line break. Other block
///   elements a remote server may send (`div`, `blockquote`, `pre`, `ul`, `ol`, `h1`–`h6`) break
///   like paragraphs. Inside `pre`, line breaks and spaces are kept (code, ASCII art). A list
///   item starts a line with `• ` (in `ul`) or its number (`1. `, in `ol`), indented two
///   columns for each list it is nested in (up to four).
/// - A link shows its visible text: mentions read `@user`, hashtags `#tag`. Its `href` is one of
///   the status's links (`links(…)`, issue 37) unless it is a mention or a hashtag (a `class`
///   naming `mention` or `hashtag`, or `rel="tag"`): the text may not spell it out.
/// - Long links are shortened as the server marked them: `<span class="invisible">` is dropped
///   and `<span class="ellipsis">` is followed by `…`, so
///   `https://example.com/a/very/long/path` shows as `example.com/a/very/lo…`.
/// - Character references are decoded (see `HTMLEntities`); an unknown one stays as written.
/// - Every other tag is removed with its attributes, and so are comments and the contents of
///   `script` and `style`. Raw line breaks and tabs in the HTML are spaces, as in a browser.
/// - Custom emoji shortcodes (`:blobcat:`) are plain text already and stay.
///
/// Malformed HTML gives text, never a crash, in one pass however it is malformed: a `<` that
/// starts no tag (`a < b`, or a `<` or `</` at the very end) is text; a tag still open at the end of
/// the content (`<a href="…` whose quote never closes) makes the rest of the content text, as
/// written; an unclosed comment hides the rest, as in a browser; a closing tag that matches
/// nothing is ignored.
///
/// The result is still untrusted text: it can hold control characters (`&#27;`), bidirectional
/// overrides and anything else a sender chose. `TimelineRenderer` neutralises it, like all text.
public enum MastodonHTML {
    /// The largest `content` the decoders convert, in bytes of UTF-8: ten times the text limit
    /// (`JSONLinesImporter.maximumTextBytes`), room for the markup of a text at that limit (a
    /// link's markup is a few hundred bytes for a few dozen shown). Larger content is refused
    /// before it is converted, like a text over the limit.
    public static let maximumContentBytes = 10 * MessageText.maximumBytes

    /// The plain text of `html`, without blank lines at its start or end.
    ///
    /// Time and memory are linear in the length of `html`, whatever it holds.
    public static func plainText(_ html: String) -> String {
        textAndLinks(html).text
    }

    /// The plain text of `html` (as ``plainText(_:)``) and its links: the `href` of each anchor
    /// that is neither a mention nor a hashtag, character references decoded, kept by
    /// ``MessageLinks``' rule (`http` and `https` only, each once, at most 20) in one pass.
    ///
    /// ```swift
    /// MastodonHTML.textAndLinks(#"<p>read <a href="https://example.org/a"><span class="invisible">https://</span>example.org/a</a></p>"#)
    /// // (text: "read example.org/a", links: ["https://example.org/a"])
    /// ```
    public static func textAndLinks(_ html: String) -> (text: String, links: [String]) {
        guard html.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) else {
            return (html, [])
        }
        var converter = Converter(Array(html.unicodeScalars))
        let text = converter.run()
        return (text, converter.links)
    }

    /// Elements whose effect lasts until they close.
    private enum Open {
        case plain, hidden, ellipsis
    }

    /// The elements that stay open in the converter: the only ones whose closing tag matters.
    private enum Element: Int, CaseIterable {
        case span, script, style, template

        init?(name: String) {
            switch name {
            case "span": self = .span
            case "script": self = .script
            case "style": self = .style
            case "template": self = .template
            default: return nil
            }
        }
    }

    private struct Tag {
        var name: String
        var isClosing: Bool
        var classes: [Substring]
        /// The `href` as written (character references not yet decoded), and whether `rel`
        /// names `tag`: only an opening `a` keeps them.
        var href: String.UnicodeScalarView?
        var isTagRelation = false
        /// The index after the `>`.
        var end: Int
    }

    /// What a `<` starts.
    private enum Markup {
        case tag(Tag)
        /// Nothing: the `<` is text (`a < b`, or no `>` anywhere after it).
        case text
        /// A tag that the content ends inside (within a quoted attribute value).
        case unterminated
    }

    private struct Converter {
        let input: [Unicode.Scalar]
        /// The index of the last `>` in the input, -1 when there is none. A tag or declaration
        /// that starts after it cannot end: knowing that at once, instead of scanning to the end
        /// for every such `<`, is what keeps `<a<a<a…` linear.
        let lastClosingBracket: Int
        /// Set once a tag has run into the end of the input: everything after it is text, so no
        /// other `<` scans to the end again.
        var tagsEnded = false
        var output = String.UnicodeScalarView()
        /// Line feeds owed before the next visible character (dropped at the start of the text).
        var pendingBreaks = 0
        /// How many open elements hide their contents.
        var hiddenDepth = 0
        /// Open `span`, `script`, `style`, `template` elements, innermost last.
        var open: [(element: Element, effect: Open)] = []
        /// How many of `open` are each element: a closing tag of an element that is not open
        /// is dismissed at once, not by searching the whole stack (thousands of stray `</span>`
        /// after thousands of `<span>` would take quadratic time).
        var openCounts = [Int](repeating: 0, count: Element.allCases.count)
        /// How many `pre` elements are open: inside one, line breaks and spaces are kept.
        var preDepth = 0
        /// The open lists, innermost last: `nil` for `ul`, the next item's number for `ol`.
        var lists: [Int?] = []
        /// The anchors' links kept so far (`MessageLinks`): checked one by one as they come, so
        /// a flood of anchors costs no more than reading them.
        var links: [String] = []

        init(_ input: [Unicode.Scalar]) {
            self.input = input
            lastClosingBracket = input.lastIndex(of: ">") ?? -1
        }

        mutating func run() -> String {
            var index = 0
            while index < input.count {
                let scalar = input[index]
                if scalar == "<" && !tagsEnded {
                    if let next = skipComment(at: index) {
                        index = next
                        continue
                    }
                    switch markup(at: index) {
                    case let .tag(tag):
                        handle(tag)
                        index = tag.end
                        continue
                    case .text:
                        break
                    case .unterminated:
                        tagsEnded = true
                    }
                }
                index += 1
                guard hiddenDepth == 0 else { continue }
                switch scalar {
                case "\n" where preDepth > 0:
                    pendingBreaks += 1
                case " " where preDepth > 0, "\t" where preDepth > 0:
                    appendKeepingBreaks(scalar)
                case "\r" where preDepth > 0:
                    break
                case " ", "\n", "\r", "\t":
                    // Whitespace right after a break would indent the next line; a browser drops it.
                    if pendingBreaks == 0 { append(" ") }
                case "&":
                    if let (decoded, next) = HTMLEntities.reference(in: input[...], at: index - 1) {
                        append(decoded.first)
                        if let second = decoded.second { append(second) }
                        index = next
                    } else {
                        append("&")
                    }
                default:
                    append(scalar)
                }
            }
            return String(output)
        }

        private mutating func append(_ scalar: Unicode.Scalar) {
            if pendingBreaks > 0 {
                // A space before a break would end the line with it, invisible but counted.
                while output.last == " " { output.removeLast() }
                if !output.isEmpty {
                    for _ in 0 ..< pendingBreaks { output.append("\n") }
                }
                pendingBreaks = 0
            }
            output.append(scalar)
        }

        /// `append` for a space that matters (in `pre`): after a break it starts the next line
        /// instead of being dropped, as indentation in code is.
        private mutating func appendKeepingBreaks(_ scalar: Unicode.Scalar) {
            if pendingBreaks > 0 {
                if !output.isEmpty {
                    for _ in 0 ..< pendingBreaks { output.append("\n") }
                }
                pendingBreaks = 0
            }
            output.append(scalar)
        }

        /// The deepest list nesting shown by indentation: deeper items line up with it, so a
        /// flood of `<ul>` cannot make each item's marker as long as the flood.
        static let deepestListIndent = 4

        private mutating func handle(_ tag: Tag) {
            switch tag.name {
            case "br":
                if hiddenDepth == 0 { pendingBreaks += 1 }
            case "pre":
                if tag.isClosing { preDepth = max(0, preDepth - 1) } else { preDepth += 1 }
                if hiddenDepth == 0 { pendingBreaks = max(pendingBreaks, 2) }
            case "ul", "ol":
                if tag.isClosing {
                    _ = lists.popLast()
                } else {
                    lists.append(tag.name == "ol" ? 1 : nil)
                }
                if hiddenDepth == 0 { pendingBreaks = max(pendingBreaks, lists.isEmpty ? 2 : 1) }
            case "li" where !tag.isClosing:
                guard hiddenDepth == 0 else { break }
                pendingBreaks = max(pendingBreaks, 1)
                // Items say what they are: `• ` in a `ul`, `1. ` in an `ol`, indented by nesting.
                var marker = String(repeating: "  ", count: min(max(0, lists.count - 1), Self.deepestListIndent))
                if let number = lists.last ?? nil {
                    marker += "\(number). "
                    lists[lists.count - 1] = number + 1
                } else {
                    marker += "• "
                }
                for scalar in marker.unicodeScalars { appendKeepingBreaks(scalar) }
            case "p", "div", "blockquote", "table", "h1", "h2", "h3", "h4", "h5", "h6":
                if hiddenDepth == 0 { pendingBreaks = max(pendingBreaks, 2) }
            case "li", "tr", "dt", "dd":
                if hiddenDepth == 0 { pendingBreaks = max(pendingBreaks, 1) }
            case "a" where !tag.isClosing:
                keepLink(of: tag)
            default:
                guard let element = Element(name: tag.name) else { break }
                if tag.isClosing {
                    close(element)
                } else {
                    let effect: Open = if element != .span || tag.classes.contains("invisible") {
                        .hidden
                    } else if tag.classes.contains("ellipsis") {
                        .ellipsis
                    } else {
                        .plain
                    }
                    if effect == .hidden { hiddenDepth += 1 }
                    open.append((element, effect))
                    openCounts[element.rawValue] += 1
                }
            }
        }

        /// Keeps the `href` of an anchor that is neither a mention nor a hashtag (Mastodon marks
        /// them `class="u-url mention"`, `class="mention hashtag"` and `rel="tag"`), decoded.
        private mutating func keepLink(of tag: Tag) {
            // An anchor inside hidden content (`script`, an invisible span) is no link a reader
            // has. An href longer than the limit in scalars is longer in bytes: dropped before
            // its references are decoded, so a huge one costs only its reading.
            guard hiddenDepth == 0, links.count < MessageLinks.maximumCount, let written = tag.href, !tag.isTagRelation,
                  !tag.classes.contains(where: { $0.contains("mention") || $0.contains("hashtag") }),
                  written.count <= MessageLinks.maximumBytes else { return }
            let href = Self.decodingReferences(written)
            if MessageLinks.isKept(href), !links.contains(href) { links.append(href) }
        }

        /// `value` with its character references decoded (`&amp;` in a query string).
        private static func decodingReferences(_ value: String.UnicodeScalarView) -> String {
            guard value.contains("&") else { return String(value) }
            let scalars = Array(value)
            var decoded = String.UnicodeScalarView()
            var index = 0
            while index < scalars.count {
                if scalars[index] == "&", let (reference, next) = HTMLEntities.reference(in: scalars[...], at: index) {
                    decoded.append(reference.first)
                    if let second = reference.second { decoded.append(second) }
                    index = next
                } else {
                    decoded.append(scalars[index])
                    index += 1
                }
            }
            return String(decoded)
        }

        /// Closes the innermost open `element` and any left open inside it. Every element
        /// searched past is closed too, so the search costs no more than the opening did.
        private mutating func close(_ element: Element) {
            guard openCounts[element.rawValue] > 0 else { return }
            while let innermost = open.popLast() {
                openCounts[innermost.element.rawValue] -= 1
                switch innermost.effect {
                case .hidden: hiddenDepth -= 1
                case .ellipsis: if hiddenDepth == 0 { append("…") }
                case .plain: break
                }
                if innermost.element == element { return }
            }
        }

        /// The index after a comment, `<!DOCTYPE …>` or `<?…>` starting at `start`.
        private func skipComment(at start: Int) -> Int? {
            guard start + 1 < input.count, input[start + 1] == "!" || input[start + 1] == "?" else { return nil }
            if start + 3 < input.count, input[start + 2] == "-", input[start + 3] == "-" {
                var index = start + 4
                while index + 2 < input.count {
                    if input[index] == "-", input[index + 1] == "-", input[index + 2] == ">" { return index + 3 }
                    index += 1
                }
                return input.count  // an unclosed comment hides the rest, as in a browser
            }
            guard start < lastClosingBracket else { return nil }
            // Found: `lastClosingBracket` lies after `start`. The run goes on after it, so
            // every scalar is scanned once.
            return input[start...].firstIndex(of: ">").map { $0 + 1 }
        }

        /// What the `<` at `start` starts: a tag, text (`a < b`, or no `>` after it), or a tag
        /// the input ends inside.
        private func markup(at start: Int) -> Markup {
            var index = start + 1
            var isClosing = false
            if index < input.count, input[index] == "/" {
                isClosing = true
                index += 1
            }
            guard index < input.count, isASCIILetter(input[index]), start < lastClosingBracket else { return .text }
            var name = ""
            while index < input.count, isASCIILetter(input[index]) || ("0" ... "9").contains(input[index]) {
                name.unicodeScalars.append(input[index])
                index += 1
            }
            var classes: [Substring] = []
            var href: String.UnicodeScalarView?
            var isTagRelation = false
            let isAnchor = !isClosing && name.lowercased() == "a"
            // Attributes: name, optionally = and a value in double quotes, single quotes or bare.
            // Outside quotes every `>` ends the tag, and there is one after `start`: only a quote
            // left open can take the scan to the end of the input.
            while index < input.count {
                let scalar = input[index]
                if scalar == ">" {
                    return .tag(Tag(name: name.lowercased(), isClosing: isClosing, classes: classes, href: href,
                                    isTagRelation: isTagRelation, end: index + 1))
                }
                guard isAttributeNameScalar(scalar) else {
                    index += 1
                    continue
                }
                var attribute = ""
                while index < input.count, isAttributeNameScalar(input[index]) {
                    attribute.unicodeScalars.append(input[index])
                    index += 1
                }
                while index < input.count, isSpace(input[index]) { index += 1 }
                guard index < input.count, input[index] == "=" else { continue }
                index += 1
                while index < input.count, isSpace(input[index]) { index += 1 }
                var value = String.UnicodeScalarView()
                if index < input.count, input[index] == "\"" || input[index] == "'" {
                    let quote = input[index]
                    index += 1
                    while index < input.count, input[index] != quote {
                        value.append(input[index])
                        index += 1
                    }
                    guard index < input.count else { return .unterminated }
                    index += 1
                } else {
                    while index < input.count, input[index] != ">", !isSpace(input[index]) {
                        value.append(input[index])
                        index += 1
                    }
                }
                switch attribute.lowercased() {
                case "class":
                    classes = String(value).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
                case "href" where isAnchor:
                    href = value
                case "rel" where isAnchor:
                    isTagRelation = String(value).lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
                        .contains("tag")
                default:
                    break
                }
            }
            return .unterminated
        }

        private func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
            ("a" ... "z").contains(scalar) || ("A" ... "Z").contains(scalar)
        }

        private func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == " " || scalar == "\n" || scalar == "\t"
        }

        private func isAttributeNameScalar(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar {
            case " ", "\t", "\n", "\r", "/", ">", "=", "\"", "'": false
            default: true
            }
        }
    }
}
