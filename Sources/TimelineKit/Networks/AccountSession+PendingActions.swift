#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The queue of issue 27's "Offline and failures", network-neutral: every action is written
// down before its request leaves (`TimelineStore.enqueue`) and taken out in the transaction
// that stores its server's answer (`AccountSession.send(_:in:)`), so it is neither lost when
// the server cannot be reached or the process is killed while it waits for the answer, nor
// done twice when it is sent again (the key chosen at queue time; the server's state read
// first where the key does not help).

extension AccountSession {
    /// Favourites, boosts or bookmarks the stored message `messageID` at its server as the
    /// account, or undoes it (``MessageAction``), and stores what the server then says of it: the
    /// account's favourite, boost and bookmark (``TimelineStore/interaction(account:messageID:)``)
    /// and the message's counts, so the next paint shows them. A repost is acted on through its
    /// original. Doing what is already done changes nothing at the server and succeeds. An action
    /// of a kind the network lacks (``AccountSession/refusal(of:)``, with ``SourceAction/init(_:)``) is refused by the caller.
    ///
    /// The action is queued first (``TimelineStore/enqueue(_:account:messageID:key:at:)``), then
    /// sent after the message's actions queued before it. When the server cannot be reached
    /// (``PendingActionFailure/unreachable``) it stays queued and the answer's
    /// ``MessageActionOutcome/delivery`` is `.waiting`: the next sync sends it
    /// (``sendPendingActions(in:)``), and the message is painted with the asked-for state as
    /// pending until then. Its unsent opposite cancels it (`.cancelled`: nothing is sent).
    ///
    /// - Throws: the server's refusal (`ServerError.rejected` with its reason: a deleted post is
    ///   404; `.replyTargetElsewhere` when it is not a message of this account's network), after
    ///   which nothing is queued and nothing changed; ``PendingActionKept`` when it could not be
    ///   sent for a reason the person must put right (an expired login): it stays queued;
    ///   `ServerError.store`.
    public func act(_ action: MessageAction, on messageID: String, in store: TimelineStore,
                    at now: Date = Date()) async throws -> MessageActionOutcome {
        try await PendingActionSender(account: account.name, store: store) { pending in try await send(pending, in: store) }
            .act(action, on: messageID, at: now)
    }

    /// Sends the account's queued actions (``PendingAction``), oldest first, each once
    /// (`send(_:in:)` of a `PendingAction`): what `timeline sync` does before it fetches anything, so that what the
    /// sync then stores already knows them. An action its server refuses is taken out and said
    /// (``PendingDelivery/refused``); the first that cannot be sent stops the rest, which stay
    /// queued in their order for the next sync. Throws nothing: the sync goes on either way, and
    /// meets the same unreachable server itself.
    ///
    /// Then the account's outbox (``OutboxEntry``: posts, edits, votes, follows, unfollows,
    /// deletes), oldest first, each once, by the same rules (``PendingDelivery/changesSent``,
    /// ``PendingDelivery/changesRefused``); none when an action could not be sent.
    public func sendPendingActions(in store: TimelineStore) async -> PendingDelivery {
        var delivery = await PendingActionSender(account: account.name, store: store) { pending in try await send(pending, in: store) }
            .sendAll()
        await OutboxSender(account: account.name, store: store) { entry in try await send(entry, in: store) }
            .sendAll(into: &delivery)
        return delivery
    }

    /// ``sendPendingActions(in:)`` holding `gate`'s lock, as a round of `show -f` does, or
    /// nothing (`nil`) while another process holds it: that sync sends them itself.
    public func sendPendingActions(in store: TimelineStore, gate: SyncGate) async -> PendingDelivery? {
        await gate.runUnlessBusy { () async -> PendingDelivery in await sendPendingActions(in: store) }
    }
}

/// The queue's rules around one network's try of an action (`send`, which stores the answer and
/// takes the action out in one transaction): what ``AccountSession/act(_:on:in:at:)`` and
/// ``AccountSession/sendPendingActions(in:)`` do, apart from any network so that the rules are
/// tested on their own.
struct PendingActionSender: Sendable {
    let account: String
    let store: TimelineStore
    let send: @Sendable (PendingAction) async throws -> MessageActionOutcome

    func act(_ action: MessageAction, on messageID: String, at now: Date) async throws -> MessageActionOutcome {
        let target = try store.message(id: messageID)?.repostOfID ?? messageID
        let queued = try store.enqueue(action, account: account, messageID: target,
                                       key: PendingAction.newKey(at: now), at: now)
        let asked: PendingAction
        switch queued {
        case .cancelled:
            return MessageActionOutcome(action: action, messageID: target,
                                        interaction: try intendedInteraction(with: target), delivery: .cancelled)
        case let .queued(pending), let .alreadyQueued(pending):
            asked = pending
        }
        // The message's actions in the order they were asked for, this one last: an unfavourite
        // queued offline is sent before the favourite asked for now, not after it.
        var answered: MessageActionOutcome?
        for var pending in try store.pendingActions(account: account, messageID: target) where pending.sequence <= asked.sequence {
            try store.noteAttempt(of: pending.sequence)
            pending.attempts += 1
            do {
                answered = try await send(pending)
            } catch {
                switch PendingActionFailure(error) {
                case .refused:
                    try store.removePendingAction(pending.sequence)
                    // An older action refused (its post deleted) does not stop this one.
                    if pending.sequence == asked.sequence { throw error }
                case .unreachable:
                    if !PendingActionFailure.mayHaveReachedServer(error) { try store.forgetAttempt(of: pending.sequence) }
                    return MessageActionOutcome(action: action, messageID: target, interaction: try intendedInteraction(with: target),
                                                delivery: .waiting(reason: PendingActionFailure.waitingReason(error)))
                case .waitingForYou:
                    throw PendingActionKept(action: pending, reason: error)
                }
            }
        }
        var outcome: MessageActionOutcome
        if let answered {
            outcome = answered
        } else {
            outcome = MessageActionOutcome(action: action, messageID: target, interaction: try intendedInteraction(with: target))
        }
        outcome.action = action
        return outcome
    }

    func sendAll() async -> PendingDelivery {
        var delivery = PendingDelivery()
        let queue: [PendingAction]
        do {
            queue = try store.pendingActions(account: account)
        } catch {
            delivery.stoppedBy = error
            return delivery
        }
        for (index, var pending) in queue.enumerated() {
            do {
                try store.noteAttempt(of: pending.sequence)
                pending.attempts += 1
                delivery.sent.append(try await send(pending))
            } catch {
                if PendingActionFailure(error) == .refused, (try? store.removePendingAction(pending.sequence)) != nil {
                    delivery.refused.append(PendingDelivery.Refusal(action: pending, reason: "\(error)"))
                    continue
                }
                if PendingActionFailure(error) == .unreachable, !PendingActionFailure.mayHaveReachedServer(error) {
                    try? store.forgetAttempt(of: pending.sequence)
                }
                delivery.stillPending = queue.count - index
                delivery.stoppedBy = error
                break
            }
        }
        return delivery
    }

    /// The account's favourite, boost and bookmark of `messageID` as its queued actions will
    /// leave them: the server's last word with those actions applied in order.
    private func intendedInteraction(with messageID: String) throws(TimelineStoreError) -> MessageInteraction {
        var interaction = try store.interaction(account: account, messageID: messageID).0
        for pending in try store.pendingActions(account: account, messageID: messageID) {
            interaction[pending.action.kind] = pending.action.sets
            interaction.pending = true
        }
        return interaction
    }
}
