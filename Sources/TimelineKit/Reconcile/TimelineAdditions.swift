/// A place in the order messages were first stored: what `TimelineStore.additions(after:limit:)`
/// lists messages stored after. Made by `TimelineStore.additionCursor()`, then taken from each
/// answer. A value: keep it as long as you like, in memory (it is not meant to be saved).
public struct AdditionCursor: Sendable, Hashable {
    /// A message the cursor remembers as stored before it: its sequence number (`messages.seq`,
    /// which grows with every insert) and ID.
    struct Anchor: Sendable, Hashable {
        var sequence: Int64
        var id: String
    }

    /// The newest messages stored when the cursor was made (or its batch was finished), newest
    /// first; empty for a database that held none.
    ///
    /// More than one, because SQLite numbers a new row one past the largest number in use: when
    /// the newest messages are deleted, the next insert reuses a number. The newest anchor that
    /// is still stored under its ID tells where the new messages start (everything numbered
    /// above it was stored after it); only if all of them were deleted is that unknown.
    var anchors: [Anchor]

    /// A batch being listed page by page: the messages numbered in `floor + 1 ... top`, in
    /// timeline order (oldest first), and where the last page ended.
    var batch: Batch?

    struct Batch: Sendable, Hashable {
        var floor: Int64
        var top: Int64
        var after: TimelineCursor
    }

    /// How many of the newest messages a cursor remembers.
    static let anchorCount = 16
}

/// Messages stored after an `AdditionCursor`, oldest first: one answer of
/// `TimelineStore.additions(after:limit:)`.
public struct TimelineAdditions: Sendable, Hashable {
    /// The messages stored after the cursor, **oldest first** (by creation time, then ID), with
    /// the messages they repost or quote among `related` and every author among `users`, ready
    /// for `TimelineRenderer` and `JSONLinesExporter.line(for:author:)`.
    public var page: TimelinePage
    /// Where the next call starts.
    public var cursor: AdditionCursor
    /// Whether messages stored before this call remain to be listed: call again at once. Each
    /// call is one short read transaction, however many messages a writer added.
    public var hasMore: Bool
    /// True when every one of the newest messages the cursor remembered was deleted before this
    /// call. SQLite may then have given a message stored meanwhile the number of a deleted one,
    /// which makes it look older than the cursor, so such a message may be missing here. It takes
    /// deleting the 16 most recently stored messages and storing others between two calls.
    public var mayHaveMissedSome: Bool
}

extension TimelineStore {
    /// A cursor at the newest message stored now: `additions(after:)` lists what is stored after.
    ///
    /// ```swift
    /// var cursor = try store.additionCursor()
    /// // … later, or each time `changes(since:)` yields:
    /// var more = true
    /// while more {
    ///     let added = try store.additions(after: cursor)
    ///     for message in added.page.messages { print(message.text) }  // oldest first
    ///     cursor = added.cursor
    ///     more = added.hasMore
    /// }
    /// ```
    ///
    /// To show a window and then every message added after it, make the cursor **before** reading
    /// the window: a message stored in between then comes in both, and is easy to skip by ID,
    /// whereas the other order could miss it.
    public func additionCursor() throws(TimelineStoreError) -> AdditionCursor {
        try read { reader throws(SQLiteError) in AdditionCursor(anchors: try reader.newestAnchors(atMost: Int64.max)) }
    }

    /// Up to `limit` of the messages stored after `cursor`, oldest first — new messages and
    /// back-filled old ones alike, whoever stored them (another process, the `sqlite3` shell) —
    /// and the cursor to continue from.
    ///
    /// The messages stored after the cursor when a listing starts make one batch, listed in
    /// timeline order across pages (`hasMore` says another page follows); messages stored while
    /// it is paged come in the next batch. A message updated in place is not listed again; one
    /// deleted before it is listed is not listed at all.
    ///
    /// Cost: a batch of at most `limit` messages is read by sequence number, whatever the size of
    /// the database. A larger batch is paged along the `messages_by_time` index from its oldest
    /// message, so its pages together read the index entries of every message newer than that.
    public func additions(after cursor: AdditionCursor, limit: Int = 200) throws(TimelineStoreError) -> TimelineAdditions {
        let limit = max(1, limit)
        return try read { reader throws(SQLiteError) -> TimelineAdditions in
            var mayHaveMissedSome = false
            let batch: AdditionCursor.Batch
            if let started = cursor.batch {
                batch = started
            } else {
                let floor = try reader.newestSurvivingAnchor(of: cursor.anchors)
                mayHaveMissedSome = floor == nil && !cursor.anchors.isEmpty
                let top = try reader.largestSequence()
                // Unknown floor: start below the lowest anchor, which all messages older than
                // the anchors have (nothing is listed twice; a reused number may be missed).
                let start = floor ?? max(0, (cursor.anchors.last?.sequence ?? 1).saturatingSubtracting(1))
                guard top > start else {
                    return TimelineAdditions(
                        page: TimelinePage(messages: []), cursor: AdditionCursor(anchors: try reader.newestAnchors(atMost: top)),
                        hasMore: false, mayHaveMissedSome: mayHaveMissedSome)
                }
                // The usual case, a few new messages: all of them by number, sorted here.
                let few = try reader.messages(numberedAbove: start, upTo: top, limit: limit.saturatingAdding(1))
                if few.count <= limit {
                    // Oldest first, IDs compared by their bytes as SQLite's BINARY collation
                    // does, so that both paths give the same order.
                    let sorted = few.sorted {
                        let (left, right) = (MillisecondTime.milliseconds(from: $0.createdAt), MillisecondTime.milliseconds(from: $1.createdAt))
                        return left != right ? left < right : $0.id.utf8.lexicographicallyPrecedes($1.id.utf8)
                    }
                    return TimelineAdditions(
                        page: try reader.completePage(messages: sorted, nextCursor: nil),
                        cursor: AdditionCursor(anchors: try reader.newestAnchors(atMost: top)),
                        hasMore: false, mayHaveMissedSome: mayHaveMissedSome)
                }
                let oldest = try reader.oldestCreation(numberedAbove: start, upTo: top)
                // An empty ID sorts before every stored one at the same time.
                batch = AdditionCursor.Batch(floor: start, top: top, after: TimelineCursor(createdAtMilliseconds: oldest, id: ""))
            }
            let page = try reader.messagesInTimelineOrder(numberedAbove: batch.floor, upTo: batch.top, after: batch.after, limit: limit.saturatingAdding(1))
            let shown = Array(page.prefix(limit))
            let next: AdditionCursor
            if page.count > limit, let last = shown.last {
                next = AdditionCursor(anchors: cursor.anchors, batch: AdditionCursor.Batch(floor: batch.floor, top: batch.top, after: last.cursor))
            } else {
                next = AdditionCursor(anchors: try reader.newestAnchors(atMost: batch.top))
            }
            return TimelineAdditions(page: try reader.completePage(messages: shown, nextCursor: nil), cursor: next,
                                     hasMore: next.batch != nil, mayHaveMissedSome: mayHaveMissedSome)
        }
    }
}

extension TimelineReader {
    /// The newest stored messages numbered at most `top`, newest first.
    func newestAnchors(atMost top: Int64) throws(SQLiteError) -> [AdditionCursor.Anchor] {
        let statement = try connection.statement("SELECT seq, id FROM messages WHERE seq <= ?1 ORDER BY seq DESC LIMIT ?2")
        defer { statement.reset() }
        try statement.bind(top, at: 1)
        try statement.bind(AdditionCursor.anchorCount, at: 2)
        var anchors: [AdditionCursor.Anchor] = []
        while try statement.step() { anchors.append(.init(sequence: statement.int64(at: 0), id: statement.text(at: 1))) }
        return anchors
    }

    /// The number of the newest of `anchors` still stored under its ID: every message numbered
    /// above it was stored after the anchors were taken. 0 when there are no anchors (an empty
    /// database, where everything is new); `nil` when none is left.
    func newestSurvivingAnchor(of anchors: [AdditionCursor.Anchor]) throws(SQLiteError) -> Int64? {
        guard !anchors.isEmpty else { return 0 }
        let statement = try connection.statement("SELECT id FROM messages WHERE seq = ?1")
        for anchor in anchors {
            defer { statement.reset() }
            try statement.bind(anchor.sequence, at: 1)
            if try statement.step(), statement.text(at: 0) == anchor.id { return anchor.sequence }
        }
        return nil
    }

    func largestSequence() throws(SQLiteError) -> Int64 {
        let statement = try connection.statement("SELECT coalesce(max(seq), 0) FROM messages")
        defer { statement.reset() }
        return try statement.step() ? statement.int64(at: 0) : 0
    }

    /// Up to `limit` messages numbered in `floor + 1 ... top`, in the order they were stored.
    func messages(numberedAbove floor: Int64, upTo top: Int64, limit: Int) throws(SQLiteError) -> [Message] {
        let statement = try connection.statement(
            "SELECT \(MessageColumns.select) FROM messages WHERE seq > ?1 AND seq <= ?2 AND hidden IS NULL ORDER BY seq LIMIT ?3")
        defer { statement.reset() }
        try statement.bind(floor, at: 1)
        try statement.bind(top, at: 2)
        try statement.bind(limit, at: 3)
        var messages: [Message] = []
        while try statement.step() { messages.append(MessageColumns.message(from: statement)) }
        return messages
    }

    /// The earliest creation time among the messages numbered in `floor + 1 ... top`.
    func oldestCreation(numberedAbove floor: Int64, upTo top: Int64) throws(SQLiteError) -> Int64 {
        let statement = try connection.statement("SELECT min(created_at) FROM messages WHERE seq > ?1 AND seq <= ?2")
        defer { statement.reset() }
        try statement.bind(floor, at: 1)
        try statement.bind(top, at: 2)
        return try statement.step() ? statement.int64(at: 0) : 0
    }

    static let additionsInTimelineOrderSQL = additionsInTimelineOrder(naming: "INDEXED BY messages_by_time")

    /// The same through the view that reads a database older than migration 16 in a read-only
    /// place (`TimelineStore.addMissingMessageColumns`): a view has no index to name, and
    /// SQLite refuses `INDEXED BY` on it ("no such index"); its planner walks the table's
    /// index by itself for this ORDER BY.
    static let additionsInTimelineOrderThroughViewSQL = additionsInTimelineOrder(naming: "")

    private static func additionsInTimelineOrder(naming index: String) -> String {
        """
        SELECT \(MessageColumns.select) FROM messages \(index)
        WHERE (created_at, id) > (?3, ?4) AND seq > ?1 AND seq <= ?2 AND hidden IS NULL
        ORDER BY created_at, id LIMIT ?5
        """
    }

    /// Up to `limit` messages numbered in `floor + 1 ... top` that come after `after` in
    /// timeline order read oldest first. The walk goes up `messages_by_time`, whose entries hold
    /// the number (the rowid), so messages outside the batch are skipped without reading them.
    func messagesInTimelineOrder(
        numberedAbove floor: Int64, upTo top: Int64, after: TimelineCursor, limit: Int
    ) throws(SQLiteError) -> [Message] {
        // Asked here, on the path of a batch too large to sort, not at every reconcile.
        let throughView = try connection.statement("SELECT 1 FROM temp.sqlite_master WHERE type = 'view' AND name = 'messages'")
        let isView = try throughView.step()
        throughView.reset()
        let statement = try connection.statement(isView ? Self.additionsInTimelineOrderThroughViewSQL : Self.additionsInTimelineOrderSQL)
        defer { statement.reset() }
        try statement.bind(floor, at: 1)
        try statement.bind(top, at: 2)
        try statement.bind(after.createdAtMilliseconds, at: 3)
        try statement.bind(after.id, at: 4)
        try statement.bind(limit, at: 5)
        var messages: [Message] = []
        while try statement.step() { messages.append(MessageColumns.message(from: statement)) }
        return messages
    }
}
