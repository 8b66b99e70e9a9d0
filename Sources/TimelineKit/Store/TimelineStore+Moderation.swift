#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a change of the person's rules did to the stored timeline.
public struct ModerationChange: Sendable, Hashable {
    /// Messages hidden that were painted before.
    public var hidden: Int
    /// Messages painted again that were hidden before.
    public var shown: Int
    /// Messages whose warning (collapsed or not, or its reason) changed.
    public var rewarned: Int
    /// Whether the rules themselves changed.
    public var rulesChanged: Bool

    public init(hidden: Int = 0, shown: Int = 0, rewarned: Int = 0, rulesChanged: Bool = false) {
        self.hidden = hidden
        self.shown = shown
        self.rewarned = rewarned
        self.rulesChanged = rulesChanged
    }
}

extension TimelineStore {
    /// The rules `account` stored (what its server's filters, preferences, mutes and blocks said
    /// at its last sync, and what was changed here since), `.none` when it has none.
    public func moderationRules(account: String) throws(TimelineStoreError) -> ModerationRules {
        try read { reader throws(SQLiteError) in try ModerationRulesRow.rules(of: account, on: reader.connection) }
    }

    /// The rules of every account as one: what decides.
    public func moderationRules() throws(TimelineStoreError) -> ModerationRules {
        try read { reader throws(SQLiteError) in try ModerationRulesRow.merged(on: reader.connection) }
    }

    /// Changes the rules of `account` and decides again every stored message the change can
    /// concern, in one transaction, then rewrites the snapshot: a muted account's stored posts are
    /// gone from the next paint, with no sync. Rules that have expired at `now` (a mute `--for` a
    /// day, a word's `expiresAt`) are dropped on the way, and what they hid is painted again.
    ///
    /// Only what the change can reach is read again: an account muted or blocked reads its own
    /// posts and their reposts; a post hidden, itself and its reposts; a word or a label choice,
    /// every message (once, at the change).
    @discardableResult
    public func updateModerationRules(
        account: String, now: Date = Date(), _ change: (inout ModerationRules) -> Void
    ) throws -> ModerationChange {
        try write { transaction in
            try transaction.updateModerationRules(account: account, now: now, change)
        }
    }
}

extension TimelineTransaction {
    /// `TimelineStore.updateModerationRules` inside a transaction of its own caller (a sync's page).
    @discardableResult
    public func updateModerationRules(
        account: String, now: Date = Date(), _ change: (inout ModerationRules) -> Void
    ) throws(TimelineStoreError) -> ModerationChange {
        try withSQLite { () throws(SQLiteError) -> ModerationChange in
            let before = try ModerationRulesRow.merged(on: connection)
            var rules = try ModerationRulesRow.rules(of: account, on: connection)
            let stored = rules
            change(&rules)
            rules.removeExpired(at: now)
            guard rules != stored else { return ModerationChange() }
            try ModerationRulesRow.store(rules, of: account, on: connection)
            let after = try ModerationRulesRow.merged(on: connection)
            loadedModerationRules = after
            var summary = try Self.redecide(ModerationCandidates(before: before, after: after), rules: after, now: now, on: connection)
            summary.rulesChanged = true
            return summary
        }
    }

    /// Decides again the messages `candidates` names, storing the verdicts that changed.
    static func redecide(
        _ candidates: ModerationCandidates, rules: ModerationRules, now: Date, on connection: SQLiteConnection
    ) throws(SQLiteError) -> ModerationChange {
        guard let clause = candidates.clause else { return ModerationChange() }
        let sql = clause.isEmpty
            ? "SELECT \(MessageColumns.select) FROM messages"
            : """
              SELECT \(MessageColumns.select(qualifiedBy: "m")) FROM messages AS m LEFT JOIN messages AS r ON r.id = m.repost_of_id
              WHERE \(clause)
              """
        let select = try connection.statement(sql)
        defer { select.reset() }
        if !clause.isEmpty, !candidates.accounts.isEmpty { try select.bind(SQLiteJSONArray(candidates.accounts.sorted()), at: 1) }
        if !clause.isEmpty, !candidates.posts.isEmpty { try select.bind(SQLiteJSONArray(candidates.posts.sorted()), at: 2) }
        var changed: [(Message, ModerationVerdict)] = []
        let original = try connection.statement("SELECT \(MessageColumns.select) FROM messages WHERE id = ?1")
        while try select.step() {
            let message = MessageColumns.message(from: select)
            var reposted: Message?
            if let repostOfID = message.repostOfID {
                defer { original.reset() }
                try original.bind(repostOfID, at: 1)
                if try original.step() { reposted = MessageColumns.message(from: original) }
            }
            guard candidates.mayHoldAnAddedWord(message, reposting: reposted) else { continue }
            let verdict = verdict(of: message, reposting: reposted, rules: rules, now: now)
            if verdict != message.storedVerdict { changed.append((message, verdict)) }
        }
        var summary = ModerationChange()
        for (message, verdict) in changed {
            try ModerationRulesRow.store(verdict, of: message, on: connection)
            switch (message.hiddenBecause != nil, verdict) {
            case (false, .hidden): summary.hidden += 1
            case (true, .hidden): break
            case (true, _): summary.shown += 1
            case (false, _): summary.rewarned += 1
            }
        }
        return summary
    }
}

extension Message {
    /// The verdict stored with the message.
    var storedVerdict: ModerationVerdict {
        if let hiddenBecause { return .hidden(reason: hiddenBecause) }
        if let warning { return .collapsed(reason: warning) }
        return .shown
    }
}
