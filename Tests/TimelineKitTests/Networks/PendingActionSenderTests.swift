import Foundation
import Synchronization
import Testing
@testable import TimelineKit

/// The queue's rules around a network's one try of an action (issue 27, offline): what is kept,
/// what is taken out, in which order actions go, and when an opposite may still cancel, with a
/// scripted network in place of a server.
@Suite struct PendingActionSenderTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    static let refused = ServerError.rejected(url: "https://social.example/api/v1/statuses/1/favourite", status: 404, reason: "Record not found")
    static let refusedConnection = ServerError.unreachable(.cannotConnect(url: "https://social.example/", reason: "the connection was refused"), attempts: 2)
    static let timedOut = ServerError.unreachable(.timedOut(url: "https://social.example/", after: .seconds(20)), attempts: 2)

    /// A network whose tries answer as `script` says, in turn (`nil`: done), recording each try.
    final class ScriptedNetwork: Sendable {
        let store: TimelineStore
        let script: Mutex<[ServerError?]>
        let tries = Mutex<[PendingAction]>([])

        init(store: TimelineStore, _ script: [ServerError?]) {
            self.store = store
            self.script = Mutex(script)
        }

        func sender() -> PendingActionSender {
            PendingActionSender(account: "a", store: store) { pending in try self.send(pending) }
        }

        func send(_ pending: PendingAction) throws -> MessageActionOutcome {
            tries.withLock { $0.append(pending) }
            let answer = script.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            if let answer { throw answer }
            // As a network does: the server's word stored, the action taken out, together.
            try store.storeWrite { transaction throws(TimelineStoreError) in
                try transaction.setInteraction(account: "a", messageID: pending.messageID, pending.action.kind, on: pending.action.sets)
                try transaction.removePendingAction(pending.sequence)
            }
            return MessageActionOutcome(action: pending.action, messageID: pending.messageID,
                                        interaction: try store.interaction(account: "a", messageID: pending.messageID).0)
        }

        var sent: [MessageAction] { tries.withLock { $0.map(\.action) } }
    }

    @Test func failuresAreTakenAsUnreachableRefusedOrWaitingForYou() {
        #expect(PendingActionFailure(Self.refusedConnection) == .unreachable)
        #expect(PendingActionFailure(Self.timedOut) == .unreachable)
        #expect(PendingActionFailure(ServerError.serverFailed(url: "u", status: 503, attempts: 4)) == .unreachable)
        #expect(PendingActionFailure(ServerError.rateLimited(url: "u", retryAt: nil)) == .unreachable)
        #expect(PendingActionFailure(Self.refused) == .refused)
        #expect(PendingActionFailure(ServerError.rejected(url: "u", status: 403, reason: "blocked")) == .refused)
        #expect(PendingActionFailure(ServerError.replyTargetElsewhere(messageID: "m", server: "s")) == .refused)
        #expect(PendingActionFailure(ServerError.unauthorized(server: "s")) == .waitingForYou)
        #expect(PendingActionFailure(ServerError.cancelled) == .waitingForYou)
        #expect(!PendingActionFailure.mayHaveReachedServer(Self.refusedConnection))
        #expect(!PendingActionFailure.mayHaveReachedServer(ServerError.serverFailed(url: "u", status: 503, attempts: 4)))
        #expect(PendingActionFailure.mayHaveReachedServer(Self.timedOut))
        #expect(PendingActionFailure.mayHaveReachedServer(ServerError.cancelled))
    }

    @Test func anUnreachableServerKeepsTheActionAndAnOppositeAfterARefusedConnectionCancelsIt() async throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...1))
        let network = ScriptedNetwork(store: store, [Self.refusedConnection])
        let kept = try await network.sender().act(.favourite, on: "m1", at: Self.now)
        #expect(kept.isPending && kept.interaction == MessageInteraction(messageID: "m1", favourited: true, pending: true))
        let queued = try store.pendingActions()
        #expect(queued.map(\.action) == [.favourite] && queued[0].attempts == 0)
        // Nothing can have been done: the unfavourite cancels it without a try.
        let undone = try await network.sender().act(.unfavourite, on: "m1", at: Self.now)
        #expect(undone.delivery == .cancelled && !undone.interaction.favourited && !undone.interaction.pending)
        #expect(try store.pendingActions().isEmpty)
        #expect(network.sent == [.favourite])
    }

    @Test func aTryThatMayHaveBeenDoneIsNotCancelledAndGoesFirst() async throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...1))
        let network = ScriptedNetwork(store: store, [Self.timedOut])
        #expect(try await network.sender().act(.favourite, on: "m1", at: Self.now).isPending)
        #expect(try store.pendingActions().first?.attempts == 1)
        // The server is back: the favourite that may have been done goes first, then the undo.
        let undone = try await network.sender().act(.unfavourite, on: "m1", at: Self.now)
        #expect(undone.delivery == .done && undone.action == .unfavourite && !undone.interaction.favourited)
        #expect(network.sent == [.favourite, .favourite, .unfavourite])
        // The retry knew it was one (a Mastodon retry reads the status first).
        #expect(network.tries.withLock { $0.map(\.attempts) } == [1, 2, 1])
        #expect(try store.pendingActions().isEmpty)
    }

    @Test func aRefusedActionIsTakenOutAndItsRefusalThrown() async throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...1))
        let network = ScriptedNetwork(store: store, [Self.refused])
        await #expect(throws: ServerError.self) { try await network.sender().act(.boost, on: "m1", at: Self.now) }
        #expect(try store.pendingActions().isEmpty)
        #expect(try store.timeline(limit: 5).interactions.isEmpty)
    }

    @Test func anExpiredLoginKeepsTheActionAndSaysSo() async throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...1))
        let network = ScriptedNetwork(store: store, [.unauthorized(server: "https://social.example")])
        await #expect(throws: PendingActionKept.self) { try await network.sender().act(.bookmark, on: "m1", at: Self.now) }
        #expect(try store.pendingActions().map(\.action) == [.bookmark])
    }

    @Test func theSyncSendsInOrderTakesRefusalsOutAndStopsAtTheFirstUnreachable() async throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...4))
        for (action, id) in [(MessageAction.favourite, "m1"), (.boost, "m2"), (.bookmark, "m3"), (.favourite, "m4")] {
            _ = try store.enqueue(action, account: "a", messageID: id, key: "k" + id, at: Self.now)
        }
        _ = try store.enqueue(.boost, account: "b", messageID: "m1", key: "other", at: Self.now)
        // Done, refused, then the server goes away.
        let network = ScriptedNetwork(store: store, [nil, Self.refused, Self.refusedConnection])
        let delivery = await network.sender().sendAll()
        #expect(delivery.sent.map(\.messageID) == ["m1"])
        #expect(delivery.refused.map(\.action.messageID) == ["m2"] && delivery.refused[0].reason.contains("404"))
        #expect(delivery.stillPending == 2)
        #expect(network.tries.withLock { $0.map(\.key) } == ["km1", "km2", "km3"])
        #expect(try store.pendingActions(account: "a").map(\.messageID) == ["m3", "m4"])
        #expect(try store.pendingActions(account: "b").count == 1)
        // The next sync sends the rest, in order.
        let next = await network.sender().sendAll()
        #expect(next.sent.map(\.messageID) == ["m3", "m4"] && next.stillPending == 0 && next.refused.isEmpty)
        #expect(try store.pendingActions(account: "a").isEmpty)
    }
}
