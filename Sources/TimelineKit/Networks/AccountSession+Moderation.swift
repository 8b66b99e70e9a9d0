#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// What a person can do about what they do not want to see (issue 34), network-neutral: a mute,
// block or muted word goes into the account's rules here at once, so the next paint leaves the
// account's stored posts out with no request, and to the server through the outbox, so it is
// never lost offline; each sync reads the server's lists back into the rules.

extension AccountSession {
    /// Mutes, unmutes, blocks or unblocks an account, or mutes or unmutes a word (`change`, a
    /// change whose ``OutboxEntry/Change/isModeration`` is true), for this account.
    ///
    /// First the account's ``ModerationRules`` (`TimelineStore.updateModerationRules(account:_:)`):
    /// the stored users the handle may be (``storedUserIDs(of:in:)``) and `userIDs` (the author
    /// of a message the person named) are muted or blocked, or the word muted, so their stored
    /// posts leave the next paint and the snapshot at once. Then the change goes through the
    /// outbox (``perform(_:in:at:)``): sent now, or kept and sent by the next sync when the
    /// server cannot be reached (``OutboxOutcome/delivery`` `.waiting`). The server's answer names
    /// the account's stored ID, which joins the rules too.
    ///
    /// - Throws: the server's refusal (an unknown account: 404), after which the rules are as
    ///   they were and nothing is queued; ``OutboxEntryKept`` when it could not be sent for a
    ///   reason the person must put right (it stays queued, and in the rules);
    ///   `ServerError.store`.
    public func moderate(_ change: OutboxEntry.Change, userIDs: [String] = [], in store: TimelineStore,
                         at now: Date = Date()) async throws -> OutboxOutcome {
        var ids = userIDs
        if let handle = change.accountHandle {
            for id in try storedUserIDs(of: handle, in: store) where !ids.contains(id) { ids.append(id) }
        }
        let before = try store.moderationRules(account: account.name)
        try store.updateModerationRules(account: account.name) { rules in rules.apply(change, userIDs: ids) }
        let outcome: OutboxOutcome
        do {
            outcome = try await perform(change, in: store, at: now)
        } catch let kept as OutboxEntryKept {
            throw kept
        } catch {
            try store.updateModerationRules(account: account.name) { rules in rules.restore(change, userIDs: ids, from: before) }
            throw error
        }
        if case let .done(.moderated(answer)) = outcome.delivery, let id = answer.storedUserID, !ids.contains(id) {
            try store.updateModerationRules(account: account.name) { rules in rules.apply(change, userIDs: [id]) }
        }
        return outcome
    }

    /// Reads the accounts muted and blocked at the server (``moderationLists(_:limit:in:)``,
    /// at most ``ModerationLists/defaultLimit`` of each) into the account's rules, replacing
    /// those two sets and nothing else; a mute or block still waiting in the outbox is kept in
    /// them. What `sync` does after the timelines. A server that lacks the lists, or fails to
    /// answer, leaves the rules as they were (the next sync tries again): answered `false`.
    @discardableResult
    public func refreshModerationRules(in store: TimelineStore) async -> Bool {
        guard let lists = try? await moderationLists([.muted, .blocked], limit: ModerationLists.defaultLimit, in: store) else { return false }
        do {
            let waiting = try store.outbox(account: account.name).filter { $0.change.isModeration && $0.change.accountHandle != nil }
            var pending: [(OutboxEntry.Change, [String])] = []
            for entry in waiting {
                pending.append((entry.change, try storedUserIDs(of: entry.change.accountHandle ?? "", in: store)))
            }
            try store.updateModerationRules(account: account.name) { rules in
                rules.mutedAccounts = Dictionary(lists.muted.map { ($0.storedUserID, $0.until) }, uniquingKeysWith: { first, _ in first })
                rules.blockedAccounts = Set(lists.blocked.map(\.storedUserID))
                for (change, ids) in pending { rules.apply(change, userIDs: ids) }
            }
            return true
        } catch {
            return false
        }
    }
}

extension OutboxEntry.Change {
    /// The handle of the account a mute, block or their undo names; `nil` for any other change.
    public var accountHandle: String? {
        switch self {
        case let .mute(handle, _), let .unmute(handle), let .block(handle), let .unblock(handle): handle
        default: nil
        }
    }
}

extension ModerationRules {
    /// `change` made in the rules for the stored users `userIDs` (a mute or block and their
    /// undo), or for its word: what a person asked for, before any server has it.
    mutating func apply(_ change: OutboxEntry.Change, userIDs: [String]) {
        switch change {
        case let .mute(_, until):
            for id in userIDs { mutedAccounts[id] = .some(until) }
        case .unmute:
            for id in userIDs { mutedAccounts[id] = nil }
        case .block:
            blockedAccounts.formUnion(userIDs)
        case .unblock:
            blockedAccounts.subtract(userIDs)
        case let .muteWord(word, until):
            let value = MutedWord.plain(word)
            guard !mutedWords.contains(where: { $0.title == nil && $0.value.lowercased() == value.lowercased() }) else { return }
            mutedWords.append(MutedWord(value: value, expiresAt: until))
        case let .unmuteWord(word):
            let value = MutedWord.plain(word).lowercased()
            mutedWords.removeAll { $0.value.lowercased() == value }
        case .post, .edit, .vote, .follow, .unfollow, .delete:
            break
        }
    }

    /// The part of the rules `change` touched for `userIDs` put back as it was in `old`: a change
    /// the server refused leaves no trace.
    mutating func restore(_ change: OutboxEntry.Change, userIDs: [String], from old: ModerationRules) {
        switch change {
        case .mute, .unmute:
            for id in userIDs { mutedAccounts[id] = old.mutedAccounts[id] }
        case .block, .unblock:
            for id in userIDs {
                if old.blockedAccounts.contains(id) { blockedAccounts.insert(id) } else { blockedAccounts.remove(id) }
            }
        case let .muteWord(word, _), let .unmuteWord(word):
            let value = MutedWord.plain(word).lowercased()
            mutedWords.removeAll { $0.value.lowercased() == value }
            mutedWords += old.mutedWords.filter { $0.value.lowercased() == value }
        case .post, .edit, .vote, .follow, .unfollow, .delete:
            break
        }
    }
}

extension MutedWord {
    /// A word as typed, as it is muted: a tag without its `#` (`#spoilers` mutes `spoilers`, as
    /// Bluesky keeps it).
    static func plain(_ word: String) -> String {
        word.hasPrefix("#") ? String(word.dropFirst()) : word
    }
}
