import Testing
@testable import TimelineKit

/// `WordTokens` reads ASCII a byte at a time and everything else a `Character` at a time; what it
/// makes of a text must be what reading every character as a `Character` makes (the rule its doc
/// comment states), whatever the text: grapheme clusters that begin with ASCII (`e` + U+0301,
/// CR LF, `#` + a mark, a prepended U+0600 before `@`), emoji sequences, wide `＃`, slashes.
@Suite struct WordTokensTests {
    /// The rule, read one `Character` at a time: the reference the fast reading is held to.
    private struct Reference {
        var tokens: [String] = []
        var joined: [String] = []
        var tags: [String] = []

        init(_ text: String) {
            var chunk: [Character] = []
            var word = ""
            func endWord() {
                if !word.isEmpty { tokens.append(word) }
                word = ""
            }
            for character in text {
                if character.isWhitespace {
                    endWord()
                    addChunk(chunk)
                    chunk = []
                    continue
                }
                chunk.append(character)
                if WordTokens.isWordCharacter(character) {
                    word.append(character)
                } else {
                    endWord()
                    tokens.append(String(character))
                }
            }
            endWord()
            addChunk(chunk)
        }

        mutating func addChunk(_ chunk: [Character]) {
            guard let first = chunk.first else { return }
            if first == "#" || first == "＃" {
                var body = Array(chunk.dropFirst())
                while let last = body.last, !WordTokens.isWordCharacter(last) { body.removeLast() }
                if !body.isEmpty { tags.append(String(body)) }
            }
            var runs = 0, inWord = false, word = ""
            for character in chunk {
                if WordTokens.isWordCharacter(character) {
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
    }

    private func expectSame(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let fast = WordTokens(lowercased: text)
        let reference = Reference(text)
        #expect(fast.tokens.map(String.init) == reference.tokens, "tokens of \(Array(text.unicodeScalars))", sourceLocation: sourceLocation)
        #expect(fast.joined == reference.joined, "joined of \(Array(text.unicodeScalars))", sourceLocation: sourceLocation)
        #expect(fast.tags.map(String.init) == reference.tags, "tags of \(Array(text.unicodeScalars))", sourceLocation: sourceLocation)
    }

    @Test(arguments: [
        "don't mute c++! hello   world, s.h.i.t and-or and/or",
        "#swift #Swift! ＃swift #, #a/b e\u{301}t\u{301}e\u{301} cafe\u{301}",
        "line\r\nnext\rlast\n\u{0B}\u{0C}\u{85}\u{A0}end",
        "#\u{301}notatag a\u{301}/b x\u{0600}@y \u{0600}#tag",
        "👩‍👩‍👧 family👍🏽ok 🇫🇷flag #🙂 #tag🙂 a_b_c 1.5 2/3",
        "日本語のテキスト #日本 ผมรักภาษาไทย مرحبا بالعالم",
        "", " ", "#", "/", "a", "\u{301}", "\r\n", "a\r\nb", "#a\u{301}",
    ])
    func theFastReadingMakesWhatReadingEveryCharacterMakes(text: String) {
        expectSame(text)
    }

    /// Random texts from an alphabet of the cases above, 2,000 of them, from a fixed seed so a
    /// failure repeats.
    @Test func randomTextsOfOddCharactersReadTheSameBothWays() {
        let alphabet: [String] = ["a", "Z", "9", "_", " ", "\t", "\r", "\n", "#", "＃", "/", ".", "-", "+", "@", "'",
                                  "\u{301}", "\u{200D}", "\u{FE0F}", "\u{0600}", "\u{A0}", "\u{85}", "👍", "🏽", "🇫", "🇷",
                                  "日", "ไ", "é", "ß", "\u{2028}", "\u{0B}"]
        var generator = SplitMix64(seed: 34)
        for _ in 0..<2_000 {
            let length = Int(generator.next() % 24)
            let text = (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }.joined()
            expectSame(text)
        }
    }
}
