#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// What the person's own rules make of each message a transaction writes (issue 34): decided
/// here, once, and stored with the message (`warning`, `hidden`), so that no reader pays for it.
extension TimelineTransaction {
    /// The rules of every account as one, read at the transaction's first message and kept to
    /// its end (a rule changed inside the transaction re-decides what it concerns by itself:
    /// `TimelineStore.updateModerationRules`).
    func moderationRules() throws(TimelineStoreError) -> ModerationRules {
        if let rules = loadedModerationRules { return rules }
        let rules = try withSQLite { () throws(SQLiteError) in try ModerationRulesRow.merged(on: connection) }
        loadedModerationRules = rules
        return rules
    }

    /// Sets `message`'s `warning` and `hiddenBecause` from the rules; a repost takes the verdict of
    /// what it reposts as well (a muted word in the original hides its boosts).
    func decideModeration(of message: inout Message) throws(TimelineStoreError) {
        message.warning = nil
        message.hiddenBecause = nil
        let rules = try moderationRules()
        var reposted: Message?
        if let repostOfID = message.repostOfID {
            reposted = try withSQLite { () throws(SQLiteError) in try storedMessage(id: repostOfID) }
            if reposted == nil { repostsWaitingForTheirOriginal.append((repostID: message.id, originalID: repostOfID)) }
        }
        guard !rules.isEmpty || !message.moderation.isEmpty || reposted?.moderation.isEmpty == false else { return }
        let verdict = Self.verdict(of: message, reposting: reposted, rules: rules, now: moderationClock)
        apply(verdict, to: &message)
    }

    /// The verdict of `message`, given the message it reposts where that is stored.
    static func verdict(of message: Message, reposting reposted: Message?, rules: ModerationRules, now: Date) -> ModerationVerdict {
        var verdict = rules.verdict(for: message, facts: message.moderation, repostedAuthorID: reposted?.authorID, now: now)
        if let reposted {
            verdict = verdict.combined(with: rules.verdict(for: reposted, facts: reposted.moderation, now: now))
        }
        return verdict
    }

    private func apply(_ verdict: ModerationVerdict, to message: inout Message) {
        switch verdict {
        case .shown: break
        case let .collapsed(reason): message.warning = reason
        case let .hidden(reason): message.hiddenBecause = reason
        }
    }

    /// A stored message by its ID, hidden or not.
    func storedMessage(id: String) throws(SQLiteError) -> Message? {
        let statement = try connection.statement("SELECT \(MessageColumns.select) FROM messages WHERE id = ?1")
        defer { statement.reset() }
        try statement.bind(id, at: 1)
        return try statement.step() ? MessageColumns.message(from: statement) : nil
    }

    /// Reposts written before their original in this transaction: decided again now that it may
    /// be stored (a page lists a boost before the status it boosts).
    func decideRepostsWaitingForTheirOriginals() throws(TimelineStoreError) {
        guard !repostsWaitingForTheirOriginal.isEmpty else { return }
        let waiting = repostsWaitingForTheirOriginal
        repostsWaitingForTheirOriginal = []
        let rules = try moderationRules()
        try withSQLite { () throws(SQLiteError) in
            for (repostID, originalID) in waiting {
                guard let original = try storedMessage(id: originalID), let repost = try storedMessage(id: repostID) else { continue }
                let verdict = Self.verdict(of: repost, reposting: original, rules: rules, now: moderationClock)
                try ModerationRulesRow.store(verdict, of: repost, on: connection)
            }
        }
    }
}

/// Where each account's rules are kept: a row of `synced_timelines` with the timeline
/// `moderation` and the rules as JSON in `state`, beside the account's timelines (so that
/// logging out removes them with the rest), in no table of their own (every schema object costs
/// `show` its parse).
enum ModerationRulesRow {
    static let timeline = "moderation"

    /// The rules of `account` as stored, `.none` when it has none.
    static func rules(of account: String, on connection: SQLiteConnection) throws(SQLiteError) -> ModerationRules {
        let statement = try connection.statement("SELECT state FROM synced_timelines WHERE account = ?1 AND timeline = 'moderation'")
        defer { statement.reset() }
        try statement.bind(account, at: 1)
        guard try statement.step() else { return .none }
        return decode(statement.text(at: 0))
    }

    /// The rules of every account as one.
    ///
    /// Every write transaction that stores a message reads them, and a person's rules rarely
    /// change: decoding 10,000 muted words and compiling their matcher at every sync page would
    /// cost milliseconds each time. So the rules last decoded are kept, with the rows' text they
    /// came from; the same text (compared byte for byte, which is far cheaper than decoding it)
    /// gives the same rules, compiled matcher included.
    static func merged(on connection: SQLiteConnection) throws(SQLiteError) -> ModerationRules {
        let statement = try connection.statement("SELECT state FROM synced_timelines WHERE timeline = 'moderation' ORDER BY account")
        defer { statement.reset() }
        var texts: [String] = []
        while try statement.step() { texts.append(statement.text(at: 0)) }
        if texts.isEmpty { return .none }
        if let cached = lastMerged.withLock({ $0 }), cached.texts == texts { return cached.rules }
        let all = texts.map(decode)
        let rules = all.count == 1 ? all[0] : .merged(all)
        lastMerged.withLock { $0 = (texts, rules) }
        return rules
    }

    /// The rows' text `merged` read last and the rules it made of them.
    private static let lastMerged = Mutex<(texts: [String], rules: ModerationRules)?>(nil)

    static func store(_ rules: ModerationRules, of account: String, on connection: SQLiteConnection) throws(SQLiteError) {
        let statement = try connection.statement(
            "INSERT OR REPLACE INTO synced_timelines (account, timeline, state) VALUES (?1, 'moderation', ?2)")
        defer { statement.reset() }
        try statement.bind(account, at: 1)
        try statement.bind(encode(rules), at: 2)
        try statement.run()
    }

    /// Stores a verdict on a stored message when it differs, and marks a message it hides read
    /// (a hidden message is not waiting to be read). Returns whether the row changed.
    @discardableResult
    static func store(_ verdict: ModerationVerdict, of message: Message, on connection: SQLiteConnection) throws(SQLiteError) -> Bool {
        var hidden: String?, warning: String?
        switch verdict {
        case .shown: break
        case let .collapsed(reason): warning = reason
        case let .hidden(reason): hidden = reason
        }
        guard hidden != message.hiddenBecause || warning != message.warning else { return false }
        let update = try connection.statement("UPDATE messages SET hidden = ?2, warning = ?3 WHERE id = ?1")
        defer { update.reset() }
        try update.bind(message.id, at: 1)
        try update.bind(hidden, at: 2)
        try update.bind(warning, at: 3)
        try update.run()
        if hidden != nil {
            let markRead = try connection.statement(MessageColumns.markIDRead)
            defer { markRead.reset() }
            try markRead.bind(message.id, at: 1)
            try markRead.run()
        }
        return true
    }

    static func encode(_ rules: ModerationRules) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .millisecondsSince1970
        guard let data = try? encoder.encode(rules) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Rules that do not read (written by hand in the `sqlite3` shell, or by a newer version
    /// with another shape) read as none: the timeline is painted whole rather than not at all,
    /// and the next sync writes them again.
    static func decode(_ json: String) -> ModerationRules {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return (try? decoder.decode(ModerationRules.self, from: Data(json.utf8))) ?? .none
    }
}
