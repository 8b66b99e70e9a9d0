/// What a key asks `timeline browse` to do, and the table of keys: the one place that says which
/// key does what, read both by the view (`BrowseKeyAction.init?(key:)`) and by the `?` screen
/// (`BrowseKeyAction.keyTable`), so the help can never list a key that does something else.
///
/// The keys are those of less and vim (`j`/`k`, `g`/`G`, `/`, `n`, space and Ctrl-F/Ctrl-B for
/// pages) and of tut (`t`, `o`, `m`, `u`, `f` favourite, `b` boost, `r` reply; `z` unfolds a
/// content warning, as vim's `z` unfolds a fold; `s` saves, that is bookmarks: `B` is block's). `b` is not a page key here, as it is in less:
/// it boosts, as in tut. What acts on the author rather than the post is a capital that asks
/// first (`M` mute, `B` block, `R` report; ``BrowseQuestion``): heavier than its lower-case
/// neighbour and never one slip away.
package enum BrowseKeyAction: Sendable, Hashable, CaseIterable {
    case down, up
    case pageDown, pageUp
    case top, bottom
    case search, nextMatch, previousMatch
    case thread
    case toggleRead
    case toggleUnreadOnly
    case open
    /// Show the entry's pictures (a repost's: the original's), with their alt text.
    case pictures
    /// Favourite the entry at its server, or undo it (a toggle).
    case favourite
    /// Boost the entry, or undo it (a toggle).
    case boost
    /// Bookmark the entry at its server, or undo it (a toggle).
    case bookmark
    /// Reply to the entry, written in `$EDITOR`.
    case reply
    /// Show the text behind the entry's content warning, or fold it again (a toggle).
    case unfold
    /// Mute the entry's author (a boost's: the original's), after a yes.
    case mute
    /// Block the entry's author, after a yes.
    case block
    /// Report the post to its server's moderators, after the reason or a yes.
    case report
    case help
    case redraw
    /// Back from a thread or search results; out of the view from the timeline.
    case back

    /// The command `key` gives in the list, or `nil` for a key that does nothing.
    package init?(key: BrowseKey) {
        guard let found = Self.allCases.first(where: { $0.keys.contains(key) }) else { return nil }
        self = found
    }

    /// The keys that give this command.
    package var keys: [BrowseKey] {
        switch self {
        case .down: [.character("j"), .down, .control("n"), .enter]
        case .up: [.character("k"), .up, .control("p")]
        case .pageDown: [.character(" "), .pageDown, .control("f")]
        case .pageUp: [.pageUp, .control("b")]
        case .top: [.character("g"), .home]
        case .bottom: [.character("G"), .end]
        case .search: [.character("/")]
        case .nextMatch: [.character("n")]
        case .previousMatch: [.character("N")]
        case .thread: [.character("t")]
        case .toggleRead: [.character("m")]
        case .toggleUnreadOnly: [.character("u")]
        case .open: [.character("o")]
        case .pictures: [.character("p")]
        case .favourite: [.character("f")]
        case .boost: [.character("b")]
        case .bookmark: [.character("s")]
        case .reply: [.character("r")]
        case .unfold: [.character("z")]
        case .mute: [.character("M")]
        case .block: [.character("B")]
        case .report: [.character("R")]
        case .help: [.character("?")]
        case .redraw: [.control("l")]
        case .back: [.character("q"), .escape]
        }
    }

    /// The keys as the `?` screen names them, and what they do.
    package var help: (keys: String, meaning: String) {
        switch self {
        case .down: ("j  ↓  Enter", "next entry")
        case .up: ("k  ↑", "previous entry")
        case .pageDown: ("Space  PgDn  Ctrl-F", "next page (older)")
        case .pageUp: ("PgUp  Ctrl-B", "previous page (newer)")
        case .top: ("g  Home", "the newest entry")
        case .bottom: ("G  End", "the last entry loaded")
        case .search: ("/", "search: what is loaded, else the whole store")
        case .nextMatch: ("n  N", "next match, previous match")
        case .previousMatch: ("N", "previous match")
        case .thread: ("t", "the conversation of the entry (as stored)")
        case .toggleRead: ("m", "mark the entry read (again: unread)")
        case .toggleUnreadOnly: ("u", "unread entries only (again: all)")
        case .open: ("o", "open the post in the browser ($BROWSER)")
        case .pictures: ("p", "the entry's pictures and their alt text")
        case .favourite: ("f", "favourite (like) at its server; again: undo")
        case .boost: ("b", "boost (repost); again: undo")
        case .bookmark: ("s", "bookmark (save) at its server; again: undo")
        case .reply: ("r", "reply, written in your $EDITOR")
        case .unfold: ("z", "unfold a content warning; again: fold")
        case .mute: ("M", "mute the author, after y: their posts leave")
        case .block: ("B", "block the author, after y: their posts leave")
        case .report: ("R", "report the post: s spam, v violation, y other")
        case .help: ("?  Ctrl-L", "these keys; Ctrl-L redraws the screen")
        case .redraw: ("Ctrl-L", "redraw the screen")
        case .back: ("q  Esc", "back from a thread or a search; quit")
        }
    }

    /// Every command's line for the `?` screen, in the order of `allCases`; `n` and `N` share one,
    /// and `?` and Ctrl-L another, so that the table, with every key, fits a window of 80 by 24.
    package static var keyTable: [(keys: String, meaning: String)] {
        allCases.filter { $0 != .previousMatch && $0 != .redraw }.map(\.help)
    }
}
