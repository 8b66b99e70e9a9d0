import Testing
@testable import TimelineKit

/// The renderer over the project's sample timeline (`Fixtures/sample-timeline.jsonl`): every
/// script, emoji sequence and hostile string in it, at many widths.
@Suite struct SampleTimelineRenderingTests {
    private let sample: (messages: [Message], users: [User])

    init() throws {
        sample = try RenderingSamples.sampleTimeline()
    }

    /// The whole timeline as one page, related messages included, as a full scroll would show it.
    private var wholePage: TimelinePage {
        TimelinePage(messages: sample.messages, users: sample.users)
    }

    @Test func theSampleLoads() {
        #expect(sample.messages.count == 337)
        #expect(sample.users.count == 37)
    }

    @Test(arguments: [20, 27, 40, 57, 80, 111, 200])
    func everyLineFitsAndIsInert(width: Int) throws {
        for color in [false, true] {
            let entries = TimelineRenderer(options: RenderOptions(width: width, color: color)).render(wholePage, now: RenderingSamples.now)
            #expect(entries.map(\.messageID) == sample.messages.map(\.id))
            for entry in entries {
                #expect(!entry.lines.isEmpty)
                for line in entry.lines {
                    #expect(TimelineRenderer.displayWidth(ofLine: line) <= width, "\(entry.messageID): \(line)")
                    RenderingSamples.expectInert(line, allowingSGR: color)
                    if !color { #expect(!line.utf8.contains(0x1B), "\(entry.messageID): \(line)") }
                }
            }
        }
    }

    @Test func theNewestPageRendersLikeTheCommandLineShowsIt() throws {
        // `timeline show`: the 40 newest messages, with what they repost among the related.
        let newest = Array(sample.messages.prefix(40))
        let page = TimelinePage(messages: newest, related: Array(sample.messages.dropFirst(40)), users: sample.users)
        let text = TimelineRenderer(options: RenderOptions(width: 80)).renderText(page, now: RenderingSamples.now)
        #expect(text.hasPrefix("  Mika Lindqvist @mika · 1m\n  Okay, closing the laptop."))
        #expect(!text.contains("(original not available)"))
        #expect(!text.contains("(unknown user)"))
    }

    @Test func hostileMessagesAreShownAsText() throws {
        let entries = TimelineRenderer(options: RenderOptions(width: 80)).render(wholePage, now: RenderingSamples.now)
        let byID = Dictionary(uniqueKeysWithValues: entries.map { ($0.messageID, $0.lines.joined(separator: "\n")) })
        let expected: [(String, String)] = [
            ("117626129549752332", "  ␛[31mGlitch␛[0m NIMDA␛]0;pwned␇ @glitch · 5d\n  ↩ reply to @mika"),
            ("117626129549752332", "␛[31mRED ALERT␛[0m ␛[5mblinking␛[0m ␛[1;33;41mfancy␛[0m"),
            ("117632534246260909", "␛[2J␛[Hlol did I just clear your screen? 👻"),
            ("117637724160001933", "CW: ␛[31mspoiler␛[0m\n  [text hidden: 35 characters]"),
            ("117642756562214987", "␛]8;;http://evil.example/steal?c=1␛\\https://stickers.example.com␛]8;;␛\\"),
            ("117643938414345984", "Sneaky Pete the Second @sneaky␛[2J␛[H␍admin"),
            ("117643938414345984", "\u{FFFD}31mC1 CSI red?\u{FFFD}0m and also: safe␍EVIL"),
            ("117650388249088045", "abc␈␈␈xyz   columns go  weird\n\n  (hid some lines up there)"),
            ("117655184622283765", "invoice_gpj.exe — also visit paypal.example"),
            ("117659076234516384", "🎉␛[?25l␛[8m(cursor hidden, text invisible)␛[0m␇␇␇"),
            ("117630689490676034", "ESC[6n"),
        ]
        for (id, fragment) in expected {
            let text = try #require(byID[id])
            #expect(text.contains(fragment), "\(id): \(text)")
        }
    }
}
