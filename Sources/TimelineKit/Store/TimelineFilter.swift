/// Which messages a timeline view keeps, and where it starts: `show --unread`, `--author`,
/// `--before`. A filtered view is read from the database (the snapshot holds the plain
/// timeline).
public struct TimelineFilter: Sendable, Hashable {
    /// Only unread messages.
    public var unreadOnly: Bool
    /// Only messages by the users with this handle (`@` optional), as `search --author` matches.
    public var authorHandle: String?
    /// Only messages older than the stored message with this ID: the page after it, for reading
    /// back past one screen.
    public var beforeID: String?

    public init(unreadOnly: Bool = false, authorHandle: String? = nil, beforeID: String? = nil) {
        self.unreadOnly = unreadOnly
        self.authorHandle = authorHandle
        self.beforeID = beforeID
    }

    /// Whether it keeps every message from the newest on: the plain timeline.
    public var isEmpty: Bool { !unreadOnly && authorHandle == nil && beforeID == nil }
}

extension TimelineStore {
    /// Up to `limit` messages that `filter` keeps, newest first, with what they repost or
    /// quote and their authors. Walks the timeline index from the newest (or from `beforeID`)
    /// and stops at `limit`, so a filter that keeps few messages reads further back.
    ///
    /// - Throws: `.unknownMessages` when `beforeID` names no stored message.
    public func timeline(limit: Int, filter: TimelineFilter) throws(TimelineStoreError) -> TimelinePage {
        let page = try read { reader throws(SQLiteError) -> TimelinePage? in
            var cursor: TimelineCursor?
            if let beforeID = filter.beforeID {
                guard let message = try reader.messages(ids: [beforeID]).first else { return nil }
                cursor = message.cursor
            }
            var authorIDs: [String]?
            if let handle = filter.authorHandle {
                authorIDs = try reader.users(handle: handle.hasPrefix("@") ? String(handle.dropFirst()) : handle).map(\.id)
            }
            return try reader.page(limit: limit, after: cursor, unreadOnly: filter.unreadOnly, authorIDs: authorIDs)
        }
        guard let page else { throw .unknownMessages(ids: [filter.beforeID ?? ""], given: 1) }
        return page
    }
}

extension TimelineReader {
    static let filteredSQL = """
        SELECT \(MessageColumns.select) FROM messages
        WHERE (?2 IS NULL OR (created_at, id) < (?2, ?3))
          AND (NOT ?4 OR EXISTS (SELECT 1 FROM unread_messages WHERE unread_messages.seq = messages.seq))
          AND (?5 IS NULL OR author_id IN (SELECT value FROM json_each(?5)))
          AND hidden IS NULL
        ORDER BY created_at DESC, id DESC LIMIT ?1
        """

    /// `page(limit:after:)` keeping only unread messages and messages by `authorIDs`, when given.
    func page(limit: Int, after cursor: TimelineCursor?, unreadOnly: Bool, authorIDs: [String]?) throws(SQLiteError) -> TimelinePage {
        let limit = max(0, limit)
        let statement = try connection.statement(Self.filteredSQL)
        defer { statement.reset() }
        try statement.bind(limit.saturatingAdding(1), at: 1)
        if let cursor {
            try statement.bind(cursor.createdAtMilliseconds, at: 2)
            try statement.bind(cursor.id, at: 3)
        }
        try statement.bind(unreadOnly, at: 4)
        if let authorIDs { try statement.bind(SQLiteJSONArray(authorIDs), at: 5) }
        return try completePage(steppingThrough: statement, limit: limit)
    }
}
