import Testing
@testable import TimelineKit

@Suite struct TimelineRendererTests {
    private let page = RenderingSamples.everyKindOfMessage()
    private let now = RenderingSamples.now

    private func render(width: Int = 80, color: Bool = false, revealing: Bool = false, unreadMarker: Bool = true) -> [String: [String]] {
        let options = RenderOptions(width: width, color: color, showsUnreadMarker: unreadMarker, revealsContentWarnings: revealing)
        let entries = TimelineRenderer(options: options).render(page, now: now)
        return Dictionary(uniqueKeysWithValues: entries.map { ($0.messageID, $0.lines) })
    }

    @Test func entriesFollowThePageOrder() {
        let entries = TimelineRenderer(options: RenderOptions()).render(page, now: now)
        #expect(entries.map(\.messageID) == page.messages.map(\.id))
    }

    @Test func renderingToFitRowsStopsAtTheFirstEntryThatWouldOverflowAndCutsAFirstEntryTallerThanTheRows() {
        let renderer = TimelineRenderer(options: RenderOptions())
        // Every message first in turn: the first entry is the one that may be cut.
        for start in page.messages.indices {
            let rotated = TimelinePage(messages: Array(page.messages[start...] + page.messages[..<start]),
                                       related: page.related, users: page.users)
            let all = renderer.render(rotated, now: now)
            for rows in 0...(TimelineRenderer.rowCount(of: all) + 2) {
                let fitted = renderer.render(rotated, now: now, fittingRows: rows)
                // The longest prefix of the full rendering within `rows`, but never nothing.
                var expected = 1
                while expected < all.count && TimelineRenderer.rowCount(of: Array(all.prefix(expected + 1))) <= rows {
                    expected += 1
                }
                #expect(fitted.dropFirst() == all.prefix(expected).dropFirst(), "rows: \(rows)")
                // The first entry whole when it fits, else its first lines, the last ending in `…`.
                let first = all[0].lines, shown = fitted.first?.lines ?? []
                let room = max(rows, TimelineRenderer.shortestCut)
                if first.count <= room {
                    #expect(shown == first, "rows: \(rows)")
                } else {
                    #expect(shown.count == room, "rows: \(rows)")
                    #expect(shown.dropLast() == first.prefix(room - 1), "rows: \(rows)")
                    #expect(shown.last?.hasSuffix("…") == true, "rows: \(rows): \(shown)")
                }
            }
        }
    }

    @Test func aPlainMessageIsAHeaderAndItsText() {
        #expect(render()["m1"] == [
            "  Alice Liddell @alice · 3m",
            "  Hello, timeline!",
        ])
    }

    @Test func unreadMessagesAreMarkedInTheFirstColumn() {
        #expect(render()["m2"] == [
            "● Alice Liddell @alice · 3m · edited",
            "  Unread and edited",
        ])
        #expect(render(unreadMarker: false)["m2"]?.first == "  Alice Liddell @alice · 3m · edited")
    }

    @Test func repliesNameWhoTheyAnswer() {
        #expect(render()["m3"] == [
            "  Bob 🦊 @bob@remote.example · 3m",
            "  ↩ reply to @alice",
            "  @alice I agree",
        ])
        #expect(render()["m4"]?[1] == "  ↩ reply")
    }

    @Test func aRepostShowsWhoRepostedAndTheOriginal() {
        #expect(render()["m5"] == [
            "● ⟲ Alice Liddell reposted · 3m",
            "  田中 健二 @kenji_t · 2h",
            "  ↩ reply to @alice",
            "  原文はこちら。Original text here.",
            "  ↩ 4  ⟲ 12  ♥ 1.2k",
        ])
    }

    @Test func aRepostOfAMissingMessageSaysSo() {
        #expect(render()["m6"] == [
            "  ⟲ Bob 🦊 reposted · 3m",
            "  (original not available)",
        ])
    }

    @Test func textBehindAContentWarningIsHiddenUnlessRevealed() {
        #expect(render()["m7"] == [
            "  Alice Liddell @alice · 3m",
            "  CW: spoilers for the film",
            "  [text hidden: 42 characters]",
        ])
        #expect(render(revealing: true)["m7"] == [
            "  Alice Liddell @alice · 3m",
            "  CW: spoilers for the film",
            "  The ending: everyone was a duck all along.",
        ])
        #expect(render(width: 20)["m7"] == [
            "  Alice… @alice · 3m",
            "  CW: spoilers for",
            "      the film",
            "  [text hidden: 42…",
        ])
    }

    @Test func anEmptyContentWarningIsNone() {
        let page = TimelinePage(
            messages: [RenderingSamples.message("m", by: "u1", "Shown", contentWarning: " \u{200B} ")],
            users: [RenderingSamples.alice]
        )
        #expect(TimelineRenderer(options: RenderOptions()).render(page, now: now).first?.lines == [
            "  Alice Liddell @alice · 3m",
            "  Shown",
        ])
    }

    @Test func eachDescribedAttachmentSaysWhatItShowsAndTheOthersAreCounted() {
        #expect(render()["m8"]?.suffix(2) == ["  📎 image: \"A fox asleep in the snow\"", "  📎 1 image (no description)"])
        #expect(render()["m18"] == [
            "  Moon Phase 🌙 @moonphase [bot] · 3m",
            "  📎 audio file: \"Birdsong\"",
            "  📎 1 video (no description)",
            "  ⟲ 2",
        ])
        // A description is untrusted text on one line, cut to the width.
        let described = Attachment(kind: "image", altText: "a\u{1b}[2Jcat\non two lines " + String(repeating: "x", count: 200))
        let page = TimelinePage(messages: [RenderingSamples.message("h", by: "u1", "Look", attachments: [(kind: "image", description: described.altText)])],
                                users: [RenderingSamples.alice])
        let line = TimelineRenderer(options: RenderOptions(width: 40)).render(page, now: now).first?.lines.last ?? ""
        #expect(!line.contains("\u{1b}") && !line.contains("\n") && line.hasSuffix("…") && DisplayWidth.of(line) <= 40, "\(line)")
        #expect(TimelineRenderer.attachmentLines([Attachment(kind: "gifv", altText: " \u{200B} ")], cells: 80) == ["📎 1 GIF (no description)"])
        #expect(TimelineRenderer.attachmentSummary([Attachment(kind: "image", altText: "x")]) == "1 image")
        #expect(TimelineRenderer.attachmentSummary([Attachment(kind: "video")]) == "1 video (no description)")
        #expect(TimelineRenderer.attachmentSummary([Attachment(kind: "gifv"), Attachment(kind: "gifv", altText: " ")]) == "2 GIFs (no descriptions)")
        #expect(TimelineRenderer.attachmentSummary([Attachment(kind: "\u{1b}[2J")]) == "1 attachment (no description)")
    }

    @Test func aQuoteIsOneLineCutToTheWidth() {
        #expect(render()["m9"]?.last == "  ❝ @bob@remote.example: A thought worth quoting with a second line")
        #expect(render(width: 40)["m9"]?.last == "  ❝ @bob@remote.example: A thought wort…")
        #expect(render()["m15"] == [
            "  (unknown user) · 3m",
            "  Written by a user the page lacks",
            "  ❝ (quoted message not available)",
        ])
    }

    @Test func countsAreCompactedInTheFooter() {
        #expect(render()["m10"] == [
            "  Moon Phase 🌙 @moonphase [bot] · 3m",
            "  🌒 Waxing crescent — 46% illuminated.",
            "  ↩ 1.2k  ⟲ 15k  ♥ 1.1M",
        ])
        #expect(render(width: 20)["m10"]?.last == "  ↩1.2k ⟲15k ♥1.1M")
        #expect(render()["m1"]?.count == 2) // no footer when every count is zero
    }

    @Test func compactCountsCutDigitsInsteadOfRounding() {
        let expected: [(Int, String)] = [
            (0, "0"), (7, "7"), (999, "999"), (1_000, "1k"), (1_050, "1k"), (1_234, "1.2k"), (1_999, "1.9k"),
            (9_999, "9.9k"), (10_000, "10k"), (15_600, "15k"), (999_999, "999k"), (1_000_000, "1M"),
            (1_100_000, "1.1M"), (25_000_000, "25M"), (1_250_000_000, "1.2B"), (-5, "0"),
        ]
        for (count, text) in expected {
            #expect(CompactCount.string(count) == text, "\(count)")
        }
    }

    @Test func hostileNamesHandlesAndTextAreShownInert() throws {
        let lines = try #require(render()["m11"])
        #expect(lines.first == "● ␛[31mGlitch␛[0m NIMDA␛]0;pwned␇ @sneaky␛[2J␛[H␍admin · 3m")
        let text = lines.joined(separator: "\n")
        for fragment in ["␛[2J␛[H", "␛]0;pwned␇title", "␛]8;;http://evil.example␛\\click␛]8;;␛\\", "\u{FFFD}31mC1",
                         "safe␍EVIL", "abc␈␈␈xyz", "invoice_gpj.exe", "paypal", "␡del", "ESC[6n is only"] {
            #expect(text.contains(fragment), "\(fragment)")
        }
        #expect(try #require(render()["m12"]) == [
            "  ␛[31mGlitch␛[0m NIMDA␛]0;pwned␇ @sneaky␛[2J␛[H␍admin · 3m",
            "  CW: ␛[31mspoiler␛[0m",
            "  [text hidden: 15 characters]",
        ])
    }

    @Test func runsOfBlankLinesInTextShowAsOne() {
        #expect(render()["m17"] == [
            "  Alice Liddell @alice · 3m",
            "  First paragraph",
            "",
            "  Second paragraph",
        ])
    }

    @Test func longNamesAndHandlesAreCutButTheAgeIsAlwaysShown() throws {
        for width in 20...100 {
            let header = try #require(render(width: width)["m13"]?.first)
            #expect(TimelineRenderer.displayWidth(ofLine: header) <= width)
            #expect(header.contains(" · 2025-10-18"), "\(header)")
            // Below 10 columns for both, the handle gives its room to the name.
            if width >= 26 { #expect(header.contains("@a"), "\(header)") }
        }
        #expect(render()["m13"]?.first == "  Maximiliana Wolfeschlegelst… @a_very_long_handle_for_a_… · 2025-10-18 · edited")
        #expect(render(width: 40)["m13"]?.first == "  Maximiliana… @a_very_lon… · 2025-10-18")
    }

    @Test(arguments: [1, 20, 21, 33, 40, 57, 80, 132, 200])
    func everyLineFitsTheWidthAndHoldsNoControlCharacter(width: Int) {
        for (id, lines) in render(width: width) {
            for line in lines {
                #expect(TimelineRenderer.displayWidth(ofLine: line) <= max(width, RenderOptions.minimumWidth), "\(id): \(line)")
                #expect(!line.utf8.contains(0x1B), "\(id): \(line)")
                RenderingSamples.expectInert(line)
            }
        }
    }

    @Test(arguments: [20, 40, 80])
    func colourStylesEveryLineOnItsOwn(width: Int) throws {
        let plain = render(width: width)
        for (id, lines) in render(width: width, color: true) {
            let plainLines = try #require(plain[id])
            #expect(lines.count == plainLines.count)
            for (line, plainLine) in zip(lines, plainLines) {
                RenderingSamples.expectInert(line, allowingSGR: true)
                #expect(RenderingSamples.strippingSGR(line) == plainLine)
                #expect(TimelineRenderer.displayWidth(ofLine: line) == DisplayWidth.of(plainLine))
                // Every style set is reset before the next is set, and before the line ends.
                var open = false
                var rest = line.unicodeScalars[...]
                while let escape = rest.firstIndex(of: "\u{1b}") {
                    let sequence = rest[escape...].prefix { $0 != "m" }
                    let isReset = String(String.UnicodeScalarView(sequence)) == "\u{1b}[0"
                    #expect(isReset == open, "\(id): \(line.debugDescription)")
                    open = !isReset
                    rest = rest[sequence.endIndex...].dropFirst()
                }
                #expect(!open, "\(id): \(line.debugDescription)")
            }
        }
        #expect(render(color: true)["m2"]?.first
            == "\u{1b}[1;36m●\u{1b}[0m \u{1b}[1mAlice Liddell\u{1b}[0m \u{1b}[2m@alice · 3m · edited\u{1b}[0m")
    }

    @Test func theTextFormSeparatesEntriesWithOneEmptyLine() {
        let renderer = TimelineRenderer(options: RenderOptions())
        let entries = renderer.render(page, now: now)
        let text = renderer.renderText(page, now: now)
        #expect(text == entries.map { $0.lines.joined(separator: "\n") + "\n" }.joined(separator: "\n"))
        #expect(text.hasSuffix("Second paragraph\n\n  Moon Phase 🌙 @moonphase [bot] · 3m\n  📎 audio file: \"Birdsong\"\n  📎 1 video (no description)\n  ⟲ 2\n"))
        #expect(renderer.renderText(TimelinePage(messages: []), now: now) == "")
    }

    @Test func theWidthOfARenderedLineLeavesOutItsStyles() {
        #expect(TimelineRenderer.displayWidth(ofLine: "\u{1b}[1mabc\u{1b}[0m 日本") == 8)
        #expect(TimelineRenderer.displayWidth(ofLine: "\u{1b}[1;36m●\u{1b}[0m x") == 3)
        #expect(TimelineRenderer.displayWidth(ofLine: "plain") == 5)
    }
}
