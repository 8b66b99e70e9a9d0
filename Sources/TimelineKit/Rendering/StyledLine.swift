/// One line of rendered output as spans of text, each plain or in one style, with its display
/// width kept as it grows. Styles never nest: every styled span is closed with a reset, so each
/// line can be erased and written again on its own.
struct StyledLine {
    /// A look for a span, as SGR parameters.
    enum Style: String {
        case bold = "1"
        case dim = "2"
        /// The unread marker: it has to catch the eye in a column of blanks.
        case accent = "1;36"
        /// The `CW:` label.
        case warning = "33"
        /// Where a search matched: reverse video, which every terminal has and which shows on
        /// any colour scheme.
        case match = "7"
    }

    struct Span {
        var text: String
        var style: Style?
    }

    private(set) var spans: [Span] = []
    private(set) var width = 0

    init() {}

    init(_ text: String, _ style: Style? = nil) {
        append(text, style)
    }

    /// Appends `text`, whose width is measured unless given.
    mutating func append(_ text: String, _ style: Style? = nil, width textWidth: Int? = nil) {
        guard !text.isEmpty else { return }
        width += textWidth ?? DisplayWidth.of(text)
        if let last = spans.indices.last, spans[last].style == style {
            spans[last].text += text
        } else {
            spans.append(Span(text: text, style: style))
        }
    }

    /// The line cut to at most `maximum` columns, ending in `…` where it was cut.
    func fitted(to maximum: Int) -> StyledLine {
        width > maximum ? cut(to: maximum) : self
    }

    /// The line ending in `…`, within `maximum` columns: for a line that what followed it was
    /// cut from. A line that ends in `…` already is left as it is.
    func ellipsized(to maximum: Int) -> StyledLine {
        if spans.last?.text.hasSuffix("…") == true && width <= maximum { return self }
        return cut(to: maximum)
    }

    /// As much of the line as fits in `maximum - 1` columns, and `…`.
    private func cut(to maximum: Int) -> StyledLine {
        var fitted = StyledLine()
        for span in spans {
            let spanWidth = DisplayWidth.of(span.text)
            guard fitted.width + spanWidth <= maximum - 1 else {
                fitted.append(TextWrapper.ellipsized(span.text, toWidth: maximum - fitted.width), span.style)
                return fitted
            }
            fitted.append(span.text, span.style, width: spanWidth)
        }
        fitted.append("…", spans.last?.style, width: 1)
        return fitted
    }

    /// The text to write: SGR codes around styled spans when `color` is on, none at all otherwise.
    func rendered(color: Bool) -> String {
        var text = ""
        for span in spans {
            if color, let style = span.style {
                text += "\u{1b}[" + style.rawValue + "m" + span.text + StyledLine.reset
            } else {
                text += span.text
            }
        }
        return text
    }

    static let reset = "\u{1b}[0m"
}
