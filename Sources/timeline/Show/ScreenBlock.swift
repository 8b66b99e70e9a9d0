#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

/// The block of entries `show` keeps on a terminal, and the text that keeps it true: painted once,
/// then at each change repainted in place while all of it fits the window, or else followed by the
/// new messages printed below, oldest first (the newest is the last line, as with `tail -f`), and
/// a line such as `(2 changed, 1 removed above)` about messages printed earlier (`show`'s one
/// update prints those changed messages again below too). `show` uses it for its paint and the one
/// update the reconcile may bring, `--follow` for every change after.
/// It only makes text; the caller writes it.
///
/// A class: there is one block on the screen, which `show` paints and its follow loop then keeps
/// (and, as a value, copying it into the runner's `Retained` cost the launch 20,000 instructions of
/// runtime metadata, callgrind).
final class ScreenBlock {
    /// `--limit`: how many entries; `nil` for as many as fit the window.
    private let limit: Int?
    /// `--width`: `nil` to wrap to the window's width.
    private let fixedWidth: Int?
    private var renderer: TimelineRenderer
    private var rows: Int?
    private var columns: Int?
    /// The block painted last.
    private var block: [RenderedEntry] = []

    /// The IDs of the entries in the block, top to bottom: what is on the screen.
    var shownMessageIDs: [String] { block.map(\.messageID) }
    /// Whether the cursor is on the row right below `block`: nothing was printed after it.
    private var isBelowBlock = false
    /// The messages on the screen since the block stopped being live: its own and those printed
    /// below it since, for the note about changes above. `nil` while nothing was printed below.
    private var printed: Set<String>?
    /// `Terminal.errorWrites` when the block was painted: a note on the same terminal since then
    /// moved the cursor.
    private var errorWritesAtBlock = 0

    /// How many messages are shown without `--limit` where there is no window to fill.
    static let entriesWithoutWindow = 20

    init(renderer: TimelineRenderer, limit: Int?, fixedWidth: Int?, window: (columns: Int, rows: Int)?) {
        self.renderer = renderer
        self.limit = limit
        self.fixedWidth = fixedWidth
        self.rows = window?.rows
        self.columns = window?.columns
    }

    /// Whether the block can still be repainted in place: it is right above the cursor and fits.
    var isLive: Bool { isBelowBlock && fits(block) }

    /// The entries of `page` to show: `limit` of them, or as many as fit the window without
    /// scrolling (one row stays free for the prompt).
    private func entries(of page: TimelinePage, now: Date) -> [RenderedEntry] {
        if let limit { return renderer.render(page.prefix(limit), now: now) }
        guard let rows else { return renderer.render(page.prefix(Self.entriesWithoutWindow), now: now) }
        return renderer.render(page, now: now, fittingRows: rows - 1)
    }

    /// `page` painted as a new block at the cursor.
    func paint(_ page: TimelinePage, now: Date) -> String {
        isBelowBlock = false
        return paintBlock(entries(of: page, now: now))
    }

    /// The text that shows `changes`: the block repainted when the new one fits too, else the new
    /// messages below; `nil` when nothing shown changed. `repaintingChanged` prints the changed
    /// messages that were on the screen below too, in their new form, among the new ones: what
    /// `show`'s one update does, so that an edit made behind the snapshot's back (the `sqlite3`
    /// shell changing a text, whatever column) is on the screen after the first `show`, not the
    /// second. `--follow` keeps the note alone: every sync moves counts, and reprinting each
    /// printed message whose count moved would bury the new ones.
    func show(_ changes: TimelineChanges, now: Date, repaintingChanged: Bool = false) -> String? {
        if changes.isEmpty { return nil }
        let entries = entries(of: changes.window, now: now)
        if fits(entries) { return paintBlock(entries) }
        isBelowBlock = false
        var shown = printed ?? Set(block.map(\.messageID))
        let changedShown = changes.updated.filter(shown.contains)
        let removed = changes.removed.filter(shown.contains).count
        shown.formUnion(changes.inserted)
        printed = shown
        let page = changes.page(of: repaintingChanged ? Set(changes.inserted + changedShown) : Set(changes.inserted))
        var output = TimelineRenderer.text(of: renderer.render(
            TimelinePage(messages: page.messages.reversed(), related: page.related, users: page.users,
                         interactions: page.interactions), now: now))
        var summary: [String] = []
        if !changedShown.isEmpty { summary.append("\(changedShown.count) changed") }
        if removed > 0 { summary.append("\(removed) removed") }
        if !summary.isEmpty {
            output += "(" + summary.joined(separator: ", ") + " above" + (repaintingChanged && !changedShown.isEmpty ? "; the changed shown again below)\n" : ")\n")
        }
        return output.isEmpty ? nil : "\n" + output
    }

    /// The text that brings a block painted from a snapshot up to date with the database's
    /// `answer`; `nil` when the paint was the truth.
    func update(to answer: TimelineReconciliation, now: Date) -> String? {
        if answer.isSnapshotFresh { return nil }
        guard let changes = answer.changes else { return replace(with: answer.window, now: now) }
        return show(changes, now: now, repaintingChanged: true)
    }

    /// The text that shows `page` when what changed since the paint is not known (the painted
    /// snapshot turned out unusable): the block repainted when it can be, else all of `page` below.
    private func replace(with page: TimelinePage, now: Date) -> String {
        let entries = entries(of: page, now: now)
        if isLive, fits(entries) { return paintBlock(entries) }
        isBelowBlock = false
        printed = nil
        block = renderer.render(page.prefix(limit ?? Self.entriesWithoutWindow), now: now)
        return "\n" + TimelineRenderer.text(of: block)
    }

    /// After a resize (`window` is the new size) or a return from Ctrl-Z: a fresh block of
    /// `page` laid out for the window as it is now, below the cursor; `nil` when it does not fit.
    func relayout(_ page: TimelinePage, window: (columns: Int, rows: Int)?, now: Date) -> String? {
        if let window {
            rows = window.rows
            columns = window.columns
            var options = renderer.options
            options.width = fixedWidth ?? window.columns
            renderer = TimelineRenderer(options: options)
        }
        // The old block may have been reflowed by the terminal: never repaint over it.
        isBelowBlock = false
        let entries = entries(of: page, now: now)
        return fits(entries) ? paintBlock(entries) : nil
    }

    /// The live block with its ages ("3m") brought up to date; `nil` when none changed.
    func refreshAges(_ page: TimelinePage, now: Date) -> String? {
        guard isLive else { return nil }
        let entries = entries(of: page, now: now)
        if entries == block || !fits(entries) { return nil }
        return paintBlock(entries)
    }

    /// `entries` over the live block when there is one, or else at the cursor, an empty line
    /// apart from anything painted before, as entries are from each other.
    private func paintBlock(_ entries: [RenderedEntry]) -> String {
        var output = ""
        if isLive, isAnchored {
            output = Self.rewind(over: TimelineRenderer.rowCount(of: block))
        } else if !block.isEmpty {
            output = "\n"
        }
        output += TimelineRenderer.text(of: entries)
        block = entries
        isBelowBlock = true
        printed = nil
        errorWritesAtBlock = Terminal.errorWrites
        return output
    }

    /// Whether `entries` can be repainted in place: every line on the screen, one row each (lines
    /// wider than the window would have wrapped onto more rows), on a terminal that can move its
    /// cursor (a dumb one cannot).
    private func fits(_ entries: [RenderedEntry]) -> Bool {
        guard let rows, Terminal.environment("TERM") != "dumb" else { return false }
        return TimelineRenderer.rowCount(of: entries) < rows && renderer.options.width <= (columns ?? Int.max)
    }

    /// Whether the cursor is still right below the block: nothing was written to the same
    /// terminal's standard error since it was painted.
    private var isAnchored: Bool {
        errorWritesAtBlock == Terminal.errorWrites || !Terminal.standardErrorIsTerminal
    }

    /// Back to the first line of the block of `lines` lines just above the cursor, erasing from
    /// there down: what is written next replaces the block.
    static func rewind(over lines: Int) -> String {
        "\r" + (lines > 0 ? "\u{1b}[\(lines)A" : "") + "\u{1b}[J"
    }
}
