/// Fits neutralised text (see `TerminalText`) into terminal columns by display width: `wrap`
/// breaks it into lines, `truncate` shortens a single line.
///
/// Wrapping keeps every line break in the text and otherwise breaks greedily:
/// - at spaces, dropping the spaces at the break (and trailing spaces before a line break);
/// - between CJK characters (ideographs, kana, fullwidth forms), which need no space to break,
///   except before closing punctuation and small kana (`。`, `」`, `ッ`) or after opening brackets,
///   which must stay with their neighbour;
/// - inside a word wider than a whole line (a long URL), at grapheme-cluster boundaries: the
///   word starts a new line, and each line takes as much of it as fits.
///
/// A grapheme cluster is never split, and no line is wider than its width, with one exception:
/// a cluster wider than the whole line goes on a line of its own, since there is no other place
/// for it. That happens to a 2-column cluster (`日`, `😀`) when only 1 column is available, and
/// otherwise only to clusters that no real text holds, such as ten Hangul initial consonants in
/// a row (the Unicode rules join them into one cluster of 20 columns).
///
/// Time is linear in the length of the text for any text, and `wrappedLines(_:maximumLines:)`
/// stops after the lines a screen can show, however long the text.
public struct TextWrapper: Sendable {
    /// The maximum width of a line, indent included.
    public var width: Int
    /// Put before the first line.
    public var initialIndent: String
    /// Put before every other line: wrapped ones and those after a line break.
    public var subsequentIndent: String

    /// A wrapper for lines of `width` columns, each starting with an indent. Indents should be
    /// narrower than `width`; whatever they leave, at least 1 column holds text.
    public init(width: Int, initialIndent: String = "", subsequentIndent: String = "") {
        self.width = width
        self.initialIndent = initialIndent
        self.subsequentIndent = subsequentIndent
    }

    /// The lines of `text`, indents included, without line feeds.
    /// An empty text gives one line (the initial indent).
    public func wrap(_ text: String) -> [String] {
        wrappedLines(text).map(\.text)
    }

    /// `text` shortened to at most `width` columns: when it is wider, as many whole clusters as
    /// fit before a final `…`. Spaces before the `…` are dropped.
    public static func truncate(_ text: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        guard DisplayWidth.of(text) > width else { return text }
        return ellipsized(text, toWidth: width)
    }

    /// `text` cut to at most `width` columns with a `…`, whether or not it would fit whole: for
    /// text that something after it was cut from.
    static func ellipsized(_ text: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        return trimmingTrailingSpaces(prefix(of: text, width: width - 1)) + "…"
    }

    /// The longest run of whole clusters at the start of `text` at most `width` columns wide.
    static func prefix(of text: String, width: Int) -> Substring {
        if DisplayWidth.asciiWidth(text.utf8) != nil {
            return Substring(text.utf8.prefix(max(width, 0)))
        }
        var used = 0
        var end = text.startIndex
        for character in text {
            used += DisplayWidth.of(character: character)
            if used > width { break }
            end = text.utf8.index(end, offsetBy: character.utf8.count)
        }
        return text[..<end]
    }

    /// A wrapped line and what the wrapping removed after it: together, the lines give back the
    /// text (`text` + `removed`, then `\n` where `endsParagraph`), which tests check.
    struct Line: Equatable {
        /// The line, indent included.
        var text: String
        /// Its display width, indent included.
        var width: Int
        /// The spaces dropped at the break after it.
        var removed: Substring
        /// Whether a line break in the text follows it.
        var endsParagraph: Bool
    }

    /// The lines of `text` up to the `maximumLines`th that holds more than its indent (all of
    /// them by default): lines with nothing to show are not counted, since a renderer drops or
    /// merges them. The text after that line is neither measured nor wrapped, so asking for one
    /// line more than fits tells whether the text fits at the cost of what is shown.
    func wrappedLines(_ text: String, maximumLines: Int = .max) -> [Line] {
        var state = State(
            width: width,
            initialIndent: (initialIndent, DisplayWidth.of(initialIndent)),
            subsequentIndent: (subsequentIndent, DisplayWidth.of(subsequentIndent)),
            maximumLines: maximumLines
        )
        var paragraphStart = text.startIndex
        var index = text.utf8.startIndex
        while index < text.utf8.endIndex && !state.isFull {
            if text.utf8[index] == 0x0A {
                state.wrap(text[paragraphStart..<index], endsParagraph: true)
                paragraphStart = text.utf8.index(after: index)
            }
            index = text.utf8.index(after: index)
        }
        if !state.isFull { state.wrap(text[paragraphStart...], endsParagraph: false) }
        return state.lines
    }

    private static func trimmingTrailingSpaces(_ text: Substring) -> String {
        var end = text.endIndex
        while end > text.startIndex {
            let before = text.utf8.index(before: end)
            guard text.utf8[before] == 0x20 else { break }
            end = before
        }
        return String(text[..<end])
    }

    /// The lines so far, and the indents and widths they start with.
    private struct State {
        let width: Int
        let initialIndent: (text: String, width: Int)
        let subsequentIndent: (text: String, width: Int)
        let maximumLines: Int
        var lines: [Line] = []
        /// The lines that hold more than their indent.
        private var shownLines = 0

        init(width: Int, initialIndent: (String, Int), subsequentIndent: (String, Int), maximumLines: Int) {
            self.width = width
            self.initialIndent = initialIndent
            self.subsequentIndent = subsequentIndent
            self.maximumLines = maximumLines
        }

        /// Whether the lines asked for are all there: wrapping stops.
        var isFull: Bool {
            shownLines >= maximumLines
        }

        private var indent: (text: String, width: Int) {
            lines.isEmpty ? initialIndent : subsequentIndent
        }

        private mutating func emit(_ content: Substring, width: Int, removed: Substring, endsParagraph: Bool) {
            let indent = self.indent
            if width > 0 { shownLines += 1 }
            lines.append(Line(
                text: indent.text.isEmpty ? String(content) : indent.text + String(content),
                width: indent.width + width,
                removed: removed,
                endsParagraph: endsParagraph
            ))
        }

        /// Where the line being filled stands.
        private struct Cursor {
            /// Where the line starts in the paragraph.
            var start: String.Index
            /// Its width so far, trailing spaces included.
            var width = 0
            /// Where its last cluster that is not a space ends, and the width up to there.
            var contentEnd: String.Index
            var contentWidth = 0
            /// The last place it may break, if any.
            var opportunity: Opportunity?
            /// The columns it has, indent excluded.
            var available: Int

            init(start: String.Index, available: Int) {
                self.start = start
                self.contentEnd = start
                self.available = available
            }
        }

        /// A place a line may break: the next line would start at `index`; the current one
        /// would end at `contentEnd`, `contentWidth` wide, dropping the spaces between.
        private struct Opportunity {
            var index: String.Index
            var contentEnd: String.Index
            var contentWidth: Int
        }

        /// The columns a new line has for text.
        private var available: Int {
            max(1, width - indent.width)
        }

        /// Wraps one paragraph (text without line breaks), word by word: a word that fits is
        /// measured and placed whole, and only one that must be broken is walked cluster by cluster.
        mutating func wrap(_ paragraph: Substring, endsParagraph: Bool) {
            var line = Cursor(start: paragraph.startIndex, available: available)
            // No cluster is wider than its UTF-8 bytes, so a paragraph with no more bytes than
            // columns fits on one line.
            if paragraph.utf8.count <= line.available && paragraph.utf8.last != 0x20 {
                emit(paragraph, width: DisplayWidth.of(paragraph), removed: paragraph[paragraph.endIndex...], endsParagraph: endsParagraph)
                return
            }

            let bytes = paragraph.utf8
            var index = paragraph.startIndex
            while index < paragraph.endIndex {
                if isFull { return }
                if bytes[index] == 0x20 && !Self.isGlued(paragraph, spaceAt: index) {
                    line.width += 1
                    index = bytes.index(after: index)
                    continue
                }
                var wordEnd = bytes.index(after: index)
                while wordEnd < paragraph.endIndex && (bytes[wordEnd] != 0x20 || Self.isGlued(paragraph, spaceAt: wordEnd)) {
                    wordEnd = bytes.index(after: wordEnd)
                }
                let word = paragraph[index..<wordEnd]
                if line.contentWidth > 0 {
                    line.opportunity = Opportunity(index: index, contentEnd: line.contentEnd, contentWidth: line.contentWidth)
                }
                let wordWidth = DisplayWidth.of(word)
                if line.width + wordWidth <= line.available {
                    line.width += wordWidth
                    line.contentEnd = wordEnd
                    line.contentWidth = line.width
                } else if let breakAt = line.opportunity, wordWidth <= subsequentAvailable, !Self.hasBreakOpportunities(word) {
                    breakLine(paragraph, &line, at: breakAt)
                    line.width = wordWidth
                    line.contentEnd = wordEnd
                    line.contentWidth = wordWidth
                } else {
                    placeByCluster(word, of: paragraph, &line)
                }
                index = wordEnd
            }
            guard !isFull else { return }
            emit(paragraph[line.start..<line.contentEnd], width: line.contentWidth,
                 removed: paragraph[line.contentEnd...], endsParagraph: endsParagraph)
        }

        /// The columns every line after the first has for text.
        private var subsequentAvailable: Int {
            max(1, width - subsequentIndent.width)
        }

        /// Ends the line at `breakAt` and starts the next one there.
        private mutating func breakLine(_ paragraph: Substring, _ line: inout Cursor, at breakAt: Opportunity) {
            emit(paragraph[line.start..<breakAt.contentEnd], width: breakAt.contentWidth,
                 removed: paragraph[breakAt.contentEnd..<breakAt.index], endsParagraph: false)
            line = Cursor(start: breakAt.index, available: available)
        }

        /// Places a word that does not fit as a whole, cluster by cluster: it breaks between
        /// CJK characters where it may, and where it must when a single part is too wide.
        private mutating func placeByCluster(_ word: Substring, of paragraph: Substring, _ line: inout Cursor) {
            var previous: Character?
            var index = word.startIndex
            while index < word.endIndex && !isFull {
                let character = paragraph[index]
                let next = paragraph.utf8.index(index, offsetBy: character.utf8.count)
                let characterWidth = DisplayWidth.of(character: character)
                if line.contentWidth > 0, let previous, Self.mayBreak(between: previous, and: character) {
                    line.opportunity = Opportunity(index: index, contentEnd: line.contentEnd, contentWidth: line.contentWidth)
                }
                if line.width + characterWidth > line.available {
                    if let breakAt = line.opportunity {
                        breakLine(paragraph, &line, at: breakAt)
                        // Walk again from the break: the new line may be narrower.
                        index = breakAt.index
                        previous = nil
                        continue
                    }
                    if line.width > 0 {
                        emit(paragraph[line.start..<line.contentEnd], width: line.contentWidth,
                             removed: paragraph[line.contentEnd..<index], endsParagraph: false)
                        line = Cursor(start: index, available: available)
                        previous = nil
                        continue
                    }
                    // A cluster wider than the whole line: alone on its line.
                }
                line.width += characterWidth
                line.contentEnd = next
                line.contentWidth = line.width
                previous = character
                index = next
            }
        }

        /// Whether the space at `index` belongs to the cluster after it (a combining mark can
        /// follow a space), and so is not a place to break.
        private static func isGlued(_ paragraph: Substring, spaceAt index: String.Index) -> Bool {
            let next = paragraph.utf8.index(after: index)
            guard next < paragraph.endIndex, paragraph.utf8[next] >= 0x80 else { return false }
            return paragraph[index].utf8.count > 1
        }

        /// Whether `word` holds CJK text, which may break between characters.
        private static func hasBreakOpportunities(_ word: Substring) -> Bool {
            for scalar in word.unicodeScalars where scalar.value >= 0x2E80 && isCJK(scalar) { return true }
            return false
        }

        /// Whether a line may break between two clusters with no space between them: next to
        /// a CJK character, unless punctuation or a small kana must stay with its neighbour.
        static func mayBreak(between previous: Character, and next: Character) -> Bool {
            guard let before = previous.unicodeScalars.first, let after = next.unicodeScalars.first else { return false }
            guard isCJK(before) || isCJK(after) else { return false }
            return !staysAfterPrevious(after) && !staysBeforeNext(before)
        }

        /// Ideographs, kana, CJK punctuation and fullwidth forms: East Asian Wide text that
        /// breaks between any two characters. Hangul is left out: Korean breaks at spaces.
        private static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
            let value = scalar.value
            if value < 0x2E80 { return false }
            if (0xAC00...0xD7A3).contains(value) || (0x3130...0x318F).contains(value) { return false }
            if scalar.properties.isEmojiPresentation { return false }
            return EastAsianWidthTable.isWide(value)
        }

        /// Closing punctuation, iteration marks, the prolonged sound mark and small kana: a line
        /// may not start with them.
        private static func staysAfterPrevious(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x21, 0x25, 0x29, 0x2C, 0x2E, 0x3A, 0x3B, 0x3F, 0x5D, 0x7D: // ! % ) , . : ; ? ] }
                true
            case 0x3001, 0x3002, 0x3005, 0x303B, 0x30FB, 0x30FC, // 、 。 々 〻 ・ ー
                 0x3009, 0x300B, 0x300D, 0x300F, 0x3011, 0x3015, 0x3017, 0x3019, 0x301B, 0x301E, 0x301F,
                 0x309B...0x309E, 0x30FD, 0x30FE, // ゛ ゜ ゝ ゞ ヽ ヾ
                 0x3041, 0x3043, 0x3045, 0x3047, 0x3049, 0x3063, 0x3083, 0x3085, 0x3087, 0x308E, 0x3095, 0x3096,
                 0x30A1, 0x30A3, 0x30A5, 0x30A7, 0x30A9, 0x30C3, 0x30E3, 0x30E5, 0x30E7, 0x30EE, 0x30F5, 0x30F6,
                 0x31F0...0x31FF, // small katakana extensions
                 0xFF01, 0xFF09, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0xFF1F, 0xFF3D, 0xFF5D, 0xFF60, // ！ ） ， ． ： ； ？ ］ ｝ ｠
                 0x2019, 0x201D, 0xFF63: // ’ ” ｣
                true
            default:
                false
            }
        }

        /// Opening brackets and quotes: a line may not end with them.
        private static func staysBeforeNext(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x28, 0x5B, 0x7B, // ( [ {
                 0x3008, 0x300A, 0x300C, 0x300E, 0x3010, 0x3014, 0x3016, 0x3018, 0x301A, 0x301D,
                 0xFF08, 0xFF3B, 0xFF5B, 0xFF5F, 0xFF62, 0x2018, 0x201C:
                true
            default:
                false
            }
        }
    }
}
