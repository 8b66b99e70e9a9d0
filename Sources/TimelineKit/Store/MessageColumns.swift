#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a `Message` maps to a row of the `messages` table: its columns declared once, in
/// `visitColumns` below, from which the SELECTs, the upsert, the binding and the reading are all
/// made (`StoredColumns`), so they cannot drift apart.
enum MessageColumns {
    /// The stored columns: the upsert's parameter `?n` is column `n` (from 1).
    static let table = StoredColumns<Message>(table: "messages")

    /// Whether the `messages` row named `table` in the query is read: the one place that knows
    /// how read state is stored (a message is unread exactly when its `seq` is in
    /// `unread_messages`).
    static func isRead(_ table: String) -> String {
        "NOT EXISTS (SELECT 1 FROM unread_messages WHERE unread_messages.seq = \(table).seq)"
    }

    /// The columns every message SELECT returns, in the order `message(from:)` reads them (the
    /// stored ones, then the read state and the sequence number), for a query that names the
    /// messages table `table` (its alias, if it has one).
    static func select(from table: String) -> String {
        "\(MessageColumns.table.names), \(isRead(table)), \(table).seq"
    }

    /// How many columns `select` returns: a query that adds its own reads them from here on.
    static let count: Int32 = table.count + 2

    /// `select(from:)` for a query that joins `messages` to itself, each column named with
    /// `alias` (`m.id, m.author_id, …`). Not on `show`'s path (see `StoredColumns` on `map`).
    static func select(qualifiedBy alias: String) -> String {
        table.columns.map { alias + "." + $0 }.joined(separator: ", ") + ", \(isRead(alias)), \(alias).seq"
    }

    /// `select(from:)` for a query over `messages` under its own name.
    static let select = select(from: "messages")

    /// Inserts a message, or updates the stored one with the same ID in place — only when
    /// something differs, so that storing the same API result twice changes nothing (and does not
    /// move the generation): `insert`, then `update` when the insert changed nothing (see
    /// `StoredColumns.makeInsert` for why two statements). The read state is not a column: see
    /// `TimelineTransaction.upsert`.
    ///
    /// The insert also sets `seq`, from parameter `sequenceParameter`: see `firstFreeSequence`.
    static let insert = table.makeInsert(numbered: ("seq", "?" + String(sequenceParameter)))
    static let update = table.makeUpdate()
    static let sequenceParameter = table.count + 1

    /// The number a transaction's first new message gets, which its short reference spells:
    /// above every number a stored message has and every number a deleted one had
    /// (`timeline_state.retired_sequence`, kept by the delete trigger), so that a reference never
    /// names another message than the one it was painted beside (issue 34). SQLite alone would
    /// give the largest stored `seq` + 1 again. Read once a transaction and counted up from
    /// there (a subquery in the insert itself made every upsert open a statement journal).
    static let firstFreeSequence = """
        SELECT max(retired_sequence, ifnull((SELECT max(seq) FROM messages), 0)) + 1 FROM timeline_state
        """

    /// Marks one message read by its sequence number (a message this transaction just inserted).
    static let markSequenceRead = "DELETE FROM unread_messages WHERE seq = ?1"
    /// Sets one stored message's read state from its ID, changing nothing when it already has it.
    static let markIDRead = "DELETE FROM unread_messages WHERE seq = (SELECT seq FROM messages WHERE id = ?1)"
    static let markIDUnread = "INSERT OR IGNORE INTO unread_messages (seq) SELECT seq FROM messages WHERE id = ?1"

    static func bind(_ message: Message, to statement: SQLiteStatement) throws(SQLiteError) {
        try table.bind(message, to: statement)
    }

    /// The message in the current row of a statement that selected `select`.
    static func message(from row: SQLiteStatement) -> Message {
        var message = Message.blank
        table.read(from: row, into: &message)
        message.isRead = row.bool(at: table.count)
        message.shortReference = ShortReference(sequence: row.int64(at: table.count + 1))
        return message
    }
}

extension Message: StoredRecord {
    /// The stored columns; the read state and the short reference are not among them (see
    /// `MessageColumns.select`).
    mutating func visitColumns<Visitor: ColumnVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.visit(&id, "id")
        try visitor.visit(&authorID, "author_id")
        try visitor.visit(&text, "text")
        try visitor.visit(&createdAt, "created_at")
        try visitor.visit(&editedAt, "edited_at")
        try visitor.visit(&replyToID, "reply_to_id")
        try visitor.visit(&replyToUserID, "reply_to_user_id")
        try visitor.visit(&repostOfID, "repost_of_id")
        try visitor.visit(&quoteOfID, "quote_of_id")
        try visitor.visit(&contentWarning, "content_warning")
        try visitor.visit(&url, "url")
        try visitor.visit(&attachments, "attachments")
        try visitor.visit(&likeCount, "like_count")
        try visitor.visit(&repostCount, "repost_count")
        try visitor.visit(&replyCount, "reply_count")
        // Migration 16 (issue 34): who may see it, what its server said of it, and what the
        // person's rules made of that (`TimelineTransaction.upsert` decides the last two).
        try visitor.visit(&visibility, "visibility")
        try visitor.visit(&moderation, "moderation")
        try visitor.visit(&warning, "warning")
        try visitor.visit(&hiddenBecause, "hidden")
        // Migration 17 (issue 35): where it came from. NULL for a message stored before, whose
        // source is told by its ID (read after it, above) as it was before the column.
        var stored: MessageSource? = source
        try visitor.visit(&stored, "source")
        source = stored ?? .toldByID(id)
        // Migration 18 (issue 37): its web links; NULL for none and for a message stored before.
        var storedLinks = LinksColumn(links: links)
        try visitor.visit(&storedLinks, "links")
        links = storedLinks.links
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
