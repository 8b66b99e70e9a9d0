#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The outbox (``OutboxEntry``: rows of `pending_actions` whose `action` is a change's kind,
/// with its `payload`, migration 14): posts, edits, votes, follows, unfollows and deletes
/// written here before their request leaves and taken out once the server has answered, so that none is lost, whether its server could not be reached or the
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
                // Beside the waiting favourites (one table: every schema object costs each
                // launch of `show` its parse), what the change carries in `payload`.
                let statement = try transaction.connection.statement("""
                    INSERT INTO pending_actions (account, message_id, action, created_at, key, attempts, payload)
                    VALUES (?1, ?3, ?2, ?11, ?12, 0,
                            json_object('text', ?4, 'reply_to', ?5, 'quote_of', ?6, 'content_warning', ?7,
                                        'visibility', ?8, 'languages', ?9, 'choices', ?10, 'until', ?13,
                                        'post_options', json(?14), 'pictures', json(?15)))
                    """)
                defer { statement.reset() }
                try statement.bind(account, at: 1)
                try statement.bind(change.kind, at: 2)
                var text: String?, replyTo: String?, quoteOf: String?, warning: String?, visibility: String?
                var languages: String?, choices: String?, until: Int64?
                let target: String
                switch change {
                case let .post(draft):
                    target = entry.placeholderID ?? ""
                    (text, replyTo, quoteOf, warning) = (draft.text, draft.replyTo, draft.quoteOf, draft.contentWarning)
                    visibility = draft.visibility?.rawValue
                    languages = draft.languages.joined(separator: " ")
                case let .edit(id, newText):
                    (target, text) = (id, newText)
                case let .vote(id, chosen):
                    (target, choices) = (id, chosen.map(String.init).joined(separator: ","))
                case let .follow(handle), let .unfollow(handle):
                    target = handle
                case let .delete(id):
                    target = id
                // The account's handle or the word, and when its mute ends (milliseconds).
                case let .mute(handle, end), let .muteWord(handle, end):
                    (target, until) = (handle, end.map(MillisecondTime.milliseconds(from:)))
                case let .unmute(handle), let .block(handle), let .unblock(handle), let .unmuteWord(handle):
                    target = handle
                }
                try statement.bind(target, at: 3)
                for (index, value) in [text, replyTo, quoteOf, warning, visibility, languages, choices].enumerated() {
                    try statement.bind(value, at: Int32(4 + index))
                }
                try statement.bind(milliseconds, at: 11)
                try statement.bind(key, at: 12)
                try statement.bind(until, at: 13)
                // Issue 36's options, one JSON object (NULL when the draft sets none), and its pictures.
                var postOptions: String?, pictures: String?
                if case let .post(draft) = change {
                    postOptions = PostOptionsPayload.encode(draft)
                    pictures = OutboxPictures.json(draft.pictures)
                }
                try statement.bind(postOptions, at: 14)
                try statement.bind(pictures, at: 15)
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
                let statement = try transaction.connection.statement("UPDATE pending_actions SET attempts = \(expression) WHERE sequence = ?1")
                defer { statement.reset() }
                try statement.bind(sequence, at: 1)
                try statement.run()
            }
        }
    }

    /// Takes `entry` out (its server answered, or refused it) in one transaction, with a post's
    /// stand-in message, and moves the generation. Nothing when it is not queued.
    ///
    /// With `published`, the post as its server published it (stored already): the stand-in
    /// becomes that post, keeping the short reference it was painted with, so that `bcb` names
    /// the same post before and after the sync that sent it (issue 34).
    public func removeOutboxEntry(_ entry: OutboxEntry, published: Message? = nil) throws(TimelineStoreError) {
        try storeWrite { transaction throws(TimelineStoreError) in try transaction.removeOutboxEntry(entry, published: published) }
        // Its pictures' copies go once it is out (sent, refused or taken back), not before.
        if case let .post(draft) = entry.change { OutboxPictures.remove(draft.pictures, keptBeside: path) }
    }
}

extension TimelineTransaction {
    /// Takes `entry` out of the outbox, with a post's stand-in message: in the transaction that
    /// stores the server's post, the one replaces the other at once. With `published` (the
    /// server's post, stored), the stand-in's row takes its ID and columns and keeps its number,
    /// so its short reference goes on naming the post; the row the server's post was stored in
    /// is removed (its number retired: it was never painted as the post's reference).
    public func removeOutboxEntry(_ entry: OutboxEntry, published: Message? = nil) throws(TimelineStoreError) {
        if let placeholder = entry.placeholderID {
            if let published, published.id != placeholder, try message(id: placeholder) != nil {
                let read = try message(id: published.id)?.isRead ?? true
                try deleteMessages(ids: [published.id])
                try connection.reportingStoreErrors { () throws(SQLiteError) in
                    let rename = try connection.statement("UPDATE messages SET id = ?2 WHERE id = ?1")
                    defer { rename.reset() }
                    try rename.bind(placeholder, at: 1)
                    try rename.bind(published.id, at: 2)
                    try rename.run()
                }
                var adopted = published
                adopted.isRead = read
                try upsert(adopted, readState: .overwrite)
            } else {
                try deleteMessages(ids: [placeholder])
            }
        }
        try connection.reportingStoreErrors { () throws(SQLiteError) in
            let statement = try connection.statement("DELETE FROM pending_actions WHERE sequence = ?1")
            defer { statement.reset() }
            try statement.bind(entry.sequence, at: 1)
            try statement.run()
            guard connection.changes > 0 else { return }
            try connection.execute("UPDATE timeline_state SET generation = generation + 1 WHERE singleton = 1")
        }
    }
}

extension TimelineReader {
    /// The outbox, oldest first, of `account` (all when `nil`): the rows of `pending_actions`
    /// that carry a change (a kind this library knows: a newer one's are left for it); empty in a
    /// database without the payload column (not migrated yet, and not writable).
    func outbox(account: String?) throws(SQLiteError) -> [OutboxEntry] {
        guard let statement = try? connection.statement("""
            SELECT sequence, account, action, message_id, payload ->> 'text', payload ->> 'reply_to',
                   payload ->> 'quote_of', payload ->> 'content_warning', payload ->> 'visibility',
                   payload ->> 'languages', payload ->> 'choices', created_at, key, attempts, payload ->> 'until',
                   payload ->> 'post_options', payload ->> 'pictures'
            FROM pending_actions WHERE payload IS NOT NULL AND (?1 IS NULL OR account = ?1) ORDER BY sequence
            """) else { return [] }
        defer { statement.reset() }
        try statement.bind(account, at: 1)
        var result: [OutboxEntry] = []
        while try statement.step() {
            let target = statement.text(at: 3)
            let change: OutboxEntry.Change
            switch statement.text(at: 2) {
            case "post":
                var draft = PostDraft(text: statement.optionalText(at: 4) ?? "", replyTo: statement.optionalText(at: 5),
                                      quoteOf: statement.optionalText(at: 6), contentWarning: statement.optionalText(at: 7),
                                      visibility: statement.optionalText(at: 8).flatMap(PostVisibility.init(rawValue:)),
                                      languages: (statement.optionalText(at: 9) ?? "").split(separator: " ").map(String.init))
                PostOptionsPayload.decode(statement.optionalText(at: 15), into: &draft)
                draft.pictures = OutboxPictures.pictures(json: statement.optionalText(at: 16))
                change = .post(draft)
            case "edit": change = .edit(messageID: target, text: statement.optionalText(at: 4) ?? "")
            case "vote":
                change = .vote(messageID: target, choices: (statement.optionalText(at: 10) ?? "").split(separator: ",").compactMap { Int($0) })
            case "follow": change = .follow(handle: target)
            case "unfollow": change = .unfollow(handle: target)
            case "delete": change = .delete(messageID: target)
            case "mute", "mute-word":
                let until = statement.isNull(at: 14) ? nil : MillisecondTime.date(fromMilliseconds: statement.int64(at: 14))
                change = statement.text(at: 2) == "mute" ? .mute(handle: target, until: until) : .muteWord(target, until: until)
            case "unmute": change = .unmute(handle: target)
            case "block": change = .block(handle: target)
            case "unblock": change = .unblock(handle: target)
            case "unmute-word": change = .unmuteWord(target)
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
