/// A conversation around one message, as far as it is stored: the messages it replies to
/// (oldest first), the message itself, and the replies to it and to them, depth first, each
/// branch in the order it was written. What `timeline thread ID` shows; a Mastodon `/context`
/// file imported, or statuses synced, fill it.
public struct TimelineThread: Sendable, Hashable {
    /// One message of the conversation and how deep it sits: 0 for the oldest stored ancestor
    /// (the message itself when it replies to nothing stored), one more for each reply level.
    public struct Entry: Sendable, Hashable {
        public var message: Message
        public var depth: Int
    }

    /// The conversation in reading order.
    public var entries: [Entry]
    /// The ID the thread was asked for.
    public var focusID: String
    /// The message the oldest stored ancestor replies to, when that one is not stored: the
    /// conversation goes on above what is shown.
    public var missingParentID: String?
    /// Whether replies were left out at `maximumReplies` (or below `maximumDepth`).
    public var isCut: Bool
    /// The messages entries repost or quote, and every user the entries show.
    public var page: TimelinePage

    /// How far up a thread is followed: a reply chain longer than this is cut at its top.
    public static let maximumAncestors = 200
    /// How deep replies are followed.
    public static let maximumDepth = 64
}

extension TimelineStore {
    /// The conversation around the stored message `id`, read in one transaction: its stored
    /// ancestors (up to `TimelineThread.maximumAncestors`) and at most `maximumReplies` replies
    /// below it, found through the index of replies (`messages_by_reply`, schema 7), so a
    /// thread costs what it holds, not the size of the timeline.
    ///
    /// - Throws: `.unknownMessages` when no message has the ID.
    public func thread(around id: String, maximumReplies: Int = 1_000) throws(TimelineStoreError) -> TimelineThread {
        let found = try read { reader throws(SQLiteError) -> TimelineThread? in
            guard let focus = try reader.messages(ids: [id]).first else { return nil }
            var ancestors: [Message] = []
            var parentID = focus.replyToID
            var missing: String?
            var seen: Set<String> = [focus.id]
            // A reply chain that loops (a file can say anything) stops where it comes back.
            while let next = parentID, ancestors.count < TimelineThread.maximumAncestors, seen.insert(next).inserted {
                // A parent the person's rules hide ends the walk up as one not stored does.
                guard let parent = try reader.messages(ids: [next], visibleOnly: true).first else {
                    missing = next
                    break
                }
                ancestors.append(parent)
                parentID = parent.replyToID
            }
            let top = ancestors.count
            var entries = ancestors.reversed().enumerated().map { TimelineThread.Entry(message: $0.element, depth: $0.offset) }
            entries.append(TimelineThread.Entry(message: focus, depth: top))
            // The walk down stops at a message already shown, as the walk up does: in a loop the
            // message itself and its ancestors are replies to one another.
            let replies = try reader.replies(to: focus.id, excluding: seen, limit: max(0, maximumReplies) + 1)
            let isCut = replies.count > maximumReplies || replies.contains { $0.depth >= TimelineThread.maximumDepth }
            for reply in replies.prefix(max(0, maximumReplies)) {
                entries.append(TimelineThread.Entry(message: reply.message, depth: top + reply.depth))
            }
            let page = try reader.completePage(messages: entries.map(\.message), nextCursor: nil)
            return TimelineThread(entries: entries, focusID: focus.id, missingParentID: missing, isCut: isCut, page: page)
        }
        guard let found else { throw .unknownMessages(ids: [id], given: 1) }
        return found
    }
}

extension TimelineReader {
    /// The replies below `id`, depth first, each level in the order written (depth 1 for a
    /// direct reply), none of `excluded` nor below one. Each level is one lookup in the index
    /// of replies.
    ///
    /// Each message replies to at most one, so a walk down can meet a message twice only by
    /// coming back round a loop to `id` itself: with `id` among `excluded`, no message is met
    /// twice.
    func replies(to id: String, excluding excluded: Set<String>, limit: Int) throws(SQLiteError) -> [(message: Message, depth: Int)] {
        let statement = try connection.statement("""
            WITH RECURSIVE replies(reply_id, depth, path) AS (
                SELECT id, 1, printf('%020d', created_at) || id FROM messages
                WHERE reply_to_id = ?1 AND id NOT IN (SELECT value FROM json_each(?3))
                UNION ALL
                SELECT m.id, r.depth + 1, r.path || '/' || printf('%020d', m.created_at) || m.id
                FROM replies AS r JOIN messages AS m ON m.reply_to_id = r.reply_id
                WHERE r.depth < \(TimelineThread.maximumDepth) AND m.id NOT IN (SELECT value FROM json_each(?3))
            )
            SELECT \(MessageColumns.select), replies.depth FROM replies JOIN messages ON messages.id = replies.reply_id
            WHERE messages.hidden IS NULL
            ORDER BY replies.path LIMIT ?2
            """)
        defer { statement.reset() }
        try statement.bind(id, at: 1)
        try statement.bind(limit, at: 2)
        try statement.bind(SQLiteJSONArray(excluded.sorted()), at: 3)
        var result: [(message: Message, depth: Int)] = []
        while try statement.step() {
            result.append((MessageColumns.message(from: statement), statement.int(at: MessageColumns.count)))
        }
        return result
    }
}
