/// The words of a text as muted words and filter keywords are compared with it (issue 34): what
/// `ModerationRules` reads once per message, whatever the number of words muted.
///
/// A token is a run of word characters (letters, digits, combining marks and `_`, as the
/// `[[:word:]]` of Mastodon's `\b`), or one other character that is not white space (`@`,
/// `-`, `+`, an emoji): `Don't mute C++!` is `don ' t mute c + + !`. White space separates and is
/// no token. A muted phrase is the same tokens in a row, so `c++` matches `C++` and not `abc++`,
/// `hello world` matches `Hello   world` and not `Hello, world` (the comma is a token), and a
/// word matches wherever it stands between non-word characters (`don` in `don't`, as
/// Mastodon's `\bdon\b`).
///
/// Beside them, Bluesky's `hasMutedWord` compares a word with the whole of a space-separated
/// chunk without its punctuation (`s.h.i.t` is muted by `shit`, `and-or` by `andor`, but not
/// `and/or`: a slash joins nothing): ``joined``. And the tags of the text (`#Swift`, `＃swift`,
/// trailing punctuation left out): ``tags``.
struct WordTokens {
    /// The tokens, lowercased, in order.
    var tokens: [Substring] = []
    /// Each chunk between white space that holds two word runs or more joined by punctuation
    /// (no `/`), as one word without the punctuation.
    var joined: [String] = []
    /// The text's hashtags, lowercased, without `#`.
    var tags: [Substring] = []

    /// The tokens of `text`, which the caller has lowercased (the same lowercasing as the words
    /// compared with it: `String.lowercased()`).
    ///
    /// Read character by character (a token is a whole `Character`, so an emoji with its joiners
    /// or a letter with its accents is never cut), but an ASCII byte followed by another ASCII
    /// byte is a character by itself (no grapheme rule joins two ASCII bytes but CR LF), and is
    /// classified from its byte: re-deciding a million stored messages after a word is muted
    /// spent most of its time in `Character.isWhitespace` before this.
    init(lowercased text: String) {
        var chunk = Chunk(start: text.startIndex)
        var wordStart: String.Index?
        var index = text.startIndex
        while index < text.endIndex {
            let (next, kind) = Self.character(in: text, at: index)
            switch kind {
            case .whitespace:
                if let start = wordStart { tokens.append(text[start..<index]) }
                wordStart = nil
                addChunk(chunk, text: text, end: index)
                chunk = Chunk(start: next)
            case .word:
                if wordStart == nil {
                    wordStart = index
                    chunk.runs += 1
                }
            case let .other(isSlash):
                if let start = wordStart { tokens.append(text[start..<index]) }
                wordStart = nil
                tokens.append(text[index..<next])
                if isSlash { chunk.hasSlash = true }
            }
            index = next
        }
        if let start = wordStart { tokens.append(text[start..<text.endIndex]) }
        addChunk(chunk, text: text, end: text.endIndex)
    }

    /// What one chunk between white space holds, counted as its characters are read.
    private struct Chunk {
        var start: String.Index
        /// Runs of word characters.
        var runs = 0
        /// Whether a `/` is among its characters: a slash joins nothing (`and/or`).
        var hasSlash = false
    }

    /// What a character is to the tokens.
    private enum Kind {
        case whitespace, word
        case other(isSlash: Bool)
    }

    /// The character of `text` at `index` (a character boundary): where the next one starts, and
    /// what it is.
    @inline(__always)
    private static func character(in text: String, at index: String.Index) -> (next: String.Index, kind: Kind) {
        let utf8 = text.utf8
        let byte = utf8[index]
        if byte < 0x80 {
            let next = utf8.index(after: index)
            if next == utf8.endIndex || (utf8[next] < 0x80 && !(byte == 0x0D && utf8[next] == 0x0A)) {
                return (next, asciiKind(byte))
            }
        }
        let character = text[index]
        let next = text.index(after: index)
        if character.isWhitespace { return (next, .whitespace) }
        if isWordCharacter(character) { return (next, .word) }
        return (next, .other(isSlash: character == "/"))
    }

    /// What an ASCII byte that is a whole character is (`Character.isWhitespace` and
    /// `isWordCharacter` of it).
    @inline(__always)
    private static func asciiKind(_ byte: UInt8) -> Kind {
        switch byte {
        case 0x09...0x0D, 0x20: .whitespace
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F: .word
        default: .other(isSlash: byte == 0x2F)
        }
    }

    /// The joined word and the tag of the chunk of `text` from `chunk.start` to `end`, if any.
    private mutating func addChunk(_ chunk: Chunk, text: String, end: String.Index) {
        guard chunk.start < end else { return }
        let first = text.utf8[chunk.start]
        let isTag = first < 0x80
            ? first == UInt8(ascii: "#") && Self.character(in: text, at: chunk.start).next == text.utf8.index(after: chunk.start)
            : text[chunk.start] == "＃"
        if isTag {
            let body = text[chunk.start..<end].dropFirst()
            let tag = body.reversed().drop { !Self.isWordCharacter($0) }
            if !tag.isEmpty { tags.append(body.prefix(tag.count)) }
        }
        guard chunk.runs > 1, !chunk.hasSlash else { return }
        var word = ""
        var index = chunk.start
        while index < end {
            let (next, kind) = Self.character(in: text, at: index)
            if case .word = kind { word += text[index..<next] }
            index = next
        }
        joined.append(word)
    }

    /// Whether `character` is part of a word: its first scalar a letter, a digit or other
    /// number, a mark, or `_` (connector punctuation).
    static func isWordCharacter(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        if scalar.isASCII {
            let value = scalar.value
            return (value >= 0x61 && value <= 0x7A) || (value >= 0x41 && value <= 0x5A) || (value >= 0x30 && value <= 0x39) || value == 0x5F
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark,
             .connectorPunctuation:
            return true
        default:
            return false
        }
    }
}
