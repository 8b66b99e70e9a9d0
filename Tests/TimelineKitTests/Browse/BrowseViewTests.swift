import Foundation
import Testing
@testable import TimelineKit

@Suite struct BrowseViewTests {
    private let now = Samples.epoch.addingTimeInterval(3600 * 24)

    /// `count` messages, newest first; every third one long enough to wrap onto several lines.
    private func timeline(_ count: Int, url: Bool = true, nextCursor: Bool = false) -> TimelinePage {
        var messages: [Message] = (1...max(count, 1)).reversed().map { n in
            let text = n % 3 == 0 ? String(repeating: "long words for message \(n) ", count: 6) : "message number \(n)"
            var message = Samples.message(n, text: text)
            if url { message.url = "https://example.social/@alice/\(n)" }
            return message
        }
        if count == 0 { messages = [] }
        return TimelinePage(messages: messages, users: [Samples.alice, Samples.bob],
                            nextCursor: nextCursor ? messages.last?.cursor : nil)
    }

    private func view(_ page: TimelinePage, columns: Int = 60, rows: Int = 12) -> BrowseView {
        BrowseView(timeline: page, columns: columns, rows: rows, options: RenderOptions(), now: now)
    }

    /// The ID of the message whose entry holds the selection bar, read from the screen.
    private func selectedOnScreen(_ view: BrowseView) -> Int? {
        let screen = view.screen()
        let marked = screen.indices.filter { screen[$0].hasPrefix("▌ ") }
        // The bar is on every line of the selected entry, and on no other.
        guard let first = marked.first, marked == Array(first..<(first + marked.count)) else { return nil }
        return marked.count
    }

    private func press(_ view: inout BrowseView, _ keys: BrowseKey...) -> [BrowseEffect] {
        keys.flatMap { view.handle($0) }
    }

    private func checkShape(_ view: BrowseView, sourceLocation: SourceLocation = #_sourceLocation) {
        let screen = view.screen()
        #expect(screen.count == view.rows, sourceLocation: sourceLocation)
        for line in screen { #expect(TimelineRenderer.displayWidth(ofLine: line) <= view.columns, "\(line)", sourceLocation: sourceLocation) }
        // The selected entry is wholly on the screen (or fills it).
        let entryLines = view.current.selectedMessage.map { _ in selectedOnScreen(view) }
        if view.current.selectedMessage != nil { #expect(entryLines != nil, sourceLocation: sourceLocation) }
    }

    /// Three messages under a repost (m60, by alice) of bob's m50, which the page holds as related.
    private func repostOverTimeline() -> (page: TimelinePage, original: Message) {
        var page = timeline(3)
        let original = Samples.message(50, author: Samples.bob, text: "the original")
        var repost = Samples.message(60, text: "")
        repost.repostOfID = original.id
        page.messages.insert(repost, at: 0)
        page.related = [original]
        return (page, original)
    }

    @Test func theFirstScreenSelectsTheNewestAndEndsWithTheStatusLine() {
        let view = view(timeline(20))
        let screen = view.screen()
        #expect(screen.count == 12)
        #expect(screen[0].hasPrefix("▌ ● Alice Example @alice"))
        #expect(screen[1].contains("message number 20"))
        #expect(screen[11].contains("timeline · 1/20 · ? keys · q quit"))
        checkShape(view)
    }

    /// Issue 34: a content warning folds its text in browse as in show, and `z` unfolds the
    /// selected entry's (again: folds it); an entry without one says so.
    @Test func zUnfoldsTheSelectedEntrysContentWarningAndFoldsItAgain() {
        var page = timeline(3)
        page.messages[0].contentWarning = "film spoilers"
        page.messages[0].text = "the butler did it"
        var view = view(page)
        #expect(view.screen().contains { $0.contains("[text hidden") })
        #expect(!view.screen().contains { $0.contains("the butler did it") })
        _ = press(&view, .character("z"))
        #expect(view.screen().contains { $0.contains("the butler did it") })
        #expect(view.note == "unfolded (z: fold)")
        _ = press(&view, .character("z"))
        #expect(!view.screen().contains { $0.contains("the butler did it") })
        _ = press(&view, .character("j"), .character("z"))
        #expect(view.note == "this entry has no folded content warning")
        #expect(BrowseKeyAction.keyTable.contains { $0.keys == "z" })
        checkShape(view)
    }

    @Test func jAndKAndTheArrowsMoveOneEntryWithinTheBounds() {
        var view = view(timeline(5))
        #expect(press(&view, .character("k")).isEmpty)
        #expect(view.current.selected == 0)
        _ = press(&view, .character("j"), .down)
        #expect(view.current.selected == 2)
        _ = press(&view, .up)
        #expect(view.current.selected == 1)
        _ = press(&view, .character("j"), .character("j"), .character("j"), .character("j"), .enter)
        #expect(view.current.selected == 4)
        #expect(view.current.selectedMessage?.id == "m1")
        checkShape(view)
    }

    @Test func movingDownScrollsSoTheSelectionStaysWhollyOnTheScreen() {
        var view = view(timeline(30), rows: 10)
        for index in 1..<30 {
            _ = press(&view, .character("j"))
            #expect(view.current.selected == index)
            checkShape(view)
        }
        #expect(view.current.top > 0)
        for index in (0..<29).reversed() {
            _ = press(&view, .character("k"))
            #expect(view.current.selected == index)
            checkShape(view)
        }
        #expect(view.current.top == 0)
    }

    @Test func pageDownStartsTheNextScreenAfterTheLastWholeEntryAndStopsAtTheEnd() {
        var view = view(timeline(30), rows: 10)
        // The first screen shows whole entries 0...last, and part of the next one.
        let wholeOnFirst = view.screen().filter { $0.contains("message number") || $0.contains("long words") }.count
        _ = press(&view, .character(" "))
        let top = view.current.top
        #expect(top > 0 && top <= wholeOnFirst && view.current.selected == top)
        _ = press(&view, .pageDown, .control("f"))
        #expect(view.current.top > top)
        for _ in 0..<40 { _ = press(&view, .pageDown) }
        #expect(view.current.selected == 29)
        checkShape(view)
        _ = press(&view, .pageUp)
        #expect(view.current.selected < 29)
        for _ in 0..<40 { _ = press(&view, .control("b")) }
        #expect(view.current.selected == 0 && view.current.top == 0)
        checkShape(view)
    }

    @Test func gAndGGoToTheFirstAndLastEntry() {
        var view = view(timeline(25), rows: 10)
        _ = press(&view, .character("G"))
        #expect(view.current.selected == 24)
        checkShape(view)
        // The last entry sits at the bottom: the screen is filled above it.
        #expect(view.current.top > 0)
        #expect(!view.screen()[0].hasPrefix("▌"))
        _ = press(&view, .character("g"))
        #expect(view.current.selected == 0 && view.current.top == 0)
        _ = press(&view, .end)
        #expect(view.current.selected == 24)
        _ = press(&view, .home)
        #expect(view.current.selected == 0)
    }

    @Test func searchFindsWhatIsLoadedAndNGoesOnGoingRoundAtTheEnd() {
        var view = view(timeline(12))
        _ = press(&view, .character("/"))
        #expect(view.mode == .typingSearch(""))
        _ = press(&view, .character("l"), .character("o"), .character("n"), .character("x"), .backspace, .character("g"))
        #expect(view.screen().last == "/long")
        #expect(press(&view, .enter).isEmpty)
        #expect(view.current.selectedMessage?.id == "m12")  // the selected one matches: it stays
        _ = press(&view, .character("n"))
        #expect(view.current.selectedMessage?.id == "m9")
        _ = press(&view, .character("n"), .character("n"))
        #expect(view.current.selectedMessage?.id == "m3")
        _ = press(&view, .character("n"))
        #expect(view.current.selectedMessage?.id == "m12")
        #expect(view.note?.contains("went round") == true)
        _ = press(&view, .character("N"))
        #expect(view.current.selectedMessage?.id == "m3")
        checkShape(view)
    }

    @Test func aSearchNothingLoadedMatchesAsksTheStoreAndItsResultsOpenOverTheTimeline() throws {
        var view = view(timeline(5))
        let effects = press(&view, .character("/"), .character("z"), .character("e"), .character("d"), .enter)
        #expect(effects == [.searchStore(try SearchQuery("zed"))])
        var found = Samples.message(99, text: "zed was here")
        found.url = nil
        let results = SearchResults(query: try SearchQuery("zed"), page: TimelinePage(messages: [found], users: [Samples.alice]))
        view.showSearch(results)
        #expect(view.listings.count == 2)
        #expect(view.screen().last?.contains("search zed · 1/1") == true)
        #expect(view.screen()[1].contains("zed was here"))
        // An entry without an address says so.
        #expect(press(&view, .character("o")).isEmpty)
        #expect(view.note == "this entry has no web address")
        #expect(press(&view, .character("q")).isEmpty)
        #expect(view.listings.count == 1)
        // No stored match: a note, nothing opened.
        view.showSearch(SearchResults(query: try SearchQuery("nothing"), page: TimelinePage(messages: [])))
        #expect(view.listings.count == 1 && view.note?.contains("no stored message matches nothing") == true)
    }

    /// Issue 37, rough edge 5: `q` after a search of what is loaded quit the view, while `?` said
    /// it goes back. It ends the search, the selection back where the reading was; then it quits.
    @Test func qAfterASearchEndsItWhereTheReadingWasThenQuits() {
        var view = view(timeline(12))
        _ = press(&view, .character("j"), .character("j"))
        #expect(view.current.selectedMessage?.id == "m10")
        _ = press(&view, .character("/"), .character("l"), .character("o"), .character("n"), .character("g"), .enter)
        #expect(view.current.selectedMessage?.id == "m9")
        #expect(view.screen().last?.contains("n: next match") == true)
        _ = press(&view, .character("n"), .character("j"))
        #expect(view.current.selectedMessage?.id == "m5")
        #expect(view.screen().last?.contains("q ends the search") == true)
        #expect(press(&view, .character("q")).isEmpty)
        #expect(view.search == nil && view.current.selectedMessage?.id == "m10")
        #expect(view.note == "search ended: q quits")
        #expect(press(&view, .character("n")).isEmpty && view.note == "no search yet: / searches")
        #expect(press(&view, .character("q")) == [.quit])
    }

    @Test func goingBackFromTheStoresResultsEndsTheSearchSoTheNextQQuits() throws {
        var view = view(timeline(5))
        _ = press(&view, .character("/"), .character("z"), .character("e"), .character("d"), .enter)
        view.showSearch(SearchResults(query: try SearchQuery("zed"),
                                      page: TimelinePage(messages: [Samples.message(99, text: "zed was here")], users: [Samples.alice])))
        #expect(press(&view, .escape).isEmpty && view.listings.count == 1 && view.search == nil)
        #expect(view.current.selectedMessage?.id == "m5")  // where the timeline was
        #expect(press(&view, .character("q")) == [.quit])
    }

    @Test func nOnTheOnlyMatchSaysItIsTheOnlyOne() {
        var view = view(timeline(3))  // m3 alone is long
        _ = press(&view, .character("/"), .character("l"), .character("o"), .character("n"), .character("g"), .enter)
        #expect(view.current.selectedMessage?.id == "m3")
        _ = press(&view, .character("n"))
        #expect(view.current.selectedMessage?.id == "m3")
        #expect(view.note == "the only match of long here")
    }

    @Test func sBookmarksTheEntryThroughTheOriginalAndAgainTakesItBack() {
        let (page, _) = repostOverTimeline()
        var view = view(page, columns: 70, rows: 20)
        #expect(press(&view, .character("s")) == [.act(.bookmark, messageID: "m50")])
        #expect(view.note == "bookmarking…")
        view.applied(MessageActionOutcome(action: .bookmark, messageID: "m50",
                                          interaction: MessageInteraction(messageID: "m50", bookmarked: true)), message: nil)
        #expect(press(&view, .character("s")) == [.act(.unbookmark, messageID: "m50")])
    }

    @Test func aSearchThatDoesNotParseSaysWhy() {
        var view = view(timeline(3))
        #expect(press(&view, .character("/"), .character("\""), .character("a"), .enter).isEmpty)
        #expect(view.note?.hasPrefix("search: ") == true)
        #expect(press(&view, .character("/"), .escape).isEmpty && view.mode == .list)
    }

    @Test func tAsksForTheThreadOfTheOriginalAndShowsItIndentedAtTheFocus() {
        let (page, original) = repostOverTimeline()
        var view = view(page)
        #expect(press(&view, .character("t")) == [.thread(messageID: "m50")])
        var reply = Samples.message(51, text: "a reply to it")
        reply.replyToID = original.id
        let thread = TimelineThread(entries: [.init(message: original, depth: 0), .init(message: reply, depth: 1)],
                                    focusID: original.id, missingParentID: nil, isCut: false,
                                    page: TimelinePage(messages: [], users: [Samples.alice, Samples.bob]))
        view.showThread(thread, named: "bvm")
        #expect(view.current.selected == 0)
        let screen = view.screen()
        #expect(screen.last?.contains("thread of bvm · 1/2") == true)
        #expect(screen.contains { $0.hasPrefix("      a reply to it") })  // gutter, one step, the text's indent
        _ = press(&view, .escape)
        #expect(view.current.kind == .timeline(unreadOnly: false))
    }

    @Test func mMarksTheEntryAndWhatItRepostsReadThenUnread() {
        var view = view(timeline(3))
        #expect(view.screen()[0].hasPrefix("▌ ●"))
        #expect(press(&view, .character("m")) == [.setRead(ids: ["m3"], read: true)])
        #expect(!view.screen()[0].contains("●"))
        #expect(view.note == "marked read")
        #expect(press(&view, .character("m")) == [.setRead(ids: ["m3"], read: false)])
        #expect(view.screen()[0].hasPrefix("▌ ●"))
    }

    @Test func uAsksForUnreadOnlyAndTheAnswerReplacesTheTimeline() {
        var view = view(timeline(6))
        _ = press(&view, .character("j"))
        #expect(press(&view, .character("u")) == [.reload(unreadOnly: true)])
        let unread = TimelinePage(messages: timeline(6).messages.filter { $0.id != "m6" }, users: [Samples.alice])
        view.replaceTimeline(unread, unreadOnly: true)
        #expect(view.isUnreadOnly)
        #expect(view.current.selectedMessage?.id == "m5")  // the selection stays on its message
        #expect(view.screen().last?.contains("unread only · 1/5") == true)
        #expect(press(&view, .character("u")) == [.reload(unreadOnly: false)])
        view.replaceTimeline(TimelinePage(messages: []), unreadOnly: true)
        #expect(view.screen().contains { $0.contains("Nothing unread.") })
    }

    @Test func oAsksToOpenThePostsAddress() {
        var view = view(timeline(3))
        #expect(press(&view, .character("o")) == [.open(url: "https://example.social/@alice/3")])
    }

    @Test func questionMarkListsEveryKeyAndAnyKeyGoesBack() {
        var view = view(timeline(3), columns: 70, rows: 30)
        _ = press(&view, .character("?"))
        let screen = view.screen().joined(separator: "\n")
        for line in BrowseKeyAction.keyTable {
            #expect(screen.contains(line.keys) && screen.contains(line.meaning), "\(line)")
        }
        #expect(screen.contains("favourite (like) at its server") && screen.contains("reply, written in your $EDITOR"))
        #expect(press(&view, .character("q")).isEmpty)  // closes the help, does not quit
        #expect(view.mode == .list)
    }

    @Test func inAWindowOf80By24TheHelpListsEveryKey() {
        var view = view(timeline(3), columns: 80, rows: 24)
        _ = press(&view, .character("?"))
        let screen = view.screen().joined(separator: "\n")
        for line in BrowseKeyAction.keyTable {
            #expect(screen.contains(line.keys) && screen.contains(line.meaning), "\(line)")
        }
        checkShape(view)
    }

    @Test func qQuitsFromTheTimelineAndUnboundKeysSayNothingHappened() {
        var view = view(timeline(3))
        #expect(press(&view, .character("x")).isEmpty)
        #expect(view.note == "x does nothing here: ? lists the keys")
        #expect(press(&view, .character("z"), .character("Z")).isEmpty)
        #expect(press(&view, .character("q")) == [.quit])
    }

    @Test func fAndBToggleAtTheServerThroughTheOriginalAndTheAnswerMarksTheEntry() {
        let (page, original) = repostOverTimeline()
        var view = view(page, columns: 70, rows: 20)
        // Not favourited yet: f favourites the original a repost shows; the line says so meanwhile.
        #expect(press(&view, .character("f")) == [.act(.favourite, messageID: "m50")])
        #expect(view.note == "favouriting…")
        var counted = original
        counted.likeCount = 8
        view.applied(MessageActionOutcome(action: .favourite, messageID: "m50",
                                          interaction: MessageInteraction(messageID: "m50", favourited: true)), message: counted)
        #expect(view.note == "favourited")
        let painted = view.screen().joined(separator: "\n")
        #expect(painted.contains("♥ 8") && painted.contains("♥ favourited"), "\(painted)")
        // Again: the undo.
        #expect(press(&view, .character("f")) == [.act(.unfavourite, messageID: "m50")])
        #expect(press(&view, .character("b")) == [.act(.boost, messageID: "m50")])
        view.applied(MessageActionOutcome(action: .boost, messageID: "m50",
                                          interaction: MessageInteraction(messageID: "m50", favourited: true, boosted: true)), message: nil)
        #expect(view.screen().joined().contains("⟲ boosted"))
        #expect(press(&view, .character("b")) == [.act(.unboost, messageID: "m50")])
        view.applied(MessageActionOutcome(action: .unboost, messageID: "m50", interaction: MessageInteraction(messageID: "m50", pending: true),
                                          delivery: .waiting(reason: "the server could not be reached")), message: nil)
        #expect(view.note == "not sent yet, kept for the next sync (the server could not be reached)")
        view.applied(MessageActionOutcome(action: .unboost, messageID: "m50", interaction: MessageInteraction(messageID: "m50")), message: nil)
        #expect(!view.screen().joined().contains("favourited") && !view.screen().joined().contains("boosted"))
        // r asks for a reply to the original.
        #expect(press(&view, .character("r")) == [.reply(to: "m50")])
        _ = press(&view, .character("j"))
        #expect(press(&view, .character("r")) == [.reply(to: "m3")])
    }

    @Test func capitalMBAndRAskFirstAboutTheOriginalsAuthorAndOnlyYesActs() {
        let (page, _) = repostOverTimeline()
        var view = view(page, columns: 120, rows: 20)
        // M asks about the boosted post's author, on the status line; n sends nothing.
        #expect(press(&view, .character("M")).isEmpty)
        #expect(view.screen().last?.contains("mute @\(Samples.bob.handle)? Their posts leave your timeline. y/n") == true, "\(view.screen())")
        #expect(press(&view, .character("n")).isEmpty)
        #expect(view.mode == .list && view.note == "not muted: nothing was sent")
        // Any key but y is a no, even one that does something in the list.
        #expect(press(&view, .character("B"), .character("j")).isEmpty)
        #expect(view.note == "not blocked: nothing was sent" && view.current.selected == 0)
        #expect(press(&view, .character("M"), .character("y")) == [.moderate(.mute, messageID: "m50")])
        #expect(view.note == "muting @\(Samples.bob.handle)…")
        #expect(press(&view, .character("B"), .character("Y")) == [.moderate(.block, messageID: "m50")])
        // R: the reason is the answer; y takes `other`, as `timeline report` does.
        #expect(press(&view, .character("R")).isEmpty)
        #expect(view.screen().last?.contains("s spam · v violation · y other · n no") == true)
        #expect(press(&view, .character("s")) == [.moderate(.report(.spam), messageID: "m50")])
        #expect(press(&view, .character("R"), .character("v")) == [.moderate(.report(.violation), messageID: "m50")])
        #expect(press(&view, .character("R"), .character("y")) == [.moderate(.report(.other), messageID: "m50")])
        #expect(press(&view, .character("R"), .escape).isEmpty)
        #expect(view.note == "not reported: nothing was sent")
    }

    @Test func afterAMuteTheTimelineReadAgainReplacesAThreadOverItAndTheSelectionMovesOn() {
        var view = view(timeline(5), columns: 70, rows: 30)
        _ = press(&view, .character("j"))
        #expect(view.current.selectedMessage?.id == "m4")
        view.showThread(TimelineThread(entries: [.init(message: Samples.message(4), depth: 0)], focusID: "m4", missingParentID: nil,
                                       isCut: false, page: TimelinePage(messages: [], users: [Samples.alice])), named: "m4")
        #expect(view.listings.count == 2)
        var without = timeline(5)
        without.messages.removeAll { $0.id == "m4" }
        view.replaceAfterHiding(without)
        #expect(view.listings.count == 1)
        #expect(view.current.page.messages.map(\.id) == ["m5", "m3", "m2", "m1"])
        #expect(view.current.selectedMessage?.id == "m3")
        #expect(!view.screen().joined().contains("message number 4"))
    }

    @Test func aResizeLaysTheEntriesOutAgainAndKeepsTheSelectionOnTheScreen() {
        var view = view(timeline(30), columns: 80, rows: 20)
        _ = press(&view, .character("G"))
        let wide = view.screen()
        view.resize(columns: 30, rows: 8)
        #expect(view.current.selected == 29)
        checkShape(view)
        #expect(view.screen() != wide)
        view.resize(columns: 100, rows: 40)
        checkShape(view)
        // A window smaller than the renderer's narrowest: still the right number of rows.
        view.resize(columns: 10, rows: 2)
        #expect(view.screen().count == 2)
    }

    @Test func anEmptyTimelineSaysWhatToDoAndNoKeyAsksForAnything() {
        var view = view(timeline(0))
        #expect(view.screen().contains { $0.contains("No messages yet: `timeline sync` fetches your timeline.") })
        for key: BrowseKey in [.character("j"), .character("k"), .character(" "), .pageUp, .character("g"), .character("G"),
                               .character("t"), .character("m"), .character("o"), .character("n")] {
            #expect(press(&view, key).isEmpty, "\(key)")
        }
        #expect(view.screen().last?.contains("timeline · 0") == true)
        checkShape(view)
    }

    @Test func nearTheEndOlderMessagesAreAskedForOnceAndAddedBelow() {
        var view = view(timeline(10, nextCursor: true), rows: 10)
        var effects: [BrowseEffect] = []
        for _ in 0..<9 { effects += press(&view, .character("j")) }
        #expect(effects.count == 1)
        guard case let .loadOlder(cursor, unreadOnly: false) = effects.first else {
            Issue.record("no loadOlder: \(effects)")
            return
        }
        #expect(cursor.id == "m1")
        #expect(view.screen().last?.contains("/10+") == true)
        let older = TimelinePage(messages: [Samples.message(0, text: "the oldest")], users: [Samples.alice])
        view.appendOlder(older)
        _ = press(&view, .character("j"))
        #expect(view.current.selectedMessage?.id == "m0")
        #expect(view.screen().last?.contains("11/11 ") == true)
    }

    @Test func anUpdateKeepsTheSelectionOnItsMessageAndTheOlderOnesLoaded() {
        var view = view(timeline(10, nextCursor: true), rows: 10)
        for _ in 0..<3 { _ = press(&view, .character("j")) }
        view.appendOlder(TimelinePage(messages: [Samples.message(0, text: "older")], users: [Samples.alice]))
        let selected = view.current.selectedMessage?.id
        // A sync: two new messages on top, the window of ten moves down by two.
        var window = timeline(12, nextCursor: true)
        window.messages.removeLast(2)
        window.nextCursor = window.messages.last?.cursor
        window.messages[3].text = "EDITED"
        view.updateTimeline(window: window)
        #expect(view.current.selectedMessage?.id == selected)
        #expect(view.current.selected == 5)
        // m2, m1 left the window but were loaded: still there, with the older page after them.
        #expect(view.current.page.messages.map(\.id).suffix(3) == ["m2", "m1", "m0"])
        #expect(view.screen().joined().contains("EDITED") || view.current.page.messages[3].text == "EDITED")
        checkShape(view)
    }
}

extension BrowseViewTests {
    @Test func atTheTopANewMessageComesIntoSightAndTheSelectionStaysOnItsMessage() {
        var view = BrowseView(timeline: TimelinePage(messages: (1...5).reversed().map { Samples.message($0) }, users: [Samples.alice]),
                              columns: 60, rows: 12, options: RenderOptions(), now: Samples.epoch)
        _ = view.handle(.character("j"))
        view.updateTimeline(window: TimelinePage(messages: (1...6).reversed().map { Samples.message($0) }, users: [Samples.alice]))
        #expect(view.current.top == 0)
        #expect(view.screen()[1].contains("message number 6"))
        #expect(view.current.selectedMessage?.id == "m4")
    }
}

extension BrowseViewTests {
    @Test func aPaintRendersWhatComesIntoSightNotTheWholeTimeline() {
        let page = TimelinePage(messages: (1...200).reversed().map { Samples.message($0) }, users: [Samples.alice])
        var view = BrowseView(timeline: page, columns: 80, rows: 12, options: RenderOptions(), now: Samples.epoch)
        // A screen of 11 rows shows four short entries; one chunk of eight is rendered.
        #expect(view.renderedEntryCount == BrowseView.renderingChunk)
        _ = view.handle(.character("G"))
        #expect(view.renderedEntryCount == 2 * BrowseView.renderingChunk)
        #expect(view.screen()[view.screen().count - 2] == "▌   message number 1", "\(view.screen())")
        // A resize lays out again only what is then on the screen.
        view.resize(columns: 60, rows: 12)
        #expect(view.renderedEntryCount == BrowseView.renderingChunk)
    }
}
