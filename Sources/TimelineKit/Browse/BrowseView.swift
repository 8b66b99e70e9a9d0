#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The interactive view of `timeline browse` as a value: what is listed, what is selected,
/// what the screen shows for a window of `columns` × `rows`, and what each key does. It does
/// no input or output: the program running it feeds it keys (`handle(_:)`), performs the
/// `BrowseEffect`s it answers with and hands back what they found, and writes `screen()`.
/// So every key, every scroll bound and every relayout is tested without a terminal.
///
/// The screen is the list of entries, rendered as `timeline show` renders them with a two-column
/// gutter on the left (`▌` beside the selected entry), and one status line at the bottom: where
/// the view is (timeline, unread only, a thread, a search), the position, and a note after an
/// action or the search being typed. The selected entry is always wholly on the screen (its
/// first rows, when it is taller than the screen). Text from messages goes through the
/// renderer's neutralising, and notes through `TerminalText.line`.
///
/// ```swift
/// var view = BrowseView(timeline: page, columns: 80, rows: 24, options: RenderOptions(), now: Date())
/// for effect in view.handle(.character("j")) { print(effect) }
/// print(view.screen())
/// ```
package struct BrowseView: Sendable {
    /// The lists shown, the timeline first; the last one is on the screen.
    package private(set) var listings: [BrowseListing]
    /// The window's size.
    package private(set) var columns: Int
    package private(set) var rows: Int
    private var options: RenderOptions
    private var now: Date
    /// The current listing's entries (gutter not included), one per message, each rendered when
    /// it first comes into sight: a timeline of hundreds is scrolled through a screen at a time,
    /// and the first paint renders only what it shows, as `show` does.
    private var entries: [RenderedEntry?] = []
    /// How many entries are rendered at once when one is needed.
    static let renderingChunk = 8
    /// How many entries are rendered now (for the tests of what a paint costs).
    var renderedEntryCount: Int { entries.reduce(0) { $0 + ($1 == nil ? 0 : 1) } }

    /// What keys do at the moment.
    package enum Mode: Sendable, Hashable {
        /// Keys move and act on the list.
        case list
        /// The `?` screen: any key goes back to the list.
        case help
        /// A search is being typed after `/`.
        case typingSearch(String)
        /// A question on the status line (`M`, `B`, `R`): the next key answers it.
        case asking(BrowseQuestion)
        /// The selected entry's pictures (`p`): `1`–`4` open one, `o` the first, any other key
        /// goes back to the list.
        case pictures(BrowsePictures)
    }

    package private(set) var mode: Mode = .list
    /// The last search submitted, whose matches `n` and `N` go to.
    package private(set) var search: SearchQuery?
    /// The timeline's selection before the first search that moved it, where `q` goes back to.
    private var selectionBeforeSearch: Int?
    /// A one-line note on the status line, until the next key.
    package private(set) var note: String?
    /// Whether older messages were asked for (`BrowseEffect.loadOlder`) and not yet handed back.
    private var olderRequested = false
    /// The messages whose content warning `z` opened, by ID, until `z` folds them again.
    private var unfolded: Set<String> = []

    /// A view of `timeline` (newest first) for a window of `columns` × `rows`, entries rendered
    /// with `options` (its width is the view's to set) and ages measured from `now`.
    package init(timeline: TimelinePage, unreadOnly: Bool = false, columns: Int, rows: Int, options: RenderOptions, now: Date) {
        listings = [BrowseListing(kind: .timeline(unreadOnly: unreadOnly), page: timeline)]
        self.columns = columns
        self.rows = rows
        self.options = options
        self.now = now
        render()
    }

    /// The listing on the screen.
    package var current: BrowseListing { listings[listings.count - 1] }

    /// Whether the timeline shows unread messages only (`u`).
    package var isUnreadOnly: Bool {
        if case .timeline(unreadOnly: true) = listings[0].kind { return true }
        return false
    }

    /// Rows for entries: all but the status line.
    var bodyRows: Int { max(1, rows - 1) }

    /// The gutter before each line of an entry: a bar beside the selected one.
    private var selectedGutter: String { options.symbols == .ascii ? "> " : "▌ " }
    private static let gutter = "  "
    private static let gutterWidth = 2
    /// The deepest a conversation is indented, as `timeline thread` does.
    static let deepestIndent = 8

    // MARK: Keys

    /// Does what `key` means now and returns what the program must do for it.
    package mutating func handle(_ key: BrowseKey) -> [BrowseEffect] {
        switch mode {
        case .help:
            mode = .list
            return []
        case let .pictures(pictures):
            mode = .list
            note = nil
            return openPicture(of: pictures, key)
        case let .typingSearch(text):
            return typeSearch(text, key)
        case let .asking(question):
            mode = .list
            guard let moderation = question.answer(key) else {
                note = question.declined
                return []
            }
            note = Self.progress(of: moderation, question: question)
            return [.moderate(moderation, messageID: question.messageID)]
        case .list:
            note = nil
            guard let command = BrowseKeyAction(key: key) else {
                if case let .character(character) = key {
                    note = "\(TerminalText.line(String(character))) does nothing here: ? lists the keys"
                }
                return []
            }
            return perform(command)
        }
    }

    /// Does `command` on the current listing.
    package mutating func perform(_ command: BrowseKeyAction) -> [BrowseEffect] {
        let count = current.page.messages.count
        switch command {
        case .down:
            if current.selected + 1 < count { moveSelection(to: current.selected + 1) }
            return olderIfNearTheEnd()
        case .up:
            moveSelection(to: current.selected - 1)
        case .pageDown:
            pageDown()
            return olderIfNearTheEnd()
        case .pageUp:
            pageUp()
        case .top:
            moveSelection(to: 0)
        case .bottom:
            bottom()
            return olderIfNearTheEnd()
        case .search:
            mode = .typingSearch("")
        case .nextMatch, .previousMatch:
            guard let search else {
                note = "no search yet: / searches"
                return []
            }
            return goToMatch(of: search, forward: command == .nextMatch, includingSelected: false)
        case .thread:
            guard let message = current.selectedMessage else { return [] }
            return [.thread(messageID: message.repostOfID ?? message.id)]
        case .toggleRead:
            guard let message = current.selectedMessage else { return [] }
            var ids = [message.id]
            if let original = message.repostOfID { ids.append(original) }
            if let quoted = message.quoteOfID { ids.append(quoted) }
            let read = !message.isRead
            for index in listings.indices { listings[index].setRead(Set(ids), read: read) }
            render()
            note = read ? "marked read" : "marked unread"
            return [.setRead(ids: ids, read: read)]
        case .toggleUnreadOnly:
            let unreadOnly = !isUnreadOnly
            note = unreadOnly ? "unread entries only (u: all)" : "all entries"
            return [.reload(unreadOnly: unreadOnly)]
        case .open:
            guard let message = current.selectedMessage else { return [] }
            guard let url = current.shown(message).url ?? message.url else {
                note = "this entry has no web address"
                return []
            }
            return [.open(url: url)]
        case .pictures:
            guard let message = current.selectedMessage else { return [] }
            guard let pictures = BrowsePictures(of: current.shown(message)) else {
                note = "this entry has no pictures"
                return []
            }
            mode = .pictures(pictures)
            return [.showPictures(pictures)]
        case .favourite, .boost, .bookmark:
            guard let message = current.selectedMessage else { return [] }
            // A repost is acted on through its original, as `favourite` and `boost` do.
            let target = message.repostOfID ?? message.id
            let kind: MessageInteraction.Kind = command == .favourite ? .favourite : command == .boost ? .boost : .bookmark
            let action = MessageAction(kind, on: !(current.page.interaction(of: target)?[kind] ?? false))
            note = Self.progress(of: action)
            return [.act(action, messageID: target)]
        case .reply:
            guard let message = current.selectedMessage else { return [] }
            return [.reply(to: message.repostOfID ?? message.id)]
        case .unfold:
            guard let message = current.selectedMessage else { return [] }
            guard current.shown(message).contentWarning?.isEmpty == false, !options.revealsContentWarnings, current.depths.isEmpty else {
                note = "this entry has no folded content warning"
                return []
            }
            if unfolded.remove(message.id) == nil { unfolded.insert(message.id) }
            render()
            note = unfolded.contains(message.id) ? "unfolded (z: fold)" : "folded"
        case .mute, .block, .report:
            guard let message = current.selectedMessage else { return [] }
            let original = current.shown(message)
            let kind: BrowseQuestion.Kind = command == .mute ? .mute : command == .block ? .block : .report
            let author = current.page.usersByID[original.authorID].map { "@" + $0.handle } ?? "the author"
            let post = original.shortReference.isNone ? original.id : original.shortReference.text
            mode = .asking(BrowseQuestion(kind: kind, messageID: message.repostOfID ?? message.id,
                                          author: TerminalText.line(author), post: TerminalText.line(post)))
        case .help:
            mode = .help
        case .redraw:
            break
        case .back:
            if listings.count == 1 {
                // After a search the timeline's `q` ends it first, as the status line says:
                // back to where the person was reading before it.
                guard search != nil else { return [.quit] }
                endSearch()
                note = "search ended: q quits"
                return []
            }
            // The store's results of a search: back to the timeline as it was (the store's search
            // did not move it), and the search is over.
            if case .search = listings.removeLast().kind {
                search = nil
                selectionBeforeSearch = nil
            }
            render()
        }
        return []
    }

    /// A key on the picture screen: `1`–`4` open that picture in the browser, `o` the first;
    /// the screen is closed whatever the key (the program takes the pictures off).
    private mutating func openPicture(of pictures: BrowsePictures, _ key: BrowseKey) -> [BrowseEffect] {
        let index: Int
        switch key {
        case .character("o") where !pictures.items.isEmpty: index = 0
        case let .character(character):
            guard character.isASCII, let digit = character.wholeNumberValue, digit >= 1, digit <= pictures.items.count else { return [] }
            index = digit - 1
        default: return []
        }
        guard let url = pictures.items[index].url else {
            note = "picture \(index + 1) has no web address"
            return []
        }
        return [.open(url: url)]
    }

    /// The pictures asked for with `showPictures`, fetched and checked: drawn or not, each with
    /// why not (`BrowsePictures.Item.problem`). Ignored when the picture screen was closed meanwhile.
    package mutating func showPictures(_ pictures: BrowsePictures) {
        guard case .pictures = mode else { return }
        mode = .pictures(pictures)
    }

    /// Where the pictures go on the screen now, when the picture screen is open.
    package var pictureLayout: BrowsePictureLayout? {
        guard case let .pictures(pictures) = mode else { return nil }
        return BrowsePictureLayout(pictures, columns: columns, rows: bodyRows)
    }

    /// Forgets the search, the timeline's selection back where it was before it.
    private mutating func endSearch() {
        search = nil
        if let before = selectionBeforeSearch { moveSelection(to: before) }
        selectionBeforeSearch = nil
    }

    private mutating func typeSearch(_ text: String, _ key: BrowseKey) -> [BrowseEffect] {
        switch key {
        case let .character(character):
            mode = .typingSearch(text + String(character))
        case .backspace:
            mode = text.isEmpty ? .list : .typingSearch(String(text.dropLast()))
        case .control("u"):
            mode = .typingSearch("")
        case .escape, .control("c"), .control("g"):
            mode = .list
        case .enter:
            mode = .list
            if text.allSatisfy(\.isWhitespace) { return [] }
            do throws(SearchQueryError) {
                let query = try SearchQuery(text)
                search = query
                if listings.count == 1, selectionBeforeSearch == nil { selectionBeforeSearch = current.selected }
                render()
                return goToMatch(of: query, forward: true, includingSelected: true)
            } catch {
                note = "search: \(TerminalText.line(error.description))"
            }
        default:
            break
        }
        return []
    }

    // MARK: Moving

    private mutating func moveSelection(to index: Int) {
        listings[listings.count - 1].selected = max(0, min(index, current.page.messages.count - 1))
        keepSelectionVisible()
    }

    /// Rows that the entries `first...last` take on the screen, with the empty lines between.
    private mutating func rowsUsed(from first: Int, through last: Int) -> Int {
        guard first <= last else { return 0 }
        return (first...last).reduce(0) { $0 + entry(at: $1).lines.count } + (last - first)
    }

    /// Moves the top so that the selected entry is wholly on the screen (its top, when it is
    /// taller than the screen).
    private mutating func keepSelectionVisible() {
        var listing = current
        let count = entries.count
        listing.selected = count == 0 ? 0 : max(0, min(listing.selected, count - 1))
        listing.top = max(0, min(listing.top, listing.selected))
        while listing.top < listing.selected && rowsUsed(from: listing.top, through: listing.selected) > bodyRows {
            listing.top += 1
        }
        listings[listings.count - 1] = listing
        // What the screen shows is rendered, for `screen()`.
        var index = listing.top, used = 0
        while index < count && used < bodyRows {
            used += entry(at: index).lines.count + 1
            index += 1
        }
    }

    /// The last entry from `top` that is wholly on the screen (at least `top`).
    private mutating func lastWhole(from top: Int) -> Int {
        var last = top
        while last + 1 < entries.count && rowsUsed(from: top, through: last + 1) <= bodyRows { last += 1 }
        return last
    }

    /// The first entry of the screen whose last entry is `last`, filled as far up as it goes.
    private mutating func firstWhole(endingAt last: Int) -> Int {
        var first = last
        while first > 0 && rowsUsed(from: first - 1, through: last) <= bodyRows { first -= 1 }
        return first
    }

    /// As less does: the entry after the last whole one on the screen becomes the top. At the
    /// end, the last entry is selected.
    private mutating func pageDown() {
        guard !entries.isEmpty else { return }
        let last = lastWhole(from: current.top)
        if last == entries.count - 1 {
            moveSelection(to: last)
            return
        }
        let top = max(last + 1, current.top + 1)
        listings[listings.count - 1].top = top
        listings[listings.count - 1].selected = top
        keepSelectionVisible()
    }

    /// The screen before: the entries above the top, as many as fit; the selection at its top.
    private mutating func pageUp() {
        guard current.top > 0 else {
            moveSelection(to: 0)
            return
        }
        let top = firstWhole(endingAt: current.top - 1)
        listings[listings.count - 1].top = top
        listings[listings.count - 1].selected = top
        keepSelectionVisible()
    }

    private mutating func bottom() {
        guard !entries.isEmpty else { return }
        listings[listings.count - 1].selected = entries.count - 1
        listings[listings.count - 1].top = firstWhole(endingAt: entries.count - 1)
        keepSelectionVisible()
    }

    /// Near the end of what is loaded of the timeline (within a screen's worth of entries),
    /// asks for the next page, once.
    private mutating func olderIfNearTheEnd() -> [BrowseEffect] {
        guard listings.count == 1, !olderRequested, let cursor = current.page.nextCursor,
              current.selected + bodyRows / 2 >= current.page.messages.count - 1 else { return [] }
        olderRequested = true
        return [.loadOlder(after: cursor, unreadOnly: isUnreadOnly)]
    }

    // MARK: Search

    /// Whether a message of the current listing holds what `query` looks for (in the text it
    /// shows, or its content warning).
    private func matches(_ query: SearchQuery, at index: Int) -> Bool {
        let message = current.shown(current.page.messages[index])
        for text in [message.text, message.contentWarning ?? ""] where !text.isEmpty {
            if !query.matchRanges(in: text).isEmpty && query.passesCheck(text) { return true }
        }
        return false
    }

    /// Selects the next (or previous) match in the listing, going round at its end. With none,
    /// the timeline asks the store (`searchStore`); a thread or search result says so.
    private mutating func goToMatch(of query: SearchQuery, forward: Bool, includingSelected: Bool) -> [BrowseEffect] {
        let count = current.page.messages.count
        let start = current.selected
        for step in (includingSelected ? 0 : 1)...max(count, 1) where count > 0 {
            let index = ((forward ? start + step : start - step) % count + count) % count
            if matches(query, at: index) {
                let wrapped = forward ? index < start : index > start
                moveSelection(to: index)
                if index == start && !includingSelected {
                    note = "the only match of \(TerminalText.line(query.text)) here"
                } else {
                    note = wrapped ? "search went round: n for the next match" : "n: next match, N: previous"
                }
                return []
            }
        }
        if listings.count == 1 {
            note = "searching the store for \(TerminalText.line(query.text))…"
            return [.searchStore(query)]
        }
        note = "no match for \(TerminalText.line(query.text)) here"
        return []
    }

    // MARK: Answers and updates

    /// The timeline read again (after `reload`, or when the database changed under an unread-only
    /// view): it replaces the timeline, the selection staying on its message when it is there.
    package mutating func replaceTimeline(_ page: TimelinePage, unreadOnly: Bool) {
        let changedFilter = unreadOnly != isUnreadOnly
        if changedFilter { listings = [BrowseListing(kind: .timeline(unreadOnly: unreadOnly), page: listings[0].page)] }
        listings[0].kind = .timeline(unreadOnly: unreadOnly)
        listings[0].replaceMessages(with: page)
        olderRequested = false
        if listings.count == 1 { render() }
    }

    /// The timeline read again after a mute or a block (``BrowseEffect/moderate(_:messageID:)``):
    /// the store hides the account's posts, so the page read now lacks them. A thread or search
    /// open over the timeline may still show them, and is closed: the timeline is on the screen,
    /// the selection on the entry after the one that left.
    package mutating func replaceAfterHiding(_ page: TimelinePage) {
        listings = [listings[0]]
        listings[0].replaceMessages(with: page)
        olderRequested = false
        render()
    }

    /// The newest messages as the database has them now (a sync, another terminal): they replace
    /// the top of the timeline and the older messages loaded since stay below them. For an
    /// unread-only view the program reads the view again instead (`replaceTimeline`).
    package mutating func updateTimeline(window: TimelinePage) {
        let loaded = listings[0].page
        var page = window
        if let oldest = window.messages.last?.cursor, window.nextCursor != nil {
            let inWindow = Set(window.messages.map(\.id))
            let older = loaded.messages.filter { !inWindow.contains($0.id) && $0.cursor.precedesInTimeline(oldest) }
            if !older.isEmpty {
                page = Self.merged(window, older: TimelinePage(messages: older, related: loaded.related, users: loaded.users,
                                                               nextCursor: loaded.nextCursor, interactions: loaded.interactions))
            }
        }
        listings[0].replaceMessages(with: page)
        if listings.count == 1 { render() }
        keepSelectionVisible()
    }

    /// The page of older messages asked for with `loadOlder`, added below the timeline.
    package mutating func appendOlder(_ page: TimelinePage) {
        olderRequested = false
        let known = Set(listings[0].page.messages.map(\.id))
        var older = page
        older.messages.removeAll { known.contains($0.id) }
        var merged = Self.merged(listings[0].page, older: older)
        merged.nextCursor = page.messages.isEmpty ? nil : page.nextCursor
        listings[0].page = merged
        if listings.count == 1 { render() }
    }

    /// The stored conversation asked for with `thread`, shown over the list; `q` goes back.
    package mutating func showThread(_ thread: TimelineThread, named name: String) {
        let page = TimelinePage(messages: thread.entries.map(\.message), related: thread.page.related, users: thread.page.users,
                                interactions: thread.page.interactions)
        var listing = BrowseListing(kind: .thread(of: name), page: page, depths: thread.entries.map(\.depth))
        listing.selected = thread.entries.firstIndex { $0.message.id == thread.focusID } ?? 0
        listings.append(listing)
        render()
        if thread.entries.count == 1 {
            note = "nothing else of this conversation is stored"
        } else if thread.missingParentID != nil {
            note = "the conversation goes on above what is stored"
        }
    }

    /// The store's answer to `searchStore`, shown over the list; `q` goes back.
    package mutating func showSearch(_ results: SearchResults) {
        guard !results.isEmpty else {
            note = "no stored message matches \(TerminalText.line(results.query.text))"
            return
        }
        listings.append(BrowseListing(kind: .search(results.query.text), page: results.page))
        render()
        note = "\(Counted(results.results.count, "stored match", plural: "stored matches")): n for the next, q to go back"
    }

    /// What the server said after `f` or `b` (``BrowseEffect/act(_:messageID:)``): the entry's
    /// marks (`♥ favourited`, `⟲ boosted`; pending while an action waits for its server) and,
    /// with `message` (as now stored), its counts, in every listing that holds it, and a line
    /// saying what was done, or that it waits for the next sync.
    package mutating func applied(_ outcome: MessageActionOutcome, message: Message?) {
        for index in listings.indices {
            var page = listings[index].page
            page.interactions.removeAll { $0.messageID == outcome.messageID }
            if !outcome.interaction.isEmpty {
                page.interactions.append(outcome.interaction)
                page.interactions.sort { $0.messageID < $1.messageID }
            }
            if let message {
                for position in page.messages.indices where page.messages[position].id == message.id {
                    page.messages[position] = Self.keepingLocalState(of: page.messages[position], in: message)
                }
                for position in page.related.indices where page.related[position].id == message.id {
                    page.related[position] = Self.keepingLocalState(of: page.related[position], in: message)
                }
            }
            listings[index].page = page
        }
        render()
        let named = message.map { $0.shortReference.isNone ? "" : " " + $0.shortReference.text } ?? ""
        switch outcome.delivery {
        case .done:
            note = outcome.action.done.lowercased() + named
        case let .waiting(reason):
            note = "not sent yet, kept for the next sync (\(TerminalText.line(reason)))"
        case .cancelled:
            note = "the \(outcome.action.undo.rawValue) waiting to be sent was cancelled; nothing is sent"
        }
    }

    /// `new` with what the listing knows and the server does not: the read state, the short
    /// reference.
    private static func keepingLocalState(of old: Message, in new: Message) -> Message {
        var kept = new
        kept.isRead = old.isRead
        if kept.shortReference.isNone { kept.shortReference = old.shortReference }
        return kept
    }

    /// The status line while `action` goes to the server.
    static func progress(of action: MessageAction) -> String {
        switch action {
        case .favourite: "favouriting…"
        case .unfavourite: "taking the favourite back…"
        case .boost: "boosting…"
        case .unboost: "taking the boost back…"
        case .bookmark: "bookmarking…"
        case .unbookmark: "taking the bookmark back…"
        }
    }

    /// The status line while a mute, block or report goes to the server.
    static func progress(of moderation: BrowseModeration, question: BrowseQuestion) -> String {
        switch moderation {
        case .mute: "muting \(question.author)…"
        case .block: "blocking \(question.author)…"
        case let .report(reason): "reporting \(question.post) (\(reason.rawValue))…"
        }
    }

    /// Shows `text` (neutralised) on the status line until the next key.
    package mutating func show(note text: String) {
        note = TerminalText.line(text)
    }

    /// The window changed size: the entries are laid out again for it.
    package mutating func resize(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        render()
    }

    /// Ages ("3m") measured again from `now`.
    package mutating func refresh(now: Date) {
        self.now = now
        render()
    }

    /// Lays the current listing out again (another width, other messages, a new age): every
    /// entry is rendered anew when it next comes into sight.
    private mutating func render() {
        entries = Array(repeating: nil, count: current.page.messages.count)
        keepSelectionVisible()
    }

    /// The entry of message `index`, rendering it (and the few around it) when it is not yet.
    private mutating func entry(at index: Int) -> RenderedEntry {
        if let entry = entries[index] { return entry }
        // Around it: forward when scrolling down, backward when filling a screen up to the end.
        let end = min(index + Self.renderingChunk, entries.count)
        let start = index > 0 && entries[index - 1] == nil && index + Self.renderingChunk >= entries.count
            ? max(0, end - Self.renderingChunk) : index
        for (offset, entry) in rendered(start..<end).enumerated() where entries[start + offset] == nil {
            entries[start + offset] = entry
        }
        // In bounds and set: `index` is in `start..<end`, filled just above.
        return entries[index]!
    }

    /// The entries of the current listing's messages in `range`, for the window's width.
    private func rendered(_ range: Range<Int>) -> [RenderedEntry] {
        let listing = current
        let width = max(columns - Self.gutterWidth, RenderOptions.minimumWidth)
        guard !listing.depths.isEmpty else {
            var options = self.options
            options.width = width
            var entries = TimelineRenderer(options: options).render(listing.page, range: range, now: now, highlighting: search)
            // Entries unfolded with `z`: drawn again with their content warning open.
            options.revealsContentWarnings = true
            for (offset, index) in range.enumerated() where unfolded.contains(listing.page.messages[index].id) {
                let single = TimelinePage(messages: [listing.page.messages[index]], related: listing.page.related,
                                          users: listing.page.users, interactions: listing.page.interactions)
                entries[offset] = TimelineRenderer(options: options).render(single, now: now, highlighting: search)[0]
            }
            return entries
        }
        return range.map { index in
            let steps = min(listing.depths[index], Self.deepestIndent)
            var options = self.options
            options.width = max(width - 2 * steps, RenderOptions.minimumWidth)
            // A conversation is asked for: its content warnings are open, as `thread` has them.
            options.revealsContentWarnings = true
            let single = TimelinePage(messages: [listing.page.messages[index]], related: listing.page.related,
                                      users: listing.page.users, interactions: listing.page.interactions)
            var entry = TimelineRenderer(options: options).render(single, now: now, highlighting: search)[0]
            let indent = String(repeating: "  ", count: steps)
            entry.lines = entry.lines.map { indent + $0 }
            return entry
        }
    }

    // MARK: The screen

    /// The screen: exactly `rows` lines, none wider than `columns` (for a window of at least
    /// `RenderOptions.minimumWidth` plus the gutter), the status line last.
    package func screen() -> [String] {
        var lines: [String]
        switch mode {
        case .help: lines = helpLines()
        case let .pictures(pictures): lines = BrowsePictureLayout(pictures, columns: columns, rows: bodyRows).lines
        default: lines = bodyLines()
        }
        if lines.count > bodyRows { lines.removeLast(lines.count - bodyRows) }
        lines += Array(repeating: "", count: bodyRows - lines.count)
        if rows > 1 { lines.append(statusLine()) }
        return lines
    }

    private func bodyLines() -> [String] {
        guard !entries.isEmpty else { return ["", Self.gutter + emptyText] }
        var lines: [String] = []
        var index = current.top
        // Rendered by `keepSelectionVisible`, which every change ends with.
        while index < entries.count && lines.count < bodyRows, let entry = entries[index] {
            if index > current.top { lines.append("") }
            let gutter = index == current.selected ? selectedGutter : Self.gutter
            lines += entry.lines.map { gutter + $0 }
            index += 1
        }
        return lines
    }

    private var emptyText: String {
        switch current.kind {
        case .timeline(unreadOnly: true): "Nothing unread. u shows every entry."
        case .timeline: "No messages yet: `timeline sync` fetches your timeline."
        case .thread, .search: "Nothing here. q goes back."
        }
    }

    private func helpLines() -> [String] {
        let table = BrowseKeyAction.keyTable
        let keysWidth = table.map { DisplayWidth.of($0.keys) }.max() ?? 0
        let rows = table.map { row in
            let padding = String(repeating: " ", count: keysWidth - DisplayWidth.of(row.keys))
            return Self.fit(Self.gutter + row.keys + padding + "   " + row.meaning, columns: columns)
        }
        let framed = ["", Self.gutter + "Keys of timeline browse", ""] + rows + ["", Self.gutter + "Any key goes back."]
        // A window of 24 rows holds the keys but not the frame: the keys come first.
        return framed.count <= bodyRows ? framed : rows
    }

    /// Where the view is, or the note, or the search being typed; in reverse video with colour.
    private func statusLine() -> String {
        var text: String
        if case let .typingSearch(typed) = mode {
            text = "/" + TerminalText.line(typed)
        } else if case let .asking(question) = mode {
            text = " " + question.prompt
        } else {
            let count = current.page.messages.count
            let more = listings.count == 1 && current.page.nextCursor != nil ? "+" : ""
            let position = count == 0 ? "0" : "\(current.selected + 1)/\(count)\(more)"
            text = " " + title + options.symbols.separator + position
            let hint = listings.count == 1 && search != nil ? "? keys · q ends the search" : "? keys · q quit"
            text += options.symbols.separator + (note ?? hint)
        }
        text = Self.fit(text, columns: columns)
        guard options.color else { return text }
        let padding = String(repeating: " ", count: max(0, columns - TimelineRenderer.displayWidth(ofLine: text)))
        return "\u{1b}[7m" + text + padding + "\u{1b}[0m"
    }

    private var title: String {
        switch current.kind {
        case .timeline(unreadOnly: false): "timeline"
        case .timeline(unreadOnly: true): "unread only"
        case let .thread(name): "thread of \(TerminalText.line(name))"
        case let .search(text): "search \(TerminalText.line(text))"
        }
    }

    /// `text` cut to `columns` display columns, ending in `…` when cut.
    static func fit(_ text: String, columns: Int) -> String {
        if DisplayWidth.of(text) <= columns { return text }
        var cut = ""
        var width = 0
        for character in text {
            let characterWidth = DisplayWidth.of(character: character)
            if width + characterWidth > columns - 1 { break }
            cut.append(character)
            width += characterWidth
        }
        return cut + "…"
    }

    /// Merges a page of older messages below `page`: messages appended, related messages and
    /// users joined without doubles.
    static func merged(_ page: TimelinePage, older: TimelinePage) -> TimelinePage {
        var related = page.related
        var relatedIDs = Set(related.map(\.id))
        for message in older.related where relatedIDs.insert(message.id).inserted { related.append(message) }
        var users = Dictionary(page.users.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for user in older.users where users[user.id] == nil { users[user.id] = user }
        var interactions = Dictionary(page.interactions.map { ($0.messageID, $0) }, uniquingKeysWith: { first, _ in first })
        for interaction in older.interactions where interactions[interaction.messageID] == nil { interactions[interaction.messageID] = interaction }
        return TimelinePage(messages: page.messages + older.messages, related: related,
                            users: users.values.sorted { $0.id < $1.id }, nextCursor: older.nextCursor,
                            interactions: interactions.values.sorted { $0.messageID < $1.messageID })
    }
}
