import Foundation
import Synchronization
import Testing
@testable import TimelineKit

/// The outbox's rules around a network's one try of a change (issue 27, offline): what is kept,
/// what is taken out, in which order changes go, and what a waiting post looks like on the
/// screen, with a scripted network in place of a server.
@Suite struct OutboxSenderTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    static let refused = ServerError.rejected(url: "https://social.example/api/v1/statuses", status: 422, reason: "Validation failed")
    static let refusedConnection = ServerError.unreachable(.cannotConnect(url: "https://social.example/", reason: "the connection was refused"), attempts: 2)
    static let timedOut = ServerError.unreachable(.timedOut(url: "https://social.example/", after: .seconds(20)), attempts: 2)
    static let author = User(id: "me", handle: "me", name: "Me")

    /// A network whose tries answer as `script` says, in turn (`nil`: done), recording each try.
    final class ScriptedNetwork: Sendable {
        let store: TimelineStore
        let script: Mutex<[(any Error)?]>
        let tries = Mutex<[OutboxEntry]>([])

        init(store: TimelineStore, _ script: [(any Error)?]) {
            self.store = store
            self.script = Mutex(script)
        }

        func sender() -> OutboxSender {
            OutboxSender(account: "a", store: store) { entry in try self.send(entry) }
        }

        func send(_ entry: OutboxEntry) throws -> OutboxResult {
            tries.withLock { $0.append(entry) }
            let answer = script.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            if let answer { throw answer }
            switch entry.change {
            case let .post(draft):
                // As a network does: the server's post stored.
                let message = Message(id: "posted-" + entry.key, authorID: "me", text: draft.text, createdAt: OutboxSenderTests.now, isRead: true)
                try store.upsert(messages: [message])
                return .posted(message)
            case let .follow(handle), let .unfollow(handle):
                return .following(FollowOutcome(user: FollowedUser(id: handle, handle: handle, name: ""), following: entry.change.kind == "follow"))
            case let .edit(id, _), let .vote(id, _), let .delete(id):
                return .deleted(id)
            case .mute, .unmute, .block, .unblock, .muteWord, .unmuteWord:
                return .moderated(ModerationOutcome(change: entry.change))
            }
        }

        var sent: [String] { tries.withLock { $0.map(\.change.kind) } }
    }

    @Test func aWaitingPostIsStoredPaintedPendingAndSurvivesUntilTheServerHasIt() async throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        let network = ScriptedNetwork(store: store, [Self.refusedConnection])
        let draft = PostDraft(text: "Offline thoughts", replyTo: "m9", contentWarning: "cw", visibility: .unlisted, languages: ["en", "pt"])
        let kept = try await network.sender().perform(.post(draft), author: Self.author, at: Self.now)
        #expect(kept.isPending)
        // Kept as asked for, every part of the draft, with the key the tries send.
        let queued = try store.outbox()
        #expect(queued.map(\.change) == [.post(draft)] && queued[0].key == kept.entry.key && queued[0].attempts == 0)
        // The stand-in is at the top of the page, painted as pending, written by the account.
        let page = try store.timeline(limit: 5)
        let placeholder = try #require(kept.entry.placeholderID)
        #expect(page.messages.first?.id == placeholder && page.messages.first?.text == "Offline thoughts")
        #expect(page.users.contains { $0.id == "me" })
        #expect(page.interactions.contains { $0.messageID == placeholder && $0.pending })

        // The next sync publishes it with the same key, and the stand-in goes.
        var delivery = PendingDelivery()
        await network.sender().sendAll(into: &delivery)
        #expect(delivery.changesSent.map(\.entry.key) == [kept.entry.key] && delivery.stillPending == 0)
        #expect(network.tries.withLock { $0.map(\.key) } == [kept.entry.key, kept.entry.key])
        #expect(try store.outbox().isEmpty)
        #expect(try store.message(id: placeholder) == nil)
        #expect(try store.timeline(limit: 5).interactions.isEmpty)
    }

    /// Issue 34: `bcb` painted beside a waiting post names the same post once a sync sent it
    /// (it said "no stored message" before), and the stand-in's number is not handed out again.
    @Test func aSentPostKeepsTheShortReferenceItsStandInWasPaintedWith() async throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        let network = ScriptedNetwork(store: store, [Self.refusedConnection])
        let kept = try await network.sender().perform(.post(PostDraft(text: "Offline thoughts")), author: Self.author, at: Self.now)
        let placeholder = try #require(kept.entry.placeholderID)
        let painted = try #require(try store.message(id: placeholder)).shortReference
        var delivery = PendingDelivery()
        await network.sender().sendAll(into: &delivery)
        let posted = try #require(try store.message(id: "posted-" + kept.entry.key))
        #expect(posted.shortReference.text == painted.text && posted.text == "Offline thoughts")
        #expect(try store.message(id: placeholder) == nil)
        #expect(try store.state().messageCount == 1)
        // The next message is numbered above both the stand-in and the row the server's post was first stored in.
        try store.upsert(messages: [Message(id: "later", authorID: "me", text: "later", createdAt: Self.now)])
        let later = try #require(try store.message(id: "later")).shortReference
        #expect(later.text != painted.text)
    }

    @Test func aTryThatMayHaveBeenDoneCountsAndOneThatCannotIsTakenBack() async throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        let network = ScriptedNetwork(store: store, [Self.timedOut, Self.refusedConnection])
        #expect(try await network.sender().perform(.vote(messageID: "m1", choices: [1]), author: nil, at: Self.now).isPending)
        #expect(try store.outbox().first?.attempts == 1)
        var delivery = PendingDelivery()
        await network.sender().sendAll(into: &delivery)
        #expect(delivery.stillPending == 1 && delivery.changesSent.isEmpty)
        #expect(try store.outbox().first?.attempts == 1)
        // The retry that follows knows it is one: a vote then reads the poll first.
        var next = PendingDelivery()
        await network.sender().sendAll(into: &next)
        #expect(next.changesSent.count == 1)
        #expect(network.tries.withLock { $0.map(\.attempts) } == [1, 2, 2])
        #expect(try store.outbox().isEmpty)
    }

    @Test func aRefusedChangeIsTakenOutWithItsStandInAndThrown() async throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        let network = ScriptedNetwork(store: store, [Self.refused])
        await #expect(throws: ServerError.self) {
            try await network.sender().perform(.post(PostDraft(text: "Too long")), author: Self.author, at: Self.now)
        }
        #expect(try store.outbox().isEmpty)
        #expect(try store.timeline(limit: 5).messages.isEmpty)
        // What the server said of a poll is a refusal too.
        let poll = ScriptedNetwork(store: store, [PostChangeRefusal.pollEnded])
        await #expect(throws: PostChangeRefusal.self) {
            try await poll.sender().perform(.vote(messageID: "m1", choices: [0]), author: nil, at: Self.now)
        }
        #expect(try store.outbox().isEmpty)
        // A server without the feature (Takahē's quotes) would refuse it every time.
        let lacking = ScriptedNetwork(store: store, [ServerError.serverLacks(server: "https://social.example", feature: "quote posts")])
        await #expect(throws: ServerError.self) {
            try await lacking.sender().perform(.post(PostDraft(text: "Quoting", quoteOf: "m1")), author: Self.author, at: Self.now)
        }
        #expect(try store.outbox().isEmpty && store.timeline(limit: 5).messages.isEmpty)
    }

    @Test func anExpiredLoginKeepsTheChangeAndSaysSo() async throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        let network = ScriptedNetwork(store: store, [ServerError.unauthorized(server: "https://social.example")])
        await #expect(throws: OutboxEntryKept.self) {
            try await network.sender().perform(.follow(handle: "alice@example.social"), author: nil, at: Self.now)
        }
        #expect(try store.outbox().map(\.change) == [.follow(handle: "alice@example.social")])
    }

    @Test func earlierChangesGoFirstInOrderAndARefusedOneDoesNotStopTheRest() async throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        let offline = ScriptedNetwork(store: store, [Self.refusedConnection, Self.refusedConnection])
        #expect(try await offline.sender().perform(.follow(handle: "bob"), author: nil, at: Self.now).isPending)
        #expect(try await offline.sender().perform(.edit(messageID: "m1", text: "new"), author: nil, at: Self.now).isPending)
        // Back: the follow is refused (blocked), the edit done, then the unfollow asked for now.
        let network = ScriptedNetwork(store: store, [ServerError.rejected(url: "u", status: 403, reason: "blocked"), nil, nil])
        let outcome = try await network.sender().perform(.unfollow(handle: "carol"), author: nil, at: Self.now)
        #expect(network.sent == ["follow", "edit", "unfollow"])
        #expect(outcome.earlierRefused.map(\.entry.change) == [.follow(handle: "bob")] && outcome.earlierRefused[0].reason.contains("blocked"))
        #expect(outcome.earlierSent.map(\.change) == [.edit(messageID: "m1", text: "new")])
        guard case .done(.following) = outcome.delivery else {
            Issue.record("the unfollow was not done: \(outcome.delivery)")
            return
        }
        #expect(try store.outbox().isEmpty)
    }

    @Test func theSyncStopsAtTheFirstChangeThatCannotBeSentAndAfterAnActionThatCouldNot() async throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        for (index, change) in [OutboxEntry.Change.delete(messageID: "m1"), .vote(messageID: "m2", choices: [0, 2]), .follow(handle: "x")].enumerated() {
            _ = try store.enqueue(change, account: "a", author: nil, key: "k\(index)", at: Self.now)
        }
        _ = try store.enqueue(.follow(handle: "y"), account: "b", author: nil, key: "other", at: Self.now)
        var stopped = PendingDelivery()
        stopped.stoppedBy = Self.refusedConnection
        stopped.stillPending = 1
        let network = ScriptedNetwork(store: store, [nil, Self.refusedConnection])
        await network.sender().sendAll(into: &stopped)
        #expect(network.sent.isEmpty && stopped.stillPending == 4)

        var delivery = PendingDelivery()
        await network.sender().sendAll(into: &delivery)
        #expect(delivery.changesSent.map(\.entry.key) == ["k0"] && delivery.stillPending == 2)
        #expect(try store.outbox(account: "a").map(\.change) == [.vote(messageID: "m2", choices: [0, 2]), .follow(handle: "x")])
        #expect(try store.outbox(account: "b").count == 1)
    }

    @Test func aWaitingPostIsTakenBackUnsentAndCannotBeRepliedTo() async throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        let offline = ScriptedNetwork(store: store, [Self.refusedConnection])
        let kept = try await offline.sender().perform(.post(PostDraft(text: "Oops")), author: Self.author, at: Self.now)
        let placeholder = try #require(kept.entry.placeholderID)
        let network = ScriptedNetwork(store: store, [])
        await #expect(throws: OutboxRefusal.waitingPost(verb: "reply to", id: placeholder)) {
            try await network.sender().perform(.post(PostDraft(text: "Re", replyTo: placeholder)), author: Self.author, at: Self.now)
        }
        let taken = try await network.sender().perform(.delete(messageID: placeholder), author: nil, at: Self.now)
        #expect(taken.delivery == .done(.deleted(placeholder)))
        #expect(network.sent.isEmpty)
        #expect(try store.outbox().isEmpty && store.message(id: placeholder) == nil)
    }
}

/// Migration 14: the outbox's table of migration 13 moves into `pending_actions` (one column
/// instead of a table: each schema object costs every launch of `show` its parse).
@Suite struct OutboxMigrationTests {
    @Test func aChangeWaitingInTheOldTableIsKeptInOrderWithEveryPart() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("timeline.sqlite")
        _ = try Samples.store(in: directory)
        try Samples.undoMigration14(path)
        try SQLiteShell.run(path, """
            INSERT INTO pending_actions (account, message_id, action, created_at, key, attempts) VALUES ('a', 'm1', 'favourite', 5, 'k0', 0);
            INSERT INTO outbox (account, kind, target, text, reply_to, visibility, languages, created_at, key, attempts)
                VALUES ('a', 'post', 'outbox:k1', 'Ünïcode “text”', 'm1', 'unlisted', 'en pt', 6, 'k1', 1);
            INSERT INTO outbox (account, kind, target, choices, created_at, key, attempts) VALUES ('a', 'vote', 'm2', '0,2', 7, 'k2', 0);
            """)
        let store = try TimelineStore(path: path)
        #expect(try SQLiteShell.run(path, "PRAGMA user_version").trimmed == "\(Migration.latestVersion)")
        let waiting = try store.outbox(account: "a")
        #expect(waiting.map(\.change) == [.post(PostDraft(text: "Ünïcode “text”", replyTo: "m1", visibility: .unlisted, languages: ["en", "pt"])),
                                          .vote(messageID: "m2", choices: [0, 2])])
        #expect(waiting.map(\.key) == ["k1", "k2"] && waiting.map(\.attempts) == [1, 0])
        #expect(try store.pendingActions(account: "a").map(\.action) == [.favourite])
        #expect(try store.waitingActions().count(for: "a") == 3)
        #expect(try SQLiteShell.run(path, "SELECT count(*) FROM sqlite_schema WHERE name = 'outbox'").trimmed == "0")
    }
}
