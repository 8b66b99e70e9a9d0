import Foundation
import Testing
@testable import TimelineKit

/// Where a query matches in a text, and how the renderer shows it: on whole characters, after
/// the text was neutralised, and only with colour on.
@Suite struct SearchHighlightTests {
    private func matched(_ query: String, in text: String) throws -> [String] {
        try SearchQuery(query).matchRanges(in: text).map { String(text[$0]) }
    }

    @Test func rangesCoverWholeWordsWithTheirAccentsAndSigns() throws {
        #expect(try matched("cafe", in: "Un CAFÉ, un cafe\u{301}!") == ["CAFÉ", "cafe\u{301}"])
        #expect(try matched("#swift @bob", in: "#Swift by @bob@example.social") == ["#Swift", "@bob"])
        #expect(try matched("\"good morning\"", in: "Good  morning, all") == ["Good  morning"])
        #expect(try matched("perf*", in: "performance, perfect, imperfect") == ["performance", "perfect"])
        #expect(try matched("tea -coffee", in: "tea not coffee") == ["tea"])
    }

    @Test func rangesInSpacelessScriptsKeepClustersWhole() throws {
        #expect(try matched("天気", in: "今日は天気がいい、天気!") == ["天気", "天気"])
        // ก alone starts the cluster กิ: the highlight takes the whole cluster.
        #expect(try matched("ก", in: "กิน") == ["กิ"])
        #expect(try matched("데이터", in: "데이터베이스") == ["데이터"])
    }

    @Test func overlappingMatchesMerge() throws {
        #expect(try matched("天気 気が", in: "天気がいい") == ["天気が"])
    }

    private func render(_ text: String, query: String, color: Bool, width: Int = 40) throws -> [String] {
        let page = TimelinePage(messages: [Samples.message(1, text: text, read: true)], users: [Samples.alice])
        let renderer = TimelineRenderer(options: RenderOptions(width: width, color: color))
        return renderer.render(page, now: Samples.epoch, highlighting: try SearchQuery(query))[0].lines
    }

    @Test func matchesAreInReverseVideoOnlyWithColour() throws {
        let coloured = try render("morning coffee, then more coffee", query: "coffee", color: true)
        #expect(coloured.last == "  morning \u{1b}[7mcoffee\u{1b}[0m, then more \u{1b}[7mcoffee\u{1b}[0m")
        let plain = try render("morning coffee, then more coffee", query: "coffee", color: false)
        #expect(plain.last == "  morning coffee, then more coffee")
    }

    @Test func aMatchCutByWrappingIsHighlightedOnBothLines() throws {
        // 18 columns of text per line: the phrase starts on one line and ends on the next.
        let lines = try render("aaaa bbbb cccc good morning dddd", query: "\"good morning\"", color: true, width: 20)
        #expect(lines.dropFirst().map { $0 } == ["  aaaa bbbb cccc", "  \u{1b}[7mgood morning\u{1b}[0m dddd"])
        let cjk = try render("今日は天気がいいですね今日は天気がいい", query: "天気", color: true, width: 20)
        #expect(cjk.dropFirst().allSatisfy { TimelineRenderer.displayWidth(ofLine: $0) <= 20 })
        #expect(cjk.dropFirst().joined().components(separatedBy: "\u{1b}[7m").count - 1 >= 2)
    }

    @Test func escapeSequencesInTheTextStayInertAroundAHighlight() throws {
        let lines = try render("\u{1b}[31mred\u{1b}[0m coffee \u{1b}]0;title\u{7}", query: "coffee", color: true, width: 80)
        let body = lines.last ?? ""
        // The only escapes are the highlight's own SGR sequences.
        let withoutOurs = body.replacing("\u{1b}[7m", with: "").replacing("\u{1b}[0m", with: "")
        #expect(!withoutOurs.contains("\u{1b}"), "\(body.debugDescription)")
        #expect(body.contains("\u{1b}[7mcoffee\u{1b}[0m"))
        #expect(body.hasPrefix("  ␛[31mred␛[0m \u{1b}[7mcoffee"))
    }
}
