/// The newest messages of the timeline, by rowid range: where the walk of a common word's
/// matches looks first (issue 28).
///
/// Walking the timeline index newest first, SQLite tests each message against the set of every
/// match of each term, and builds that set whole before the first test: 680,000 rowids for
/// `swift` at 1M messages, 1.2 G instructions, where the page needs 20. Asked for a rowid range,
/// FTS5 reads only that part of its doclists. So the walk first looks at the newest `size`
/// messages: their rowids span `rowids`, and the search keeps to messages in that span. Its
/// answer is exact when its last message is itself among those newest (`holds`): any match
/// newer than it is newer than the window's oldest, so in the window, so in the span. Otherwise
/// the search runs again over a larger window, and at last over the whole timeline. Rowids
/// follow arrival and the timeline follows time; they agree for what a sync or an import of an
/// export brings, and the span is then about `size` rowids wide. Where they do not (an old
/// archive imported after newer messages), the span widens toward the whole table and the
/// search costs what it did without a window.
struct TimelineWindow {
    /// The first window and each next one (the last step is the whole timeline).
    static let sizes = [4_096, 65_536]

    /// The lowest and highest rowid of the window's messages.
    let rowids: ClosedRange<Int64>
    /// How many messages the window asked for.
    let size: Int
    /// Whether the window holds every message (the timeline is shorter than `size`).
    let isWhole: Bool

    /// The newest `size` messages' window, or `nil` for an empty timeline.
    init?(newest size: Int, reader: TimelineReader) throws(SQLiteError) {
        let statement = try reader.connection.statement("""
            SELECT min(w.rowid), max(w.rowid), count(*)
            FROM (SELECT m.rowid FROM messages AS m WHERE m.hidden IS NULL ORDER BY m.created_at DESC, m.id DESC LIMIT ?1) AS w
            """)
        defer { statement.reset() }
        try statement.bind(Int64(size), at: 1)
        guard try statement.step(), !statement.isNull(at: 0) else { return nil }
        rowids = statement.int64(at: 0)...statement.int64(at: 1)
        self.size = size
        isWhole = statement.int(at: 2) < size
    }

    /// Whether the message with this ID is among the window's messages: no newer than the
    /// newest and no older than the oldest, in timeline order (time, then ID).
    func holds(messageID: String, reader: TimelineReader) throws(SQLiteError) -> Bool {
        if isWhole { return true }
        let statement = try reader.connection.statement("""
            SELECT EXISTS (SELECT 1 FROM messages AS e WHERE e.id = ?1 AND (e.created_at, e.id) >= (
                SELECT m.created_at, m.id FROM messages AS m WHERE m.hidden IS NULL
                ORDER BY m.created_at DESC, m.id DESC LIMIT 1 OFFSET ?2))
            """)
        defer { statement.reset() }
        try statement.bind(messageID, at: 1)
        try statement.bind(Int64(size - 1), at: 2)
        return try statement.step() && statement.int(at: 0) == 1
    }
}
