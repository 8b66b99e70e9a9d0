import Foundation
import Testing
@testable import TimelineKit

@Suite struct RenderSymbolsTests {
    private static func symbols(_ variables: [String: String]) -> RenderSymbols {
        RenderSymbols.forLocale { variables[$0] }
    }

    @Test func theLocaleDecidesAsTheCLibraryWould() {
        #expect(Self.symbols(["LANG": "C"]) == .ascii)
        #expect(Self.symbols(["LANG": "POSIX"]) == .ascii)
        #expect(Self.symbols(["LANG": "en_US.ISO-8859-1"]) == .ascii)
        #expect(Self.symbols(["LANG": "en_US.UTF-8"]) == .unicode)
        #expect(Self.symbols(["LANG": "de_DE.utf8@euro"]) == .unicode)
        #expect(Self.symbols(["LANG": "C.UTF-8"]) == .unicode)
        // LC_ALL wins over LC_CTYPE, which wins over LANG; an empty one does not count.
        #expect(Self.symbols(["LC_ALL": "C", "LANG": "en_US.UTF-8"]) == .ascii)
        #expect(Self.symbols(["LC_ALL": "", "LC_CTYPE": "en_US.UTF-8", "LANG": "C"]) == .unicode)
        #expect(Self.symbols([:]) == .unicode)
    }

    @Test func inASCIIEveryDecorationIsASCII() {
        var message = Samples.message(1, text: "plain text", read: false)
        message.replyToID = "m0"
        message.likeCount = 3
        message.repostCount = 2
        message.replyCount = 1
        message.attachments = [Attachment(kind: "image", altText: "a cat")]
        var repost = Samples.message(2, author: Samples.bob)
        repost.text = ""
        repost.repostOfID = "m1"
        let page = TimelinePage(messages: [repost, message], users: [Samples.alice, Samples.bob])
        let options = RenderOptions(width: 60, symbols: .ascii)
        let text = TimelineRenderer.text(of: TimelineRenderer(options: options).render(page, now: Samples.epoch.addingTimeInterval(3600)))
        // Bob's name has an emoji: the author's text stays; everything the renderer adds is ASCII.
        let added = text.replacingOccurrences(of: "Bob 🐝", with: "Bob")
        let allASCII = added.unicodeScalars.allSatisfy { $0.isASCII }
        #expect(allASCII, "\(text)")
        #expect(text.contains("* ") && text.contains(" - ") && text.contains("RT ") && text.contains("fav 3") && text.contains("[media] image: \"a cat\""))
    }
}
