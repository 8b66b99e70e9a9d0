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
    init(lowercased text: String) {
        var chunkStart = text.startIndex
        var index = text.startIndex
        var wordStart: String.Index?
        func endWord(at end: String.Index) {
            if let start = wordStart { tokens.append(text[start..<end]) }
            wordStart = nil
        }
        while index < text.endIndex {
            let character = text[index]
            if character.isWhitespace {
                endWord(at: index)
                addChunk(text[chunkStart..<index])
                chunkStart = text.index(after: index)
            } else if Self.isWordCharacter(character) {
                if wordStart == nil { wordStart = index }
            } else {
                endWord(at: index)
                tokens.append(text[index..<text.index(after: index)])
            }
            index = text.index(after: index)
        }
        endWord(at: text.endIndex)
        addChunk(text[chunkStart..<text.endIndex])
    }

    /// The joined word and the tag a chunk between white space makes, if any.
    private mutating func addChunk(_ chunk: Substring) {
        guard let first = chunk.first else { return }
        if first == "#" || first == "＃" {
            let tag = chunk.dropFirst().reversed().drop { !Self.isWordCharacter($0) }
            if !tag.isEmpty { tags.append(chunk.dropFirst().prefix(tag.count)) }
        }
        var runs = 0, inWord = false, word = ""
        for character in chunk {
            if Self.isWordCharacter(character) {
                if !inWord { runs += 1 }
                inWord = true
                word.append(character)
            } else {
                if character == "/" { return }
                inWord = false
            }
        }
        if runs > 1 { joined.append(word) }
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
