import Foundation
import Testing
@testable import TimelineKit

@Suite struct BrowsePicturesTests {
    private let now = Samples.epoch.addingTimeInterval(3600 * 24)

    private func message(_ n: Int, images: [(url: String?, alt: String?)], video: Bool = false) -> Message {
        var message = Samples.message(n)
        message.attachments = (video ? [Attachment(kind: "video", url: "https://files.example/v.mp4")] : [])
            + images.map { Attachment(kind: "image", url: $0.url, altText: $0.alt) }
        return message
    }

    private func view(_ messages: [Message], related: [Message] = [], columns: Int = 80, rows: Int = 24) -> BrowseView {
        BrowseView(timeline: TimelinePage(messages: messages, related: related, users: [Samples.alice, Samples.bob]),
                   columns: columns, rows: rows, options: RenderOptions(), now: now)
    }

    @Test func pOpensTheEntrysImagesOnlyAndAnyKeyGoesBack() {
        let post = message(1, images: [("https://files.example/a.png", "a cat"), ("https://files.example/b.jpg", nil)], video: true)
        var view = view([post])
        let effects = view.handle(.character("p"))
        let expected = BrowsePictures(items: [.init(url: "https://files.example/a.png", altText: "a cat"),
                                              .init(url: "https://files.example/b.jpg", altText: nil)])
        #expect(effects == [.showPictures(expected)])
        #expect(view.mode == .pictures(expected))
        let screen = view.screen().joined(separator: "\n")
        #expect(screen.contains("1  a cat") && screen.contains("2  no description"))
        #expect(view.handle(.character("x")).isEmpty)
        #expect(view.mode == .list)
        #expect(view.pictureLayout == nil)
    }

    @Test func aPostWithoutPicturesSaysSoOnTheStatusLine() {
        var view = view([message(1, images: [], video: true)])
        #expect(view.handle(.character("p")).isEmpty)
        #expect(view.mode == .list)
        #expect(view.screen().last?.contains("this entry has no pictures") == true)
    }

    @Test func aRepostShowsTheOriginalsPictures() {
        let original = message(50, images: [("https://files.example/o.png", "the original's")])
        var repost = Samples.message(60, text: "")
        repost.repostOfID = original.id
        var view = view([repost], related: [original])
        #expect(view.handle(.character("p")) == [.showPictures(BrowsePictures(items: [.init(url: "https://files.example/o.png", altText: "the original's")]))])
    }

    @Test func digitsOpenThatPictureOThFirstAndTheScreenCloses() {
        let post = message(1, images: [("https://files.example/a.png", nil), ("https://files.example/b.png", nil), (nil, "no address")])
        var view = view([post])
        _ = view.handle(.character("p"))
        #expect(view.handle(.character("2")) == [.open(url: "https://files.example/b.png")])
        #expect(view.mode == .list)
        _ = view.handle(.character("p"))
        #expect(view.handle(.character("o")) == [.open(url: "https://files.example/a.png")])
        _ = view.handle(.character("p"))
        #expect(view.handle(.character("4")).isEmpty)  // there is no fourth
        _ = view.handle(.character("p"))
        #expect(view.handle(.character("3")).isEmpty)
        #expect(view.screen().last?.contains("picture 3 has no web address") == true)
    }

    @Test func atMostFourAreShownAndTheRestCounted() throws {
        let post = message(1, images: (1...6).map { ("https://files.example/\($0).png", "picture \($0)") })
        let pictures = try #require(BrowsePictures(of: post))
        #expect(pictures.items.count == 4 && pictures.notShown == 2)
        let layout = BrowsePictureLayout(pictures, columns: 80, rows: 23)
        #expect(layout.lines[0].contains("and 2 more"))
    }

    @Test func altTextIsNeutralisedAndWrappedUnderItsPicture() {
        let hostile = "evil\u{1b}]0;title\u{7}\u{1b}[2J text " + String(repeating: "long words ", count: 40)
        var pictures = BrowsePictures(items: [.init(url: "https://files.example/a.png", altText: hostile)])
        pictures.drawsPictures = true
        let layout = BrowsePictureLayout(pictures, columns: 60, rows: 23)
        let tile = layout.tiles[0]
        #expect(tile.caption.count == BrowsePictureLayout.captionLines)
        #expect(tile.caption.last?.hasSuffix("…") == true)
        for line in layout.lines {
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(line)")
            #expect(DisplayWidth.of(line) <= 60)
        }
        #expect(layout.lines.joined().contains("evil␛]0;title␇␛[2J"))
    }

    @Test func onePictureTakesTheWindowTwoSideBySideFourInAGrid() throws {
        func layout(_ count: Int) -> BrowsePictureLayout {
            var pictures = BrowsePictures(items: (1...count).map { .init(url: "https://files.example/\($0).png", altText: "alt \($0)") })
            pictures.drawsPictures = true
            return BrowsePictureLayout(pictures, columns: 80, rows: 23)
        }
        let one = try #require(layout(1).tiles[0].picture)
        #expect(one == .init(column: 2, row: 1, columns: 78, rows: 22 - BrowsePictureLayout.captionLines - 1))
        let two = layout(2).tiles.compactMap(\.picture)
        #expect(two.count == 2 && two[0].columns == 38 && two[1].column == 42 && two[0].row == two[1].row)
        let four = layout(4)
        let rects = four.tiles.compactMap(\.picture)
        #expect(rects.count == 4)
        #expect(rects[0].row == rects[1].row && rects[2].row == rects[3].row && rects[2].row > rects[0].row)
        // Pictures and captions stay inside the window, captions under their picture.
        for tile in four.tiles {
            let rect = try #require(tile.picture)
            #expect(rect.column + rect.columns <= 80 && rect.row + rect.rows <= tile.captionRow)
            #expect(tile.captionRow + tile.caption.count <= 23)
        }
        #expect(four.lines.count == 23)
        #expect(four.lines.contains { $0.contains("alt 1") && $0.contains("alt 2") })
    }

    @Test func aWindowTooSmallForPicturesShowsTheCaptionsAlone() {
        var pictures = BrowsePictures(items: [.init(url: "https://files.example/1.png", altText: "alt")])
        pictures.drawsPictures = true
        let layout = BrowsePictureLayout(pictures, columns: 40, rows: 5)
        #expect(layout.tiles[0].picture == nil)
        #expect(layout.lines.contains { $0.contains("1  alt") })
    }

    @Test func withoutGraphicsTheScreenListsEachAltTextWithItsNumberAndTheReasons() {
        var pictures = BrowsePictures(items: [.init(url: "https://files.example/1.png", altText: "a heron"),
                                              .init(url: "https://files.example/2.png", altText: "")])
        pictures.items[1].problem = "not fetched: offline"
        let layout = BrowsePictureLayout(pictures, columns: 80, rows: 23)
        #expect(layout.tiles.allSatisfy { $0.picture == nil })
        let text = layout.lines.joined(separator: "\n")
        #expect(text.contains("1  a heron") && text.contains("2  no description") && text.contains("not fetched: offline"))
        #expect(text.contains("o the first"))
    }

    @Test func theHelpScreenNamesP() {
        #expect(BrowseKeyAction.keyTable.contains { $0.keys == "p" })
    }
}
