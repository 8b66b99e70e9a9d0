/// Turns the HTML of a Mastodon status (`content`) into plain text for a terminal, the way the
/// web interface shows it: no regular expressions, no XML parser (Mastodon HTML is not XML, and
/// Foundation's parser is not in FoundationEssentials), one pass over the scalars.
///
/// - `<p>` paragraphs are separated by one blank line; `<br>` is a line break. Other block
///   elements a remote server may send (`div`, `blockquote`, `pre`, `ul`, `ol`, `h1`–`h6`) break
///   like paragraphs, `li` like a line.
/// - A link shows its visible text: mentions read `@user`, hashtags `#tag`.
/// - Long links are shortened as the server marked them: `<span class="invisible">` is dropped
///   and `<span class="ellipsis">` is followed by `…`, so
///   `https://example.com/a/very/long/path` shows as `example.com/a/very/lo…`.
/// - Character references are decoded (see `HTMLEntities`); an unknown one stays as written.
/// - Every other tag is removed with its attributes, and so are comments and the contents of
///   `script` and `style`. Raw line breaks and tabs in the HTML are spaces, as in a browser.
/// - Custom emoji shortcodes (`:blobcat:`) are plain text already and stay.
///
/// The result is still untrusted text: it can hold control characters (`&#27;`), bidirectional
/// overrides and anything else a sender chose. `TimelineRenderer` neutralises it, like all text.
public enum MastodonHTML {
    /// The plain text of `html`, without blank lines at its start or end.
    public static func plainText(_ html: String) -> String {
        guard html.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) else {
            return html
        }
        var converter = Converter(Array(html.unicodeScalars))
        return converter.run()
    }

    /// Elements whose effect lasts until they close.
    private enum Open {
        case plain, hidden, ellipsis
    }

    private struct Tag {
        var name: String
        var isClosing: Bool
        var classes: [Substring]
        /// The index after the `>`.
        var end: Int
    }

    private struct Converter {
        let input: [Unicode.Scalar]
        var output = String.UnicodeScalarView()
        /// Line feeds owed before the next visible character (dropped at the start of the text).
        var pendingBreaks = 0
        /// How many open elements hide their contents.
        var hiddenDepth = 0
        /// Open `span`, `script`, `style` elements, innermost last.
        var open: [(name: String, effect: Open)] = []

        init(_ input: [Unicode.Scalar]) {
            self.input = input
        }

        mutating func run() -> String {
            var index = 0
            while index < input.count {
                let scalar = input[index]
                if scalar == "<" {
                    if let next = skipComment(at: index) {
                        index = next
                        continue
                    }
                    if let tag = tag(at: index) {
                        handle(tag)
                        index = tag.end
                        continue
                    }
                }
                index += 1
                guard hiddenDepth == 0 else { continue }
                switch scalar {
                case " ", "\n", "\r", "\t":
                    // Whitespace right after a break would indent the next line; a browser drops it.
                    if pendingBreaks == 0 { append(" ") }
                case "&":
                    if let (decoded, next) = HTMLEntities.reference(in: input[...], at: index - 1) {
                        append(decoded)
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

        private mutating func handle(_ tag: Tag) {
            switch tag.name {
            case "br":
                if hiddenDepth == 0 { pendingBreaks += 1 }
            case "p", "div", "blockquote", "pre", "ul", "ol", "table", "h1", "h2", "h3", "h4", "h5", "h6":
                if hiddenDepth == 0 { pendingBreaks = max(pendingBreaks, 2) }
            case "li", "tr", "dt", "dd":
                if hiddenDepth == 0 { pendingBreaks = max(pendingBreaks, 1) }
            case "span", "script", "style", "template":
                if tag.isClosing {
                    close(tag.name)
                } else {
                    let effect: Open = if tag.name != "span" || tag.classes.contains("invisible") {
                        .hidden
                    } else if tag.classes.contains("ellipsis") {
                        .ellipsis
                    } else {
                        .plain
                    }
                    if effect == .hidden { hiddenDepth += 1 }
                    open.append((tag.name, effect))
                }
            default:
                break
            }
        }

        /// Closes the innermost open element named `name` and any left open inside it.
        private mutating func close(_ name: String) {
            guard let position = open.lastIndex(where: { $0.name == name }) else { return }
            while open.count > position {
                let element = open.removeLast()
                switch element.effect {
                case .hidden: hiddenDepth -= 1
                case .ellipsis: if hiddenDepth == 0 { append("…") }
                case .plain: break
                }
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
            return input[start...].firstIndex(of: ">").map { $0 + 1 }
        }

        /// The tag starting at the `<` at `start`, or `nil` when the `<` starts no tag (`a < b`)
        /// or the tag never ends; then it is text.
        private func tag(at start: Int) -> Tag? {
            var index = start + 1
            var isClosing = false
            if index < input.count, input[index] == "/" {
                isClosing = true
                index += 1
            }
            guard isASCIILetter(input[index]) else { return nil }
            var name = ""
            while index < input.count, isASCIILetter(input[index]) || ("0" ... "9").contains(input[index]) {
                name.unicodeScalars.append(input[index])
                index += 1
            }
            var classes: [Substring] = []
            // Attributes: name, optionally = and a value in double quotes, single quotes or bare.
            while index < input.count {
                let scalar = input[index]
                if scalar == ">" {
                    return Tag(name: name.lowercased(), isClosing: isClosing, classes: classes, end: index + 1)
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
                while index < input.count, input[index] == " " || input[index] == "\n" || input[index] == "\t" { index += 1 }
                guard index < input.count, input[index] == "=" else { continue }
                index += 1
                while index < input.count, input[index] == " " || input[index] == "\n" || input[index] == "\t" { index += 1 }
                var value = String.UnicodeScalarView()
                if index < input.count, input[index] == "\"" || input[index] == "'" {
                    let quote = input[index]
                    index += 1
                    while index < input.count, input[index] != quote {
                        value.append(input[index])
                        index += 1
                    }
                    guard index < input.count else { return nil }
                    index += 1
                } else {
                    while index < input.count, input[index] != ">", input[index] != " ", input[index] != "\t", input[index] != "\n" {
                        value.append(input[index])
                        index += 1
                    }
                }
                if attribute.lowercased() == "class" {
                    classes = String(value).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
                }
            }
            return nil
        }

        private func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
            ("a" ... "z").contains(scalar) || ("A" ... "Z").contains(scalar)
        }

        private func isAttributeNameScalar(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar {
            case " ", "\t", "\n", "\r", "/", ">", "=", "\"", "'": false
            default: true
            }
        }
    }
}
