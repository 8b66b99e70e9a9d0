import Foundation
import Testing
@testable import TimelineKit

/// The queue of actions waiting for their server (issue 27, "Offline and failures"): order,
/// opposites cancelling, what a page paints, and the snapshot noticing.
@Suite struct PendingActionQueueTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    @Test func actionsAreKeptInOrderWithTheirKeysUntilTakenOut() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...3))
        _ = try store.enqueue(.favourite, account: "a", messageID: "m2", key: "k1", at: Self.now)
        _ = try store.enqueue(.boost, account: "b", messageID: "m1", key: "k2", at: Self.now.addingTimeInterval(1))
        _ = try store.enqueue(.bookmark, account: "a", messageID: "m3", key: "k3", at: Self.now.addingTimeInterval(2))
        let all = try store.pendingActions()
        #expect(all.map(\.key) == ["k1", "k2", "k3"])
        #expect(all.map(\.action) == [.favourite, .boost, .bookmark])
        #expect(all[0].createdAt == Self.now && all[0].attempts == 0 && all[0].account == "a" && all[0].messageID == "m2")
        #expect(try store.pendingActions(account: "a").map(\.key) == ["k1", "k3"])
        #expect(try store.pendingActions(account: "a", messageID: "m3").map(\.key) == ["k3"])

        try store.noteAttempt(of: all[0].sequence)
        try store.noteAttempt(of: all[0].sequence)
        #expect(try store.pendingActions(account: "a").first?.attempts == 2)
        try store.removePendingAction(all[0].sequence)
        #expect(try store.pendingActions().map(\.key) == ["k2", "k3"])
    }

    @Test func anUnsentOppositeCancelsAndNothingIsLeftToSend() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...2))
        guard case .queued = try store.enqueue(.favourite, account: "a", messageID: "m1", key: "k1", at: Self.now) else {
            Issue.record("not queued"); return
        }
        // The same again: kept once, with its first key.
        guard case let .alreadyQueued(again) = try store.enqueue(.favourite, account: "a", messageID: "m1", key: "k2", at: Self.now) else {
            Issue.record("queued twice"); return
        }
        #expect(again.key == "k1")
        guard case .cancelled = try store.enqueue(.unfavourite, account: "a", messageID: "m1", key: "k3", at: Self.now) else {
            Issue.record("not cancelled"); return
        }
        #expect(try store.pendingActions().isEmpty)
        // Another kind, or another account, does not cancel.
        _ = try store.enqueue(.boost, account: "a", messageID: "m1", key: "k4", at: Self.now)
        _ = try store.enqueue(.unfavourite, account: "a", messageID: "m1", key: "k5", at: Self.now)
        _ = try store.enqueue(.favourite, account: "b", messageID: "m1", key: "k6", at: Self.now)
        #expect(try store.pendingActions().map(\.key) == ["k4", "k5", "k6"])
    }

    @Test func anActionThatMayHaveReachedItsServerIsNotCancelledButFollowed() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...1))
        guard case let .queued(first) = try store.enqueue(.favourite, account: "a", messageID: "m1", key: "k1", at: Self.now) else {
            Issue.record("not queued"); return
        }
        try store.noteAttempt(of: first.sequence)
        guard case .queued = try store.enqueue(.unfavourite, account: "a", messageID: "m1", key: "k2", at: Self.now) else {
            Issue.record("cancelled an action that may have been done"); return
        }
        #expect(try store.pendingActions().map(\.action) == [.favourite, .unfavourite])
        // A favourite again cancels the unsent unfavourite, not the favourite sent before it.
        guard case .cancelled = try store.enqueue(.favourite, account: "a", messageID: "m1", key: "k3", at: Self.now) else {
            Issue.record("not cancelled"); return
        }
        #expect(try store.pendingActions().map(\.key) == ["k1"])
    }

    @Test func aPagePaintsTheAskedForStateAsPendingOverTheServersWord() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...3))
        try store.setInteraction(account: "a", messageID: "m1", .favourite, on: true)
        try store.setInteraction(account: "a", messageID: "m2", .boost, on: true)
        _ = try store.enqueue(.unfavourite, account: "a", messageID: "m1", key: "k1", at: Self.now)
        _ = try store.enqueue(.bookmark, account: "a", messageID: "m2", key: "k2", at: Self.now)
        let interactions = try store.timeline(limit: 10).interactions
        #expect(interactions.count == 2)
        // m1: favourited at the server, an unfavourite waiting: nothing set, but pending.
        #expect(interactions.first { $0.messageID == "m1" } == MessageInteraction(messageID: "m1", pending: true))
        #expect(interactions.first { $0.messageID == "m2" } == MessageInteraction(messageID: "m2", boosted: true, bookmarked: true, pending: true))
        // The server's word is still what `interaction(account:messageID:)` says.
        #expect(try store.interaction(account: "a", messageID: "m1").0.favourited)

        let renderer = TimelineRenderer(options: RenderOptions(width: 100, symbols: .ascii))
        let rendered = TimelineRenderer.text(of: renderer.render(try store.timeline(limit: 10), now: Self.now))
        #expect(rendered.contains("[boosted]  [bookmarked]  [pending]"), "\(rendered)")
        for sequence in try store.pendingActions().map(\.sequence) { try store.removePendingAction(sequence) }
        let after = try store.timeline(limit: 10).interactions
        #expect(after == [MessageInteraction(messageID: "m1", favourited: true), MessageInteraction(messageID: "m2", boosted: true)])
    }

    @Test func queuingAndTakingOutMakeTheSnapshotStaleButCountingATryDoesNot() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...1))
        var generation = try store.state().generation
        guard case let .queued(action) = try store.enqueue(.boost, account: "a", messageID: "m1", key: "k", at: Self.now) else {
            Issue.record("not queued"); return
        }
        #expect(try store.state().generation > generation)
        generation = try store.state().generation
        try store.noteAttempt(of: action.sequence)
        #expect(try store.state().generation == generation)
        try store.removePendingAction(action.sequence)
        #expect(try store.state().generation > generation)
    }

    @Test func aKeyIsThirteenCharactersOfTheRecordKeyAlphabetAndSortsByTime() {
        let first = PendingAction.newKey(at: Self.now)
        let later = PendingAction.newKey(at: Self.now.addingTimeInterval(0.001))
        #expect(first.count == 13 && later.count == 13)
        #expect(first.allSatisfy { "234567abcdefghijklmnopqrstuvwxyz".contains($0) })
        #expect(first < later)
    }
}
