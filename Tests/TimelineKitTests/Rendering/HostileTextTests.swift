import Foundation
import Testing
@testable import TimelineKit

/// Text built to make measuring, wrapping and neutralising slow, against normal text of the same
/// size: each stage must cost within a small multiple of the normal cost (issue 12: 50,000
/// regional indicators in a display name made every `show` take 12 s).
@Suite struct HostileTextTests {
    /// About this many bytes of UTF-8 each: enough that a quadratic stage costs hundreds of times
    /// the normal one, little enough that it fails in seconds.
    static let size = 40_000

    /// `unit` repeated to `size` bytes, after `prefix`.
    static func repeated(_ unit: String, prefix: String = "") -> String {
        prefix + String(repeating: unit, count: max(1, (size - prefix.utf8.count) / unit.utf8.count))
    }

    /// The hostile shapes: long runs of what joins, piles up or needs looking back at.
    static let shapes: [(name: String, text: String)] = [
        ("regional indicators", repeated("\u{1F1E6}")),
        ("flags", repeated("🇯🇵")),
        ("flags after a word", repeated("🇯🇵", prefix: "word ")),
        ("combining marks on one letter", repeated("\u{301}", prefix: "a")),
        ("a combining mark on every letter", repeated("e\u{301}")),
        ("marks after spaces", repeated(" \u{301}")),
        ("a ZWJ chain", repeated("👩\u{200D}")),
        ("ZWJ families", repeated("👨\u{200D}👩\u{200D}👧")),
        ("skin tones", repeated("👍🏽")),
        ("lone skin tones", repeated("🏽")),
        ("variation selectors", repeated("❤\u{FE0F}")),
        ("lone variation selectors", repeated("\u{FE0F}", prefix: "a")),
        ("keycaps", repeated("1\u{FE0F}\u{20E3}")),
        ("tag characters", repeated("\u{E0067}", prefix: "🏴")),
        ("no space at all", repeated("x")),
        ("wide characters without a space", repeated("日")),
        ("closing punctuation after one ideograph", repeated("。", prefix: "日")),
        ("Hangul initial consonants", repeated("\u{1100}")),
        ("an Indic conjunct chain", repeated("क\u{94D}")),
        ("prepended concatenation marks", repeated("\u{600}")),
        ("tabs after flags", repeated("🇯🇵\t")),
        ("bidirectional overrides", repeated("\u{202E}a")),
        ("control characters", repeated("\u{1B}[2J")),
        ("carriage returns", repeated("\r")),
        ("line feeds", repeated("\n")),
        ("spaces", repeated(" ")),
    ]

    /// Normal text of the same size: words in several scripts, with emoji and flags among them.
    static let normal = repeated("Hello 👋 world, café crème! 日本語のテキスト 🇯🇵 and Ελληνικά — 👍🏽 ok. ")

    @Test func measuringAnyShapeCostsWhatNormalTextCosts() {
        for shape in Self.shapes {
            CostRatio.expect(shape.name) {
                _ = DisplayWidth.of(shape.text)
            } normal: {
                _ = DisplayWidth.of(Self.normal)
            }
        }
    }

    @Test func wrappingAnyShapeCostsWhatNormalTextCosts() {
        let wrapper = TextWrapper(width: 40, initialIndent: "  ", subsequentIndent: "  ")
        for shape in Self.shapes {
            let text = TerminalText.body(shape.text)
            let normal = TerminalText.body(Self.normal)
            CostRatio.expect(shape.name) {
                _ = wrapper.wrappedLines(text)
            } normal: {
                _ = wrapper.wrappedLines(normal)
            }
        }
    }

    @Test func neutralisingAndTruncatingAnyShapeCostWhatNormalTextCosts() {
        for shape in Self.shapes {
            CostRatio.expect(shape.name) {
                _ = TerminalText.body(shape.text)
                _ = TextWrapper.truncate(TerminalText.line(shape.text), toWidth: 30)
            } normal: {
                _ = TerminalText.body(Self.normal)
                _ = TextWrapper.truncate(TerminalText.line(Self.normal), toWidth: 30)
            }
        }
    }

    /// A page whose one user has `text` as name and handle, and whose messages carry it as text,
    /// content warning and quote.
    static func page(_ text: String) -> TimelinePage {
        TimelinePage(
            messages: [
                RenderingSamples.message("m1", by: "u1", text),
                RenderingSamples.message("m2", by: "u1", "see this", quoteOf: "m3"),
                RenderingSamples.message("m4", by: "u1", text, contentWarning: text),
            ],
            related: [RenderingSamples.message("m3", by: "u1", text)],
            users: [RenderingSamples.user("u1", text, text)])
    }

    @Test func renderingAnyShapeAsNamesTextsAndQuotesCostsWhatNormalTextCosts() {
        let renderer = TimelineRenderer(options: RenderOptions(width: 80))
        let normal = Self.page(Self.normal)
        for shape in Self.shapes {
            let page = Self.page(shape.text)
            CostRatio.expect(shape.name) {
                _ = renderer.render(page, now: RenderingSamples.now)
                _ = renderer.render(page, now: RenderingSamples.now, fittingRows: 40)
            } normal: {
                _ = renderer.render(normal, now: RenderingSamples.now)
                _ = renderer.render(normal, now: RenderingSamples.now, fittingRows: 40)
            }
        }
    }

    @Test func aScreenfulCostsTheSameHoweverLongTheTextBehindIt() {
        let renderer = TimelineRenderer(options: RenderOptions(width: 80))
        let words = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor. "
        let short = Self.page(String(repeating: words, count: 1_250))  // 100 KB
        let long = Self.page(String(repeating: words, count: 25_000))  // 2 MB
        CostRatio.expect("a text 20 times as long", within: 4) {
            _ = renderer.render(long, now: RenderingSamples.now, fittingRows: 40)
        } normal: {
            _ = renderer.render(short, now: RenderingSamples.now, fittingRows: 40)
        }
    }

    @Test func anEntryTallerThanTheRowsIsCutToThemEndingInAnEllipsis() throws {
        let renderer = TimelineRenderer(options: RenderOptions(width: 40))
        let text = (1...500).map { "line \($0)" }.joined(separator: "\n")
        let page = TimelinePage(messages: [RenderingSamples.message("m1", by: "u1", text)],
                                users: [RenderingSamples.user("u1", "alice", "Alice")])
        let entry = try #require(renderer.render(page, now: RenderingSamples.now, fittingRows: 10).first)
        #expect(entry.lines.count == 10)
        #expect(entry.lines[1] == "  line 1")
        #expect(entry.lines[9] == "  line 9…")
        // Without rows to fit, all of it; on a screen of a few rows, a few lines more than fit.
        #expect(renderer.render(page, now: RenderingSamples.now).first?.lines.count == 501)
        #expect(renderer.render(page, now: RenderingSamples.now, fittingRows: 2).first?.lines.count == TimelineRenderer.shortestCut)
    }

    @Test func fieldsBeyondWhatAScreenCanShowAreCutBeforeNeutralisingAndSayItWithAnEllipsis() throws {
        let renderer = TimelineRenderer(options: RenderOptions(width: 40))
        // Zero-width marks that a screen cannot show more of, after a word.
        let marks = "visible" + String(repeating: "\u{301}", count: 200_000)
        let page = TimelinePage(
            messages: [RenderingSamples.message("m1", by: "u1", "quoting", quoteOf: "m2"),
                       RenderingSamples.message("m3", by: "u1", marks)],
            related: [RenderingSamples.message("m2", by: "u1", marks)],
            users: [RenderingSamples.user("u1", "alice", "Alice")])
        let entries = renderer.render(page, now: RenderingSamples.now, fittingRows: 20)
        let quote = try #require(entries.first?.lines.last)
        #expect(quote.utf8.starts(with: "  ❝ @alice: visible".utf8))
        #expect(quote.hasSuffix("…"))
        #expect(quote.utf8.count <= 40 * TimelineRenderer.bytesPerCell + 40)
        let text = try #require(entries.last?.lines.last)
        #expect(text.utf8.starts(with: "  visible".utf8) && text.hasSuffix("…"))
        for line in entries.flatMap(\.lines) {
            #expect(TimelineRenderer.displayWidth(ofLine: line) <= 40)
        }
    }

    @Test func anyNumberOfRowsAndAnyWidthRenderWithoutOverflow() {
        let page = Self.page("words " + String(repeating: "🇯🇵", count: 100))
        for width in [0, 1, 20, 80, Int.max / 2, Int.max] {
            for rows in [Int.min, -1, 0, 1, 40, Int.max / 2, Int.max] {
                let entries = TimelineRenderer(options: RenderOptions(width: width)).render(page, now: RenderingSamples.now, fittingRows: rows)
                #expect(!entries.isEmpty)
            }
        }
    }

    @Test func aHeadIsCutBetweenScalarsAtTheByteLimit() {
        let text = String(repeating: "日", count: 100)  // 300 bytes
        let head = TimelineRenderer.head(of: text, cells: 1)  // 16 bytes: 5 whole characters
        #expect(head.isCut)
        #expect(head.text == String(repeating: "日", count: 5))
        #expect(TimelineRenderer.head(of: text, cells: 1_000) == (text, false))
        #expect(TimelineRenderer.head(of: "", cells: 0) == ("", false))
        #expect(TimelineRenderer.head(of: text, cells: .max).isCut == false)
    }

    @Test func wrappingStopsAfterTheLinesAskedForCountingOnlyLinesWithText() {
        let wrapper = TextWrapper(width: 10)
        let text = "\n\n\none two three four five six seven eight"
        let lines = wrapper.wrappedLines(text, maximumLines: 2)
        #expect(lines.map(\.text) == ["", "", "", "one two", "three four"])
        #expect(wrapper.wrappedLines(text).count == 8)
    }
}
