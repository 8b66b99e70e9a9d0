/// Texts whose facets the official SDK and timeline must agree on: written cases (emoji, CJK,
/// combining marks, right-to-left scripts, URLs with punctuation, mentions, tags, cashtags) and
/// texts assembled from pieces by a seeded generator, so that pieces meet in ways nobody wrote.
enum RichTextCorpus {
    static let emoji = [
        "🎉 #party 🎉", "#🎉", "#🎉🎉 fun", "👨‍👩‍👧 @alice.bsky.social 👍🏽", "#tag️", "#️⃣ keycap", "#\u{FE0F}tag",
        "Flag 🇫🇷 #france🇫🇷", "#café☕", "☕https://example.com", "☕ https://example.com/☕", "😀@alice.bsky.social",
        "😀 @alice.bsky.social😀", "#👩🏽‍💻coder", "$AAPL🚀", "🚀 $AAPL 🚀", "emoji.com 🎉", "#tag\u{20E2}x", "#🏳️‍🌈",
    ]

    static let cjk = [
        "日本語のテキスト\u{3000}#タグ\u{3000}です", "＃日本語", "＃日本語のタグ。", "#東京。", "#東京、大阪", "「#タグ」",
        "\u{3000}#タグ」です", "https://example.com/日本\u{3000}次", "@alice.bsky.social\u{3000}こんにちは",
        "これは@alice.bsky.socialです", "テスト example.jp です", "テスト\u{3000}example.jp\u{3000}です", "#한국어!",
        "中文#标签", "#标签，中文", "#标签！", "（#タグ）", "見て\u{3000}https://example.com/path。", "＃＃二重",
        "#タグ・テスト", "#タグ〜", "#ｔａｇ", "#タグ＃タグ", "文章\u{3000}＃ハッシュタグ\u{3000}@bob.test\u{3000}です",
        "$AAPL\u{3000}株", "（$AAPL）", "@alice.bsky.social。", "https://example.com、次",
    ]

    static let combining = [
        "#cafe\u{301}", "e\u{301} #nai\u{308}ve", "#\u{301}abc", "https://example.com/cafe\u{301}.", "#z\u{335}\u{32A}a\u{336}l\u{337}go",
        "#a" + String(repeating: "\u{301}", count: 70), "#" + String(repeating: "e\u{301}", count: 40),
        "@alice.bsky.social\u{301}", "#ก\u{E34}ไทย", "#हिन्दी", "#\u{0915}\u{094D}\u{0937}",
    ]

    static let rightToLeft = [
        "مرحبا #مرحبا", "#שלום!", "\u{200F}@alice.bsky.social", "עברית https://example.co.il/דף", "\u{202B}#tag\u{202C}",
        "#العربية، نعم", "نص @alice.bsky.social نص", "#עברית׃", "؟#سؤال", "\u{200E}#ltr", "מחיר $AAPL.",
    ]

    static let links = [
        "https://en.wikipedia.org/wiki/Swift_(programming_language)", "(https://example.com)", "(https://en.wikipedia.org/wiki/Foo_(bar))",
        "see https://en.wikipedia.org/wiki/Foo_(bar).", "https://example.com/a).", "https://example.com.", "https://example.com?!",
        "https://example.com/path;", "https://example.com/#frag", "https://example.com/a?b=c&d=e,", "HTTPS://EXAMPLE.COM",
        "Http://x.com", "example.com", "Example.com", "example.COM", "httpbin.org", "www.example.co.uk/path?q=1&r=2", "v1.2.3",
        "file.txt", "a.b", "foo.bar.baz", "https://", "http://x", "e.g. this", "sub.example.museum", "xn--p1ai.xn--p1ai",
        "mailto:bob@example.com", "bob@example.com", "https://example.com/\"quoted\"", "'https://example.com'", "<https://example.com>",
        "line\nhttps://example.com", "line\rhttps://example.com", "(example.com)", "example.com/path)", "https://a.com,https://b.com",
        "https://a.com https://b.com", "http://localhost:8080/x", "https://127.0.0.1/", "1.2.3.4", "a1.com", "1a.com", "x.y.z.com",
        "example.com:", "example.com...", "https://example.com/a(b", "https://example.com/a)b)", "ftp://example.com",
        "https://example.com\u{00A0}next", "\u{00A0}example.com", "\u{2028}https://example.com", "\tbsky.app\t", "BSKY.APP/x",
        "bsky.app/profile/alice.bsky.social", "go to bsky.app!", "(bsky.app).", "https://x.com/@bob.bsky.social",
        "https://example.com/%E2%82%AC", "https://münchen.de/x", "münchen.de", "https://example.com/a_(b)_c.", "example.a1",
        "example.co", "examplecom", "..example.com", "-example.com", "example-site.com", "https://example.com/?", "example.com?",
    ]

    static let mentions = [
        "@alice.bsky.social's post", "@alice.bsky.social, hi", "@alice.bsky.social.", "@alice.bsky.social!", "(@alice.bsky.social)",
        "@alice", "@alice.test", "@Alice.Bsky.Social", "@alice.bsky.SOCIAL", "email@alice.bsky.social", "@-bad.com", "@a_b.com",
        "@alice.bsky.social@bob.bsky.social", "@@alice.bsky.social", "@123.com", "@alice.bsky.social-", "@alice..bsky.social",
        "@alice.bsky.social\u{2019}s", "hi @bob.test and @carol.test.", "@a.co", "@a-.com", "@x" + String(repeating: "a", count: 70) + ".com",
        "@alice.bsky.social:", "@alice.bsky.social?", "@alice.bsky.social;x", "\n@alice.bsky.social", "\t@alice.bsky.social",
        "\u{3000}@alice.bsky.social", "\u{00A0}@alice.bsky.social", "@alice.bsky.social/path", "@bsky.app", "@1.2", "@.com",
        "@alice.bsky.social.invalidtld", "@alice.example.test",
    ]

    static let tags = [
        "#tag", "#123", "#123abc", "#1st", "#tag.", "#tag!!", "#tag#tag2", "##tag", "# tag", "#", "text#notatag", "#tag,#other",
        "#_", "#a_b", "#tag\u{200B}zw", "#tag\u{00AD}x", "#" + String(repeating: "a", count: 64), "#" + String(repeating: "a", count: 65),
        "#" + String(repeating: "🎉", count: 40), "#" + String(repeating: "🎉", count: 65), "#tag's", "#tag'", "#'tag", "#tag-", "#-tag",
        "#tag...", "#!!!", "#1.2", "#v1.2", "(#tag)", "\n#tag", "#tag\n#next", "#tag\u{2028}#next", "#Tag #TAG", "#tag)", "#tag(",
        "$AAPL", "$aapl.", "($TSLA)", "$ABCDEF", "$1ABC", "$A1", "$A's", "price $5", "$AAPL\u{2019}s", "$AAPL-B", "$AAPL\"", "$A",
        "$ABCDE", "$AAPL$MSFT", "x$AAPL", "$aapl,$msft", "$AAPL:", "$AAPL)", "$AAPL(", "$AAPL/x", "\u{FEFF}#bom", "#tag\u{FEFF}x",
    ]

    static let mixed = [
        "Hi @alice.bsky.social, see https://en.wikipedia.org/wiki/Swift_(language). #swift #iOS $AAPL",
        "Read example.com/x and (bsky.app) with @bob.test! #reading。",
        "Line one #one\nLine two @alice.bsky.social\nhttps://example.com/three",
        "#a #b #c @d.test @e.test https://f.com https://g.com/h.",
        "Multiple   spaces   #tag   @alice.bsky.social   example.com",
        "Tabs\t#tag\t@alice.bsky.social\texample.com",
        "日本語 #日本語 @alice.bsky.social https://日本.jp example.jp ＃タグ $AAPL",
        "",
        " ",
        "plain text with no facets at all",
    ]

    /// Every written text.
    static let written = emoji + cjk + combining + rightToLeft + links + mentions + tags + mixed

    /// Pieces the generator joins: words, facets of each kind, punctuation of several scripts,
    /// white space of several kinds, and characters that join others (ZWJ, combining marks).
    static let pieces = [
        "word", "日本", "שלום", "مرحبا", "🎉", "👍🏽", "e\u{301}", "#tag", "＃タグ", "#123", "#", "@alice.bsky.social", "@bob.test", "@",
        "https://example.com", "https://en.wikipedia.org/wiki/A_(b)", "http://x.io/p?q=1", "example.com", "bsky.app/x", "$AAPL", "$",
        ".", ",", "!", "?", ")", "(", "'", "\"", "。", "、", "」", "「", "：", "-", "_", "/", "’", "…", "\u{200B}", "\u{200D}", "\u{FE0F}",
        " ", " ", " ", "\u{3000}", "\n", "\t", "\u{00A0}",
    ]

    /// What goes before each piece: nothing (pieces meet), or white space.
    static let separators = ["", "", " ", " ", "\u{3000}", "\n"]

    /// `count` texts of two to eight pieces, the same on every run (a linear congruential
    /// generator with a fixed seed).
    static func generated(count: Int, seed: UInt64 = 25) -> [String] {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        return (0 ..< count).map { _ in
            (0 ..< 2 + next(7)).map { _ in separators[next(separators.count)] + pieces[next(pieces.count)] }.joined()
        }
    }
}
