import Testing
@testable import TimelineKit

@Suite struct TextWrapperTests {
    private func wrap(_ text: String, width: Int) -> [String] {
        TextWrapper(width: width).wrap(text)
    }

    /// Checks the wrapper's promises for `text` at `width`: no line wider than the width (but
    /// for a lone 2-column cluster at width 1), every line's width reported right, and the lines
    /// with what was dropped between them giving back the text.
    private func expectWellWrapped(_ text: String, width: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = TextWrapper(width: width).wrappedLines(text)
        var reconstructed = ""
        for line in lines {
            #expect(line.width == DisplayWidth.of(line.text), sourceLocation: sourceLocation)
            let allowed = line.text.count == 1 ? max(width, DisplayWidth.of(line.text)) : width
            #expect(line.width <= allowed, "\(line.text.debugDescription) at \(width)", sourceLocation: sourceLocation)
            #expect(line.text.last != " " || line.text.allSatisfy { $0 == " " }, sourceLocation: sourceLocation)
            reconstructed += line.text + line.removed + (line.endsParagraph ? "\n" : "")
        }
        #expect(reconstructed == text, "at \(width)", sourceLocation: sourceLocation)
        // Only whole clusters: every line is a run of the text's own characters.
        let characters = Set(text)
        for line in lines {
            #expect(line.text.allSatisfy(characters.contains), sourceLocation: sourceLocation)
        }
    }

    static let samples = [
        "The quick brown fox jumps over the lazy dog, and then it does it again, because foxes are like that.",
        "日本語のテキストは空白なしで折り返されます。「かぎかっこ」も、句読点も、ちゃんと扱います。",
        "中文和English混在的句子，也要正确地换行。😵‍💫 我太难了",
        "오늘 밤 안에 Rust 책 5장 끝내기! 화이팅 💪🏻 서울 첫눈 예보! ❄️ 내일 아침에 눈 오면 사진 올릴게요",
        "Emoji 👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧 flags 🇯🇵🇮🇹🇳🇴🇬🇭🇳🇱 skin 👍🏽🙏🏽💪🏻 keycaps 1️⃣2️⃣3️⃣ hearts ❤️❤️❤️ 🏳️‍🌈🐈‍⬛",
        "Read https://example.org/articles/2026/11/a-very-long-slug-that-never-ends?utm_source=timeline&utm_medium=terminal#section-4 now",
        "שלום עולם! version 1.2.3 של התוכנה, עם مرحبا بالعالم and English mixed in ياسمين الحداد 123",
        "Vietnamese Nguye\u{302}\u{303}n Thi\u{323} Tha\u{309}o, Yoruba Olu\u{301}wase\u{323}\u{301}un, e\u{301}e\u{301}e\u{301}",
        "Devanagari नमस्ते दुनिया, हिन्दी में लिखा गया वाक्य जो लंबा है; Thai ภาษาไทยไม่มีช่องว่างระหว่างคำ",
        "  indented start\nsecond   line   with   gaps   \n\n\nafter blank lines   ",
        "x" + String(repeating: "y", count: 150) + " z",
        " \u{301}combining after a space, and a space before \u{301} a mark",
        "",
    ]

    @Test(arguments: [1, 2, 3, 5, 10, 20, 40, 80])
    func linesNeverExceedTheWidthAndGiveBackTheText(width: Int) {
        for sample in Self.samples {
            expectWellWrapped(sample, width: width)
        }
    }

    @Test func textThatFitsIsOneLine() {
        #expect(wrap("Hello, timeline!", width: 40) == ["Hello, timeline!"])
        #expect(wrap("", width: 40) == [""])
        #expect(wrap("exactly ten", width: 11) == ["exactly ten"])
    }

    @Test func linesBreakAtSpacesAndDropThem() {
        #expect(wrap("the quick brown fox jumps", width: 10) == ["the quick", "brown fox", "jumps"])
        #expect(wrap("aaaa      bbbb", width: 6) == ["aaaa", "bbbb"])
        #expect(wrap("trailing spaces     ", width: 10) == ["trailing", "spaces"])
    }

    @Test func explicitLineBreaksAreKept() {
        #expect(wrap("a\n\nb", width: 10) == ["a", "", "b"])
        #expect(wrap("a  \nb\n", width: 10) == ["a", "b", ""])
    }

    @Test func longWordsStartANewLineAndBreakBetweenClusters() {
        #expect(wrap("see https://example.org/very/long/path", width: 12)
            == ["see", "https://exam", "ple.org/very", "/long/path"])
        #expect(wrap("👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧", width: 5) == ["👨‍👩‍👧👨‍👩‍👧", "👨‍👩‍👧"])
        #expect(wrap("e\u{301}e\u{301}e\u{301}e\u{301}", width: 3) == ["e\u{301}e\u{301}e\u{301}", "e\u{301}"])
    }

    @Test func aWideClusterWithOneColumnLeftMovesToTheNextLine() {
        #expect(wrap("abcd😀", width: 5) == ["abcd", "😀"])
        #expect(wrap("abcd日本", width: 5) == ["abcd", "日本"])
    }

    @Test func atWidthOneAWideClusterStandsAloneOnItsLine() {
        let lines = TextWrapper(width: 1).wrappedLines("日本")
        #expect(lines.map(\.text) == ["日", "本"])
        #expect(lines.map(\.width) == [2, 2])
    }

    @Test func cjkBreaksBetweenCharactersButNotBeforeClosingPunctuation() {
        #expect(wrap("日本語のテキストです。", width: 10) == ["日本語のテ", "キストで", "す。"])
        #expect(wrap("これは「かぎ」です", width: 8) == ["これは", "「かぎ」", "です"])
        // Text before a CJK run fills the line rather than leaving it half empty.
        #expect(wrap("Tokyo: 東京都渋谷区", width: 12) == ["Tokyo: 東京", "都渋谷区"])
        // Korean breaks at spaces, like European languages.
        #expect(wrap("서울 첫눈 예보", width: 6) == ["서울", "첫눈", "예보"])
    }

    @Test func indentsStartTheFirstAndTheFollowingLines() {
        let wrapper = TextWrapper(width: 12, initialIndent: "> ", subsequentIndent: "  ")
        #expect(wrapper.wrap("one two three four") == ["> one two", "  three four"])
        #expect(wrapper.wrap("one\ntwo") == ["> one", "  two"])
        let hanging = TextWrapper(width: 12, initialIndent: "CW: ", subsequentIndent: "    ")
        #expect(hanging.wrap("spoilers for the film") == ["CW: spoilers", "    for the", "    film"])
        let narrowerAfterTheFirst = TextWrapper(width: 10, initialIndent: "", subsequentIndent: "      ")
        for line in narrowerAfterTheFirst.wrappedLines("abcdefghij klmnopqrstuvwxyz 日本語のテキスト") {
            #expect(line.width <= 10, "\(line.text)")
        }
    }

    @Test func truncationKeepsWholeClustersAndEndsWithAnEllipsis() {
        #expect(TextWrapper.truncate("Hello world", toWidth: 20) == "Hello world")
        #expect(TextWrapper.truncate("Hello world", toWidth: 11) == "Hello world")
        #expect(TextWrapper.truncate("Hello world", toWidth: 8) == "Hello w…")
        #expect(TextWrapper.truncate("Hello world", toWidth: 7) == "Hello…")
        #expect(TextWrapper.truncate("日本語", toWidth: 5) == "日本…")
        #expect(TextWrapper.truncate("日本語", toWidth: 4) == "日…")
        #expect(TextWrapper.truncate("👨‍👩‍👧👨‍👩‍👧", toWidth: 3) == "👨‍👩‍👧…")
        #expect(TextWrapper.truncate("abc", toWidth: 1) == "…")
        #expect(TextWrapper.truncate("abc", toWidth: 0) == "")
    }
}
