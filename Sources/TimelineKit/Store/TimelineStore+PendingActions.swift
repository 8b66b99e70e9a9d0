#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The queue of actions waiting for their server (`pending_actions`, migration 11; see
/// ``PendingAction``). Every action is written here before its request leaves and taken out in
/// the transaction that stores the server's answer, so an action is never lost, whether its
/// server could not be reached or the process was killed while it waited for the answer.
///
/// **Opposites cancel.** Queuing an action for a message whose last queued action of the same
/// kind is its opposite and was never sent (favourite, then unfavourite, while offline) takes
/// that one out and queues nothing: nothing is sent for either. One that may have reached its
/// server (``PendingAction/attempts`` above 0) is not cancelled: the new action is queued after
/// it, and both are sent in order. Queuing what is already the last queued action of its kind
/// queues nothing more.
public enum PendingEnqueue: Sendable, Hashable {
    /// Queued, to be sent.
    case queued(PendingAction)
    /// The same action was queued already; it stays, with its key.
    case alreadyQueued(PendingAction)
    /// Its opposite was queued and never sent: both are gone, nothing is to be sent.
    case cancelled(PendingAction)
}

extension TimelineTransaction {
    /// Queues `action` on `messageID` for `account` under `key`, or cancels it against its
    /// unsent opposite (``PendingEnqueue``). Moves the generation: the next paint shows it.
    public func enqueue(_ action: MessageAction, account: String, messageID: String, key: String,
                        at date: Date) throws(TimelineStoreError) -> PendingEnqueue {
        try connection.reportingStoreErrors { () throws(SQLiteError) -> PendingEnqueue in
            let reader = TimelineReader(connection: connection)
            let last = try reader.pendingActions(account: account, messageID: messageID).last { $0.action.kind == action.kind }
            if let last, last.action == action { return .alreadyQueued(last) }
            let answer: PendingEnqueue
            if let last, last.action == action.undo, last.attempts == 0 {
                try deletePendingAction(last.sequence)
                answer = .cancelled(last)
            } else {
                let statement = try connection.statement("""
                    INSERT INTO pending_actions (account, message_id, action, created_at, key, attempts)
                    VALUES (?1, ?2, ?3, ?4, ?5, 0)
                    """)
                defer { statement.reset() }
                try statement.bind(account, at: 1)
                try statement.bind(messageID, at: 2)
                try statement.bind(action.rawValue, at: 3)
                try statement.bind(MillisecondTime.milliseconds(from: date), at: 4)
                try statement.bind(key, at: 5)
                try statement.run()
                answer = .queued(PendingAction(sequence: connection.lastInsertRowID, account: account, messageID: messageID,
                                               action: action, createdAt: MillisecondTime.date(fromMilliseconds: MillisecondTime.milliseconds(from: date)),
                                               key: key))
            }
            try connection.execute("UPDATE timeline_state SET generation = generation + 1 WHERE singleton = 1")
            return answer
        }
    }

    /// Takes the queued action `sequence` out (its server answered, or refused it) and moves the
    /// generation: the message is painted as its server left it. Nothing when it is not queued.
    public func removePendingAction(_ sequence: Int64) throws(TimelineStoreError) {
        try connection.reportingStoreErrors { () throws(SQLiteError) in
            try deletePendingAction(sequence)
            guard connection.changes > 0 else { return }
            try connection.execute("UPDATE timeline_state SET generation = generation + 1 WHERE singleton = 1")
        }
    }

    private func deletePendingAction(_ sequence: Int64) throws(SQLiteError) {
        let statement = try connection.statement("DELETE FROM pending_actions WHERE sequence = ?1")
        defer { statement.reset() }
        try statement.bind(sequence, at: 1)
        try statement.run()
    }
}

extension TimelineStore {
    /// Queues `action` (``TimelineTransaction/enqueue(_:account:messageID:key:at:)``) in one
    /// transaction.
    public func enqueue(_ action: MessageAction, account: String, messageID: String, key: String,
                        at date: Date) throws(TimelineStoreError) -> PendingEnqueue {
        try storeWrite { transaction throws(TimelineStoreError) in
            try transaction.enqueue(action, account: account, messageID: messageID, key: key, at: date)
        }
    }

    /// The queued actions, oldest first: all of them, `account`'s, or those of `account` on
    /// `messageID`. A database this library has not migrated yet has none.
    public func pendingActions(account: String? = nil, messageID: String? = nil) throws(TimelineStoreError) -> [PendingAction] {
        try read { reader throws(SQLiteError) in try reader.pendingActions(account: account, messageID: messageID) }
    }

    /// Counts a request about to be sent for the queued action `sequence`: from now on its server
    /// may have done it, so its opposite no longer cancels it (unless the try is taken back:
    /// ``forgetAttempt(of:)``). Paints nothing new, so the generation stays.
    public func noteAttempt(of sequence: Int64) throws(TimelineStoreError) {
        try storeWrite(refreshingSnapshot: false) { transaction throws(TimelineStoreError) in
            try transaction.connection.reportingStoreErrors { () throws(SQLiteError) in
                let statement = try transaction.connection.statement("UPDATE pending_actions SET attempts = attempts + 1 WHERE sequence = ?1")
                defer { statement.reset() }
                try statement.bind(sequence, at: 1)
                try statement.run()
            }
        }
    }

    /// Takes back the try counted by ``noteAttempt(of:)`` for the queued action `sequence`: the
    /// request cannot have been done (the connection was refused; the server answered that it
    /// did not do it), so its opposite may cancel it again and a retry need not look first.
    public func forgetAttempt(of sequence: Int64) throws(TimelineStoreError) {
        try storeWrite(refreshingSnapshot: false) { transaction throws(TimelineStoreError) in
            try transaction.connection.reportingStoreErrors { () throws(SQLiteError) in
                let statement = try transaction.connection.statement("UPDATE pending_actions SET attempts = max(0, attempts - 1) WHERE sequence = ?1")
                defer { statement.reset() }
                try statement.bind(sequence, at: 1)
                try statement.run()
            }
        }
    }

    /// Takes the queued action `sequence` out in one transaction
    /// (``TimelineTransaction/removePendingAction(_:)``).
    public func removePendingAction(_ sequence: Int64) throws(TimelineStoreError) {
        try storeWrite { transaction throws(TimelineStoreError) in try transaction.removePendingAction(sequence) }
    }
}

extension TimelineReader {
    /// The queued actions, oldest first, of `account` (all when `nil`) on `messageID` (all when
    /// `nil`); none in a database without the table (not migrated yet, and not writable).
    func pendingActions(account: String?, messageID: String?) throws(SQLiteError) -> [PendingAction] {
        guard let statement = try? connection.statement("""
            SELECT sequence, account, message_id, action, created_at, key, attempts FROM pending_actions
            WHERE (?1 IS NULL OR account = ?1) AND (?2 IS NULL OR message_id = ?2) ORDER BY sequence
            """) else { return [] }
        defer { statement.reset() }
        try statement.bind(account, at: 1)
        try statement.bind(messageID, at: 2)
        var result: [PendingAction] = []
        while try statement.step() {
            // A row whose action this library does not know (written by a newer one) is left
            // for that library to send.
            guard let action = MessageAction(rawValue: statement.text(at: 3)) else { continue }
            result.append(PendingAction(sequence: statement.int64(at: 0), account: statement.text(at: 1),
                                        messageID: statement.text(at: 2), action: action,
                                        createdAt: MillisecondTime.date(fromMilliseconds: statement.int64(at: 4)),
                                        key: statement.text(at: 5), attempts: statement.int(at: 6)))
        }
        return result
    }

    /// The queued actions on `ids`, oldest first, as (message, action) pairs: what a page paints
    /// over the servers' word (``MessageInteraction/pending``). Nothing in a database without
    /// the table. The whole queue is read and `ids` looked up here: the queue is empty but for
    /// actions not yet answered, and reading an empty table costs a page nothing, where handing
    /// SQLite the page's IDs as a JSON array to match against it cost every snapshot build 5%
    /// of its instructions (callgrind, `show` with no snapshot on the sample timeline).
    ///
    /// The outbox's edits, votes and deletes (``OutboxEntry``, rows of the same table) come
    /// with no action (`nil`): their post is painted as pending, nothing more.
    func pendingActions(on ids: some Collection<String>) throws(SQLiteError) -> [(messageID: String, action: MessageAction?)] {
        guard !ids.isEmpty, let statement = try? connection.statement("""
            SELECT message_id, action FROM pending_actions ORDER BY sequence
            """) else { return [] }
        defer { statement.reset() }
        var result: [(messageID: String, action: MessageAction?)] = []
        var wanted: Set<String>?
        while try statement.step() {
            if wanted == nil { wanted = Set(ids) }
            let id = statement.text(at: 0)
            guard wanted?.contains(id) == true else { continue }
            let kind = statement.text(at: 1)
            if let action = MessageAction(rawValue: kind) {
                result.append((id, action))
            } else if kind == "edit" || kind == "vote" || kind == "delete" {
                result.append((id, nil))
            }
        }
        return result
    }
}
