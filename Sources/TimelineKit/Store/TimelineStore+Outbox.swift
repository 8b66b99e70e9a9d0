#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The outbox (`outbox`, migration 13; see ``OutboxEntry``): posts, edits, votes, follows,
/// unfollows and deletes written here before their request leaves and taken out once the
/// server has answered, so that none is lost, whether its server could not be reached or the
/// process was killed while it waited for the answer. A waiting post is stored as a message of
/// its own too (``OutboxEntry/placeholderID``), painted as pending, and taken out with it.
extension TimelineStore {
    /// Queues `change` for `account` under `key` in one transaction and answers the entry. A
    /// post also stores its stand-in message, written by `author` (stored too when it is not
    /// yet: the account's own user as far as it is known), read, at `date`: the next paint shows
    /// it at the top, pending. Moves the generation.
    public func enqueue(_ change: OutboxEntry.Change, account: String, author: User?, key: String,
                        at date: Date) throws(TimelineStoreError) -> OutboxEntry {
        let milliseconds = MillisecondTime.milliseconds(from: date)
        var entry = OutboxEntry(sequence: 0, account: account, change: change,
                                createdAt: MillisecondTime.date(fromMilliseconds: milliseconds), key: key)
        let knownAuthor = try author.map { user throws(TimelineStoreError) in try !users(ids: [user.id]).isEmpty } ?? true
        return try storeWrite { transaction throws(TimelineStoreError) -> OutboxEntry in
            if case let .post(draft) = change, let id = entry.placeholderID, let author {
                if !knownAuthor { try transaction.upsert(users: [author]) }
                try transaction.upsert(Message(id: id, authorID: author.id, text: draft.text, createdAt: entry.createdAt,
                                                replyToID: draft.replyTo, quoteOfID: draft.quoteOf,
                                                contentWarning: draft.contentWarning, isRead: true),
                                       readState: .overwrite)
            }
            entry.sequence = try transaction.connection.reportingStoreErrors { () throws(SQLiteError) -> Int64 in
                let statement = try transaction.connection.statement("""
                    INSERT INTO outbox (account, kind, target, text, reply_to, quote_of, content_warning, visibility,
                                        languages, choices, created_at, key, attempts)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, 0)
                    """)
                defer { statement.reset() }
                try statement.bind(account, at: 1)
                try statement.bind(change.kind, at: 2)
                switch change {
                case let .post(draft):
                    try statement.bind(entry.placeholderID ?? "", at: 3)
                    try statement.bind(draft.text, at: 4)
                    try statement.bind(draft.replyTo, at: 5)
                    try statement.bind(draft.quoteOf, at: 6)
                    try statement.bind(draft.contentWarning, at: 7)
                    try statement.bind(draft.visibility?.rawValue, at: 8)
                    try statement.bind(draft.languages.joined(separator: " "), at: 9)
                case let .edit(id, text):
                    try statement.bind(id, at: 3)
                    try statement.bind(text, at: 4)
                case let .vote(id, choices):
                    try statement.bind(id, at: 3)
                    try statement.bind(choices.map(String.init).joined(separator: ","), at: 10)
                case let .follow(handle), let .unfollow(handle):
                    try statement.bind(handle, at: 3)
                case let .delete(id):
                    try statement.bind(id, at: 3)
                }
                try statement.bind(milliseconds, at: 11)
                try statement.bind(key, at: 12)
                try statement.run()
                try transaction.connection.execute("UPDATE timeline_state SET generation = generation + 1 WHERE singleton = 1")
                return transaction.connection.lastInsertRowID
            }
            return entry
        }
    }

    /// The waiting changes, oldest first: all of them, or `account`'s. None in a database this
    /// library has not migrated yet.
    public func outbox(account: String? = nil) throws(TimelineStoreError) -> [OutboxEntry] {
        try read { reader throws(SQLiteError) in try reader.outbox(account: account) }
    }

    /// Counts a request about to be sent for the entry `sequence` (as
    /// ``noteAttempt(of:)`` does for an action). Paints nothing new.
    public func noteOutboxAttempt(of sequence: Int64) throws(TimelineStoreError) {
        try changeAttempts(of: sequence, by: "attempts + 1")
    }

    /// Takes back the try counted by ``noteOutboxAttempt(of:)``: it cannot have been done.
    public func forgetOutboxAttempt(of sequence: Int64) throws(TimelineStoreError) {
        try changeAttempts(of: sequence, by: "max(0, attempts - 1)")
    }

    private func changeAttempts(of sequence: Int64, by expression: String) throws(TimelineStoreError) {
        try storeWrite(refreshingSnapshot: false) { transaction throws(TimelineStoreError) in
            try transaction.connection.reportingStoreErrors { () throws(SQLiteError) in
                let statement = try transaction.connection.statement("UPDATE outbox SET attempts = \(expression) WHERE sequence = ?1")
                defer { statement.reset() }
                try statement.bind(sequence, at: 1)
                try statement.run()
            }
        }
    }

    /// Takes `entry` out (its server answered, or refused it) in one transaction, with a post's
    /// stand-in message, and moves the generation. Nothing when it is not queued.
    public func removeOutboxEntry(_ entry: OutboxEntry) throws(TimelineStoreError) {
        try storeWrite { transaction throws(TimelineStoreError) in try transaction.removeOutboxEntry(entry) }
    }
}

extension TimelineTransaction {
    /// Takes `entry` out of the outbox, with a post's stand-in message: in the transaction that
    /// stores the server's post, the one replaces the other at once.
    public func removeOutboxEntry(_ entry: OutboxEntry) throws(TimelineStoreError) {
        if let placeholder = entry.placeholderID { try deleteMessages(ids: [placeholder]) }
        try connection.reportingStoreErrors { () throws(SQLiteError) in
            let statement = try connection.statement("DELETE FROM outbox WHERE sequence = ?1")
            defer { statement.reset() }
            try statement.bind(entry.sequence, at: 1)
            try statement.run()
            guard connection.changes > 0 else { return }
            try connection.execute("UPDATE timeline_state SET generation = generation + 1 WHERE singleton = 1")
        }
    }
}

extension TimelineReader {
    /// The outbox, oldest first, of `account` (all when `nil`); empty in a database without the
    /// table (not migrated yet, and not writable).
    func outbox(account: String?) throws(SQLiteError) -> [OutboxEntry] {
        guard let statement = try? connection.statement("""
            SELECT sequence, account, kind, target, text, reply_to, quote_of, content_warning, visibility,
                   languages, choices, created_at, key, attempts
            FROM outbox WHERE ?1 IS NULL OR account = ?1 ORDER BY sequence
            """) else { return [] }
        defer { statement.reset() }
        try statement.bind(account, at: 1)
        var result: [OutboxEntry] = []
        while try statement.step() {
            let target = statement.text(at: 3)
            let change: OutboxEntry.Change
            switch statement.text(at: 2) {
            case "post":
                change = .post(PostDraft(text: statement.optionalText(at: 4) ?? "", replyTo: statement.optionalText(at: 5),
                                         quoteOf: statement.optionalText(at: 6), contentWarning: statement.optionalText(at: 7),
                                         visibility: statement.optionalText(at: 8).flatMap(PostVisibility.init(rawValue:)),
                                         languages: (statement.optionalText(at: 9) ?? "").split(separator: " ").map(String.init)))
            case "edit": change = .edit(messageID: target, text: statement.optionalText(at: 4) ?? "")
            case "vote":
                change = .vote(messageID: target, choices: (statement.optionalText(at: 10) ?? "").split(separator: ",").compactMap { Int($0) })
            case "follow": change = .follow(handle: target)
            case "unfollow": change = .unfollow(handle: target)
            case "delete": change = .delete(messageID: target)
            // A change this library does not know (written by a newer one) is left for that
            // library to send.
            default: continue
            }
            result.append(OutboxEntry(sequence: statement.int64(at: 0), account: statement.text(at: 1), change: change,
                                      createdAt: MillisecondTime.date(fromMilliseconds: statement.int64(at: 11)),
                                      key: statement.text(at: 12), attempts: statement.int(at: 13)))
        }
        return result
    }
}
