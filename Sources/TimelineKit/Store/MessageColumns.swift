#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a `Message` maps to a row of the `messages` table: the one place that knows the column
/// order, so the SELECTs, the upsert and the decoding cannot drift apart.
enum MessageColumns {
    /// The stored columns, in the order `bind` fills the upsert's parameters.
    static let stored = """
        id, author_id, text, created_at, edited_at, reply_to_id, reply_to_user_id, repost_of_id, \
        quote_of_id, content_warning, url, attachments, like_count, repost_count, reply_count
        """

    /// Whether the `messages` row named `table` in the query is read: the one place that knows
    /// how read state is stored (a message is unread exactly when its `seq` is in
    /// `unread_messages`).
    static func isRead(_ table: String) -> String {
        "NOT EXISTS (SELECT 1 FROM unread_messages WHERE unread_messages.seq = \(table).seq)"
    }

    /// The columns every message SELECT returns, in the order `message(from:)` reads them, for a
    /// query that names the messages table `table` (its alias, if it has one).
    static func select(from table: String) -> String {
        "\(stored), \(isRead(table)), \(table).seq"
    }

    /// How many columns `select` returns: a query that adds its own reads them from here on.
    static let count: Int32 = 17

    /// `select(from:)` for a query over `messages` under its own name.
    static let select = select(from: "messages")

    /// Inserts a message, or updates the stored one with the same ID in place — only when
    /// something differs, so that storing the same API result twice changes nothing (and does not
    /// move the generation). The read state is not a column: see `TimelineTransaction.upsert`.
    static let upsert = """
        INSERT INTO messages (\(stored))
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
        ON CONFLICT (id) DO UPDATE SET
            author_id = excluded.author_id, text = excluded.text, created_at = excluded.created_at,
            edited_at = excluded.edited_at, reply_to_id = excluded.reply_to_id,
            reply_to_user_id = excluded.reply_to_user_id, repost_of_id = excluded.repost_of_id,
            quote_of_id = excluded.quote_of_id, content_warning = excluded.content_warning,
            url = excluded.url, attachments = excluded.attachments, like_count = excluded.like_count,
            repost_count = excluded.repost_count, reply_count = excluded.reply_count
        WHERE (author_id, text, created_at, edited_at, reply_to_id, reply_to_user_id, repost_of_id,
               quote_of_id, content_warning, url, attachments, like_count, repost_count, reply_count)
           IS NOT (excluded.author_id, excluded.text, excluded.created_at, excluded.edited_at,
               excluded.reply_to_id, excluded.reply_to_user_id, excluded.repost_of_id,
               excluded.quote_of_id, excluded.content_warning, excluded.url, excluded.attachments,
               excluded.like_count, excluded.repost_count, excluded.reply_count)
        """

    /// Marks one message read by its sequence number (a message this transaction just inserted).
    static let markSequenceRead = "DELETE FROM unread_messages WHERE seq = ?1"
    /// Sets one stored message's read state from its ID, changing nothing when it already has it.
    static let markIDRead = "DELETE FROM unread_messages WHERE seq = (SELECT seq FROM messages WHERE id = ?1)"
    static let markIDUnread = "INSERT OR IGNORE INTO unread_messages (seq) SELECT seq FROM messages WHERE id = ?1"

    static func bind(_ message: Message, to statement: SQLiteStatement) throws(SQLiteError) {
        try statement.bind(message.id, at: 1)
        try statement.bind(message.authorID, at: 2)
        try statement.bind(message.text, at: 3)
        try statement.bind(MillisecondTime.milliseconds(from: message.createdAt), at: 4)
        try statement.bind(message.editedAt.map(MillisecondTime.milliseconds(from:)), at: 5)
        try statement.bind(message.replyToID, at: 6)
        try statement.bind(message.replyToUserID, at: 7)
        try statement.bind(message.repostOfID, at: 8)
        try statement.bind(message.quoteOfID, at: 9)
        try statement.bind(message.contentWarning, at: 10)
        try statement.bind(message.url, at: 11)
        try statement.bind(AttachmentsColumn.encode(message.attachments), at: 12)
        try statement.bind(message.likeCount, at: 13)
        try statement.bind(message.repostCount, at: 14)
        try statement.bind(message.replyCount, at: 15)
    }

    /// The message in the current row of a statement that selected `select`.
    static func message(from row: SQLiteStatement) -> Message {
        Message(
            id: row.text(at: 0),
            authorID: row.text(at: 1),
            text: row.text(at: 2),
            createdAt: MillisecondTime.date(fromMilliseconds: row.int64(at: 3)),
            editedAt: row.optionalInt64(at: 4).map(MillisecondTime.date(fromMilliseconds:)),
            replyToID: row.optionalText(at: 5),
            replyToUserID: row.optionalText(at: 6),
            repostOfID: row.optionalText(at: 7),
            quoteOfID: row.optionalText(at: 8),
            contentWarning: row.optionalText(at: 9),
            url: row.optionalText(at: 10),
            attachments: AttachmentsColumn.decode(row.optionalText(at: 11)),
            likeCount: row.int(at: 12),
            repostCount: row.int(at: 13),
            replyCount: row.int(at: 14),
            isRead: row.bool(at: 15),
            shortReference: ShortReference(sequence: row.int64(at: 16))
        )
    }
}

/// The `attachments` column: a JSON array of `{"alt_text", "kind", "url"}` objects (keys sorted,
/// absent values left out), readable from the `sqlite3` shell, NULL when there are none.
///
/// Written and read by hand with the import's encoder and parser: Foundation's JSONEncoder and
/// JSONDecoder cost tens of microseconds a message, which showed in ingest and in every snapshot
/// write, and JSONEncoder's key order is not stable (the upsert compares the column's text, so a
/// different order would count as a change).
enum AttachmentsColumn {
    static func encode(_ attachments: [Attachment]) -> String? {
        guard !attachments.isEmpty else { return nil }
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        for (index, attachment) in attachments.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "{"))
            if let altText = attachment.altText {
                bytes += Array(#""alt_text":"#.utf8)
                JSONLineEncoder.appendString(altText, to: &bytes)
                bytes.append(UInt8(ascii: ","))
            }
            bytes += Array(#""kind":"#.utf8)
            JSONLineEncoder.appendString(attachment.kind, to: &bytes)
            if let url = attachment.url {
                bytes += Array(#","url":"#.utf8)
                JSONLineEncoder.appendString(url, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Unreadable JSON (written by hand with the `sqlite3` shell) reads as no attachments rather
    /// than making the whole timeline unreadable; entries without a string `kind` are skipped.
    static func decode(_ json: String?) -> [Attachment] {
        guard var json, !json.isEmpty else { return [] }
        return json.withUTF8 { bytes -> [Attachment] in
            var parser = JSONTreeParser(bytes)
            guard let document = try? parser.nextDocument(), let elements = document.arrayValue else { return [] }
            return elements.compactMap { element -> Attachment? in
                guard let kind = element["kind"]?.stringValue else { return nil }
                return Attachment(kind: kind, url: element["url"]?.stringValue, altText: element["alt_text"]?.stringValue)
            }
        }
    }
}
