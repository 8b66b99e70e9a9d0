/// Makes untrusted text (message texts, names, handles, content warnings) safe to write to a
/// terminal.
///
/// Nothing in the result can move the cursor, clear the screen, set the title, change colours,
/// ring the bell, open a hyperlink (OSC 8) or reorder the text that follows it:
///
/// - C0 controls and DEL become their Unicode control pictures: ESC shows as `␛`, BEL as `␇`,
///   backspace as `␈`, NUL as `␀`, DEL as `␡`. An escape sequence stays readable but inert:
///   `ESC [31m` shows as `␛[31m`.
/// - C1 controls (U+0080–U+009F, among them the 8-bit CSI U+009B) become `�` (U+FFFD). Unicode
///   has no pictures for them, and they only ever reach text by mistake or malice.
/// - A carriage return that is not part of CRLF becomes `␍`: it would otherwise send the cursor
///   back to overwrite the line (`safe\rEVIL` shows as `safe␍EVIL`).
/// - Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) are removed,
///   so no field can reorder what follows it (`invoice_‮gpj.exe` shows as `invoice_gpj.exe`).
///   Being removed rather than balanced, none of them can leak past the end of a field.
/// - Invisible format characters (general category Cf: zero-width space, word joiner, BOM, soft
///   hyphen, interlinear annotation U+FFF9–U+FFFB, tags…) are removed, with the exceptions each
///   entry point lists. Tag characters stay only inside an emoji tag sequence (🏴 + tags, the
///   flags of England, Scotland and Wales).
///
/// A combining mark or other character that attaches to the one before it (an accent, a vowel
/// sign, a skin tone) cannot start a field or a line: it would attach to whatever the renderer
/// puts in front, so it gets a dotted circle (U+25CC) to sit on, as fonts show lone marks.
///
/// Everything else, private-use and unassigned code points included, is kept as it is.
/// Text that is all printable ASCII is returned as it is, without copying.
public enum TerminalText {
    /// Neutralises message text, which may span several lines.
    ///
    /// Keeps line feeds as line breaks, with CRLF counting as one line feed and U+2028/U+2029
    /// becoming line feeds. A tab becomes spaces up to the next multiple of 4 columns, counted
    /// from the start of its line in the text (the renderer indents every line alike, so columns
    /// that line up in the message line up on screen). Besides ZWJ (U+200D, which emoji
    /// sequences such as 👩‍💻 need), keeps ZWNJ (U+200C, which Persian and Indic scripts need) and
    /// the directional marks LRM, RLM and ALM (U+200E, U+200F, U+061C): they change the order of
    /// neighbouring characters only, and only within their own line.
    public static func body(_ text: String) -> String {
        if isPrintableASCII(text, allowingLineFeeds: true) || isSafe(text, singleLine: false) { return text }
        return neutralise(text, singleLine: false)
    }

    /// Neutralises a single-line field: a display name, a handle, a content warning.
    ///
    /// Line breaks, tabs and every other kind of space (U+00A0, U+3000, U+2028…) become a plain
    /// space; runs of spaces collapse to one, and the field is trimmed, so it can neither break
    /// the line nor push what follows it out of sight. All format characters (Cf) are removed
    /// except ZWJ, so a name cannot hide invisible characters that make it differ from one that
    /// looks the same.
    public static func line(_ text: String) -> String {
        if isPrintableASCII(text, allowingLineFeeds: false) || isSafe(text, singleLine: true) { return text }
        return neutralise(text, singleLine: true)
    }

    /// Columns between tab stops in message text.
    static let tabWidth = 4

    /// What C1 controls become.
    static let c1StandIn: Unicode.Scalar = "\u{FFFD}"

    /// Whether `text` can be written as it is: printable ASCII only (and line feeds, in message
    /// text). A single-line field must also be free of leading, trailing and doubled spaces.
    private static func isPrintableASCII(_ text: String, allowingLineFeeds: Bool) -> Bool {
        var previous: UInt8 = 0x20
        for byte in text.utf8 {
            if byte >= 0x20 && byte < 0x7F {
                if !allowingLineFeeds && byte == 0x20 && previous == 0x20 { return false }
            } else if !(allowingLineFeeds && byte == 0x0A) {
                return false
            }
            previous = byte
        }
        return allowingLineFeeds || previous != 0x20
    }

    /// Whether neutralising would leave `text` as it is. Most text beyond ASCII (accents, CJK,
    /// emoji) passes this check, which costs one pass and no allocation.
    private static func isSafe(_ text: String, singleLine: Bool) -> Bool {
        var previous: UInt32 = 0x20
        var atStart = true
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if atStart && attachesToPrevious(scalar) { return false }
            atStart = value == 0x0A
            if value < 0xA0 {
                if value == 0x20 {
                    if singleLine && previous == 0x20 { return false }
                } else if value < 0x20 {
                    if singleLine || value != 0x0A { return false }
                } else if value >= 0x7F {
                    return false
                }
            } else if isFormat(value) {
                if !keepsFormatCharacter(value, after: previous, singleLine: singleLine) { return false }
            } else if value == 0x2028 || value == 0x2029 {
                return false
            } else if singleLine && isSpaceSeparator(value) {
                return false
            }
            previous = value
        }
        return !singleLine || previous != 0x20
    }

    private static func neutralise(_ text: String, singleLine: Bool) -> String {
        var output = Output(singleLine: singleLine, capacity: text.utf8.count)
        var pendingCarriageReturn = false
        var inTagSequence = false

        for scalar in text.unicodeScalars {
            let value = scalar.value
            if pendingCarriageReturn {
                pendingCarriageReturn = false
                if value == 0x0A {
                    output.appendLineBreak()
                    continue
                }
                output.append("\u{240D}")
            }
            // Tag characters (U+E0020–U+E007F) are invisible unless they spell a subdivision flag.
            if (0xE0020...0xE007F).contains(value) {
                if inTagSequence {
                    output.append(scalar)
                    inTagSequence = value != 0xE007F
                }
                continue
            }
            inTagSequence = value == 0x1F3F4

            switch value {
            case 0x0A:
                output.appendLineBreak()
            case 0x0D:
                pendingCarriageReturn = true
            case 0x09:
                output.appendTab()
            case 0x00..<0x20:
                output.append(Unicode.Scalar(0x2400 + value)!)
            case 0x7F:
                output.append("\u{2421}")
            case 0x80..<0xA0:
                output.append(c1StandIn)
            case 0x20:
                output.appendSpace()
            case 0x21..<0x7F:
                output.append(scalar)
            case 0x2028, 0x2029:
                output.appendLineBreak()
            default:
                if isFormat(value) {
                    if keepsFormatCharacter(value, after: output.lastValue, singleLine: singleLine) {
                        output.append(scalar)
                    }
                } else if singleLine && isSpaceSeparator(value) {
                    output.appendSpace()
                } else {
                    output.append(scalar)
                }
            }
        }
        if pendingCarriageReturn { output.append("\u{240D}") }
        return output.finish()
    }

    /// Whether `scalar` joins the grapheme cluster of the character before it.
    static func attachesToPrevious(_ scalar: Unicode.Scalar) -> Bool {
        // Nothing below U+0300 extends a cluster, and no ASCII letter starts one it joins.
        guard scalar.value >= 0x300 else { return false }
        var probe = "a"
        probe.unicodeScalars.append(scalar)
        return probe.count == 1
    }

    /// Whether a format character survives: ZWJ everywhere except after ASCII, where no script or
    /// emoji sequence uses it and it could only make `pay‍pal` differ from `paypal`; ZWNJ and the
    /// directional marks in message text only.
    private static func keepsFormatCharacter(_ value: UInt32, after previous: UInt32, singleLine: Bool) -> Bool {
        switch value {
        case 0x200D: previous >= 0x80
        case 0x200C, 0x200E, 0x200F, 0x061C: !singleLine
        default: false
        }
    }

    /// Whether `value` has general category Cf (format), answered from the Unicode 16 data
    /// for the blocks where text spends its time, so that most text never needs a property
    /// lookup. A test checks the answers against the standard library's data.
    static func isFormat(_ value: UInt32) -> Bool {
        switch value {
        case ..<0x600: value == 0xAD
        case ..<0x900: value <= 0x605 || value == 0x61C || value == 0x6DD || value == 0x70F || value == 0x890 || value == 0x891 || value == 0x8E2
        case ..<0x2000: value == 0x180E
        case ..<0x2070: (0x200B...0x200F).contains(value) || (0x202A...0x202E).contains(value) || (0x2060...0x2064).contains(value) || value >= 0x2066
        case ..<0xFEFF: false
        case ..<0x10000: value == 0xFEFF || (0xFFF9...0xFFFB).contains(value)
        case 0x1D17B..<0xE0000: false
        default: Unicode.Scalar(value)?.properties.generalCategory == .format
        }
    }

    /// Whether `value` has general category Zs (space separator), as in `isFormat`.
    static func isSpaceSeparator(_ value: UInt32) -> Bool {
        switch value {
        case 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    /// The text being built, with what a tab or a run of spaces needs to know about it.
    private struct Output {
        let singleLine: Bool
        var text = ""
        /// Single-line: a run of spaces seen but not written yet, since it may end the field.
        var pendingSpace = false
        /// Message text: where (UTF-8 offset) the text after the last line break or tab starts,
        /// and the column it starts at, so a tab needs to measure only what follows the last one.
        var segmentStart = 0
        var segmentColumn = 0
        /// The last scalar written (a space or line break counts as ASCII), 0 at the start.
        var lastValue: UInt32 = 0

        init(singleLine: Bool, capacity: Int) {
            self.singleLine = singleLine
            text.reserveCapacity(capacity + 16)
        }

        mutating func append(_ scalar: Unicode.Scalar) {
            if pendingSpace {
                text.unicodeScalars.append(" ")
                pendingSpace = false
            }
            if (text.isEmpty || lastValue == 0x0A) && TerminalText.attachesToPrevious(scalar) {
                text.unicodeScalars.append("\u{25CC}")
            }
            text.unicodeScalars.append(scalar)
            lastValue = scalar.value
        }

        mutating func appendSpace() {
            lastValue = 0x20
            if singleLine {
                pendingSpace = !text.isEmpty
            } else {
                text.unicodeScalars.append(" ")
            }
        }

        mutating func appendLineBreak() {
            if singleLine {
                appendSpace()
            } else {
                text.unicodeScalars.append("\n")
                lastValue = 0x0A
                segmentStart = text.utf8.count
                segmentColumn = 0
            }
        }

        mutating func appendTab() {
            if singleLine {
                appendSpace()
                return
            }
            let start = text.utf8.index(text.utf8.startIndex, offsetBy: segmentStart)
            let column = segmentColumn + DisplayWidth.of(text[start...])
            let spaces = TerminalText.tabWidth - column % TerminalText.tabWidth
            text.append(String(repeating: " ", count: spaces))
            lastValue = 0x20
            segmentStart = text.utf8.count
            segmentColumn = column + spaces
        }

        consuming func finish() -> String {
            text
        }
    }
}
