#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The outbox of issue 27's "Offline and failures" (posts, edits, votes, follows, unfollows,
// deletes), network-neutral, beside the queue of favourites, boosts and bookmarks
// (AccountSession+PendingActions.swift): every change is written down before its request leaves
// (`TimelineStore.enqueue(_:account:author:key:at:)`) and taken out once its server answered, so
// it is neither lost when the server cannot be reached or the process is killed while it waits
// for the answer, nor done twice when it is sent again (the key chosen at queue time; the
// server's state read first where the key does not help).

extension AccountSession {
    /// Makes `change` at the account's server (a post, reply or quote; an edit; a vote; a follow
    /// or unfollow; a delete of the account's own post) and stores what the server answers.
    ///
    /// The change is queued first (``OutboxEntry``; a post also as a stand-in message painted as
    /// pending), then sent after the account's changes queued before it, in order. When the
    /// server cannot be reached (``PendingActionFailure/unreachable``) it stays queued, the
    /// answer's ``OutboxOutcome/delivery`` is `.waiting`, and the next sync sends it
    /// (``sendPendingActions(in:)``). The key sent with every try is the draft's
    /// ``PostDraft/idempotencyKey`` when it has one, else a new one (``PendingAction/newKey(at:)``).
    /// A post, edit or vote naming a waiting post's stand-in is refused
    /// (`OutboxRefusal.waitingPost`); deleting a waiting post takes it out of the outbox and
    /// sends nothing (the answer is `.done(.deleted)`).
    ///
    /// - Throws: the server's refusal (`ServerError.rejected` with its reason: a deleted post, a
    ///   blocked account, 422; ``PostChangeRefusal`` for a poll that ended), after which nothing is
    ///   queued; ``OutboxEntryKept`` when it could not be sent for a reason the person must put
    ///   right (an expired login): it stays queued; `ServerError.store`.
    public func perform(_ change: OutboxEntry.Change, in store: TimelineStore, at now: Date = Date()) async throws -> OutboxOutcome {
        try await OutboxSender(account: account.name, store: store) { entry in try await send(entry, in: store) }
            .perform(change, author: ownUser, at: now)
    }
}

/// The outbox's rules around one network's try of a change (`send`, which stores the server's
/// answer): what ``AccountSession/perform(_:in:at:)`` and ``AccountSession/sendPendingActions(in:)``
/// do, apart from any network so that the rules are tested on their own.
struct OutboxSender: Sendable {
    let account: String
    let store: TimelineStore
    let send: @Sendable (OutboxEntry) async throws -> OutboxResult

    func perform(_ change: OutboxEntry.Change, author: User?, at now: Date) async throws -> OutboxOutcome {
        switch change {
        case let .post(draft):
            if let id = [draft.replyTo, draft.quoteOf].compactMap({ $0 }).first(where: OutboxEntry.isPlaceholder) {
                throw OutboxRefusal.waitingPost(verb: draft.replyTo == id ? "reply to" : "quote", id: id)
            }
        case let .edit(id, _) where OutboxEntry.isPlaceholder(id):
            throw OutboxRefusal.waitingPost(verb: "edit", id: id)
        case let .vote(id, _) where OutboxEntry.isPlaceholder(id):
            throw OutboxRefusal.waitingPost(verb: "vote in", id: id)
        case let .delete(id) where OutboxEntry.isPlaceholder(id):
            // Never sent: taken out here, and nothing goes to the server.
            guard let waiting = try store.outbox(account: account).first(where: { $0.placeholderID == id }) else {
                _ = try store.deleteMessages(ids: [id])
                return OutboxOutcome(entry: OutboxEntry(sequence: 0, account: account, change: change, createdAt: now, key: ""),
                                     delivery: .done(.deleted(id)))
            }
            try store.removeOutboxEntry(waiting)
            return OutboxOutcome(entry: waiting, delivery: .done(.deleted(id)))
        default:
            break
        }
        var key = PendingAction.newKey(at: now)
        var change = change
        if case let .post(draft) = change {
            if let given = draft.idempotencyKey { key = given }
            // Its pictures copied first, so the entry names files the outbox keeps (issue 36).
            change = .post(try OutboxPictureCopies.keep(draft, key: key, in: store.outboxPicturesDirectory))
        }
        let queued: OutboxEntry
        do {
            queued = try store.enqueue(change, account: account, author: author, key: key, at: now)
        } catch {
            if case let .post(draft) = change { OutboxPictures.remove(draft.pictures, keptBeside: store.path) }
            throw error
        }
        var outcome = OutboxOutcome(entry: queued, delivery: .waiting(reason: ""))
        // The account's changes in the order they were asked for, this one last: an unfollow
        // asked for now is not undone by a follow that waited.
        for var entry in try store.outbox(account: account) where entry.sequence <= queued.sequence {
            try store.noteOutboxAttempt(of: entry.sequence)
            entry.attempts += 1
            do {
                let result = try await send(entry)
                try store.removeOutboxEntry(entry, published: result.published)
                if entry.sequence == queued.sequence {
                    outcome.delivery = .done(result)
                } else {
                    outcome.earlierSent.append(entry)
                }
            } catch {
                switch PendingActionFailure(error) {
                case .refused:
                    try store.removeOutboxEntry(entry)
                    if entry.sequence == queued.sequence { throw error }
                    // An older change refused (its post deleted) does not stop this one.
                    outcome.earlierRefused.append(PendingDelivery.ChangeRefusal(entry: entry, reason: "\(error)"))
                case .unreachable:
                    if !PendingActionFailure.mayHaveReachedServer(error) { try store.forgetOutboxAttempt(of: entry.sequence) }
                    outcome.delivery = .waiting(reason: PendingActionFailure.waitingReason(error))
                    return outcome
                case .waitingForYou:
                    throw OutboxEntryKept(entry: queued, reason: error)
                }
            }
        }
        return outcome
    }

    /// Sends the account's outbox, oldest first, each once, into `delivery`; the first change
    /// that cannot be sent stops the rest, which stay queued in their order.
    func sendAll(into delivery: inout PendingDelivery) async {
        let queue: [OutboxEntry]
        do {
            queue = try store.outbox(account: account)
        } catch {
            delivery.stoppedBy = error
            return
        }
        // Actions that could not be sent stop the changes too: the same server.
        if delivery.stoppedBy != nil {
            delivery.stillPending += queue.count
            return
        }
        for (index, var entry) in queue.enumerated() {
            do {
                try store.noteOutboxAttempt(of: entry.sequence)
                entry.attempts += 1
                let result = try await send(entry)
                try store.removeOutboxEntry(entry, published: result.published)
                delivery.changesSent.append((entry, result))
            } catch {
                if PendingActionFailure(error) == .refused, (try? store.removeOutboxEntry(entry)) != nil {
                    delivery.changesRefused.append(PendingDelivery.ChangeRefusal(entry: entry, reason: "\(error)"))
                    continue
                }
                if PendingActionFailure(error) == .unreachable, !PendingActionFailure.mayHaveReachedServer(error) {
                    try? store.forgetOutboxAttempt(of: entry.sequence)
                }
                delivery.stillPending += queue.count - index
                delivery.stoppedBy = error
                break
            }
        }
    }
}
