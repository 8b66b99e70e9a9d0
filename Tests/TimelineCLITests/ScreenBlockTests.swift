import Foundation
import Testing
import TimelineKit
@testable import timeline

/// What `show` and `show --follow` write when a change does not fit the painted block: one rule
/// for both, so these run it in process on changes a real store found.
@Suite struct ScreenBlockTests {
    private static let ada = User(id: "u1", handle: "ada", name: "Ada")

    private static func message(_ n: Int, text: String? = nil) -> Message {
        Message(id: "m\(n)", authorID: ada.id, text: text ?? "message \(n)",
                createdAt: Date(timeIntervalSince1970: 1_790_000_000 + Double(n) * 60))
    }

    /// A block on a window too short to repaint anything in place (the first entry alone needs
    /// its two rows), painted from a store of messages 1 to 5.
    private static func setUp(_ scenario: Scenario) throws -> (TimelineStore, TimelineSnapshot, ScreenBlock) {
        let store = try TimelineStore(path: scenario.databasePath)
        try store.upsert(users: [ada], messages: (1...5).map { message($0) })
        let snapshot = try store.makeSnapshot(limit: 10)
        let screen = ScreenBlock(renderer: TimelineRenderer(options: RenderOptions(width: 80)), limit: nil,
                                 fixedWidth: nil, window: (columns: 80, rows: 2))
        let paint = screen.paint(snapshot.window, now: snapshot.builtAt)
        #expect(paint.contains("message 5") && !paint.contains("message 4"))
        return (store, snapshot, screen)
    }

    @Test func newMessagesGoBelowOldestFirstWithANoteAboutChangesToPrintedOnesOnly() throws {
        let scenario = Scenario()
        let (store, first, painted) = try Self.setUp(scenario)
        var snapshot = first
        let screen = painted
        try store.upsert(messages: [Self.message(7), Self.message(6), Self.message(5, text: "five, edited"),
                                    Self.message(4, text: "four, edited, never shown")])
        let changes = try store.reconcile(snapshot)
        let shown = screen.show(changes, now: snapshot.builtAt)
        let text = try #require(shown)
        #expect(text.hasPrefix("\n"))
        let six = try #require(text.range(of: "message 6")), seven = try #require(text.range(of: "message 7"))
        #expect(six.lowerBound < seven.lowerBound)
        #expect(text.hasSuffix("\n(1 changed above)\n"))

        // What was printed below counts as printed from then on.
        snapshot = TimelineSnapshot(state: changes.state, builtAt: snapshot.builtAt, limit: 10, window: changes.window)
        _ = try store.deleteMessages(ids: ["m6", "m3"])
        #expect(screen.show(try store.reconcile(snapshot), now: snapshot.builtAt) == "\n(1 removed above)\n")
    }

    /// `show`'s one update: a text the `sqlite3` shell changed without `edited_at`, on a screen
    /// that cannot be repainted in place, is printed again below in its new form, so that the
    /// first `show` after the edit shows it (issue 38); `--follow` keeps the note alone (above).
    @Test func showsUpdatePrintsAChangedMessageAgainBelowWhenTheBlockCannotBeRepainted() throws {
        let scenario = Scenario()
        let (store, _, screen) = try Self.setUp(scenario)
        let preview = try store.snapshotFile.readPreview(messages: 5)
        try scenario.sqlite("UPDATE messages SET text = 'five, by the shell' WHERE id = 'm5'")
        let text = try #require(screen.update(to: try store.reconcile(preview), now: preview.builtAt))
        #expect(text.contains("five, by the shell"))
        #expect(!text.contains("message 4"))
        #expect(text.hasSuffix("\n(1 changed above; the changed shown again below)\n"))
    }

    @Test func aChangeToNothingPrintedWritesNothing() throws {
        let scenario = Scenario()
        let (store, snapshot, painted) = try Self.setUp(scenario)
        let screen = painted
        try store.upsert(messages: [Self.message(2, text: "two, edited")])
        #expect(screen.show(try store.reconcile(snapshot), now: snapshot.builtAt) == nil)
    }
}
