/// The read queries, run on whichever connection the caller holds (the store's reader, or the
/// writer inside a transaction). Every timeline read is bounded by its `limit`, never by the size
/// of the database: the page query walks the `messages_by_time` index and stops.
struct TimelineReader {
    let connection: SQLiteConnection

    /// The database's identity, generation and counts, from the one-row `timeline_state` table.
    func state() throws(SQLiteError) -> TimelineState {
        let statement = try connection.statement(
            "SELECT database_id, generation, message_count, unread_count, user_count FROM timeline_state WHERE singleton = 1")
        defer { statement.reset() }
        guard try statement.step() else {
            throw SQLiteError(code: .corrupt, message: "the timeline_state row is missing", sql: statement.sql)
        }
        return TimelineState(
            databaseID: statement.text(at: 0), generation: statement.int64(at: 1),
            messageCount: statement.int(at: 2), unreadCount: statement.int(at: 3), userCount: statement.int(at: 4))
    }

    // A hidden message (`hidden`, the person's own rules: issue 34) is in no timeline, the
    // snapshot's included; the walk of `messages_by_time` reads each row anyway.
    static let newestSQL = """
        SELECT \(MessageColumns.select) FROM messages WHERE hidden IS NULL
        ORDER BY created_at DESC, id DESC LIMIT ?1
        """
    static let olderThanSQL = """
        SELECT \(MessageColumns.select) FROM messages
        WHERE (created_at, id) < (?2, ?3) AND hidden IS NULL
        ORDER BY created_at DESC, id DESC LIMIT ?1
        """

    /// Up to `limit` messages in timeline order, starting after `cursor` (or at the newest), with
    /// the messages they repost or quote and all their authors.
    func page(limit: Int, after cursor: TimelineCursor?) throws(SQLiteError) -> TimelinePage {
        let limit = max(0, limit)
        let statement = try pageStatement(limit: limit, after: cursor)
        defer { statement.reset() }
        return try completePage(steppingThrough: statement, limit: limit)
    }

    /// Up to `limit` messages in timeline order, starting after `cursor` (or at the newest), and
    /// the cursor of the next older page: the messages alone, without what `page` adds to them
    /// (reposted and quoted messages, authors, interactions), for a reader that needs none of it.
    func messagePage(limit: Int, after cursor: TimelineCursor?) throws(SQLiteError) -> (messages: [Message], nextCursor: TimelineCursor?) {
        let limit = max(0, limit)
        let statement = try pageStatement(limit: limit, after: cursor)
        defer { statement.reset() }
        return try messages(steppingThrough: statement, limit: limit)
    }

    /// The cached statement of a page of `limit` messages after `cursor` (or the newest), bound:
    /// it asks for one row more than `limit`, which tells whether an older page exists. The
    /// caller resets it when done.
    private func pageStatement(limit: Int, after cursor: TimelineCursor?) throws(SQLiteError) -> SQLiteStatement {
        let statement = try connection.statement(cursor == nil ? Self.newestSQL : Self.olderThanSQL)
        do throws(SQLiteError) {
            try statement.bind(limit.saturatingAdding(1), at: 1)
            if let cursor {
                try statement.bind(cursor.createdAtMilliseconds, at: 2)
                try statement.bind(cursor.id, at: 3)
            }
        } catch {
            statement.reset()
            throw error
        }
        return statement
    }

    /// The page of up to `limit` messages a statement asked for `limit + 1` rows returns: the
    /// extra row only tells whether an older page exists.
    func completePage(steppingThrough statement: SQLiteStatement, limit: Int) throws(SQLiteError) -> TimelinePage {
        let page = try messages(steppingThrough: statement, limit: limit)
        return try completePage(messages: page.messages, nextCursor: page.nextCursor)
    }

    /// The up to `limit` messages of a statement that asked for `limit + 1` rows, and the cursor
    /// of the next older page when the extra row came.
    private func messages(steppingThrough statement: SQLiteStatement, limit: Int) throws(SQLiteError) -> (messages: [Message], nextCursor: TimelineCursor?) {
        var messages: [Message] = []
        // No more than a few pages ahead: `limit` is the caller's, and `Int.max` means "all".
        messages.reserveCapacity(min(max(limit, 0), 4_096))
        var hasOlder = false
        while try statement.step() {
            if messages.count == limit {
                hasOlder = true
                break
            }
            messages.append(MessageColumns.message(from: statement))
        }
        return (messages, hasOlder ? messages.last?.cursor : nil)
    }

    /// Adds to `messages` the messages they repost or quote and the users all of them show.
    func completePage(messages: [Message], nextCursor: TimelineCursor?) throws(SQLiteError) -> TimelinePage {
        let own = Set(messages.map(\.id))
        var relatedIDs: [String] = []
        var seen = Set<String>()
        for message in messages {
            for id in [message.repostOfID, message.quoteOfID].compactMap({ $0 }) where !own.contains(id) {
                if seen.insert(id).inserted { relatedIDs.append(id) }
            }
        }
        let related = try self.messages(ids: relatedIDs, visibleOnly: true)
        var userIDs = Set<String>()
        for message in messages + related {
            userIDs.insert(message.authorID)
            if let replyTo = message.replyToUserID { userIDs.insert(replyTo) }
        }
        let users = try self.users(ids: userIDs).sorted { $0.id < $1.id }
        let interactions = try self.interactions(ids: messages.map(\.id) + related.map(\.id))
        return TimelinePage(messages: messages, related: related, users: users, nextCursor: nextCursor, interactions: interactions)
    }

    /// The stored messages among `ids`, in timeline order. IDs that are not stored are skipped,
    /// and hidden messages too with `visibleOnly` (what a page shows beside its own: a boosted or
    /// quoted post the person's rules hide is not painted inside another).
    func messages(ids: some Collection<String>, visibleOnly: Bool = false) throws(SQLiteError) -> [Message] {
        guard !ids.isEmpty else { return [] }
        let statement = try connection.statement("""
            SELECT \(MessageColumns.select) FROM messages
            WHERE id IN (SELECT value FROM json_each(?1))\(visibleOnly ? " AND hidden IS NULL" : "")
            ORDER BY created_at DESC, id DESC
            """)
        defer { statement.reset() }
        try statement.bind(SQLiteJSONArray(ids), at: 1)
        var result: [Message] = []
        while try statement.step() { result.append(MessageColumns.message(from: statement)) }
        return result
    }

    /// The stored users among `ids`. IDs that are not stored are skipped.
    func users(ids: some Collection<String>) throws(SQLiteError) -> [User] {
        guard !ids.isEmpty else { return [] }
        let statement = try connection.statement(
            "SELECT \(UserColumns.select) FROM users WHERE id IN (SELECT value FROM json_each(?1))")
        defer { statement.reset() }
        try statement.bind(SQLiteJSONArray(ids), at: 1)
        var result: [User] = []
        while try statement.step() { result.append(UserColumns.user(from: statement)) }
        return result
    }

    func allUsers() throws(SQLiteError) -> [User] {
        let statement = try connection.statement("SELECT \(UserColumns.select) FROM users ORDER BY id")
        defer { statement.reset() }
        var result: [User] = []
        while try statement.step() { result.append(UserColumns.user(from: statement)) }
        return result
    }

    /// Users whose handle is `handle` (handles are not unique across servers and sources).
    func users(handle: String) throws(SQLiteError) -> [User] {
        let statement = try connection.statement("SELECT \(UserColumns.select) FROM users WHERE handle = ?1 ORDER BY id")
        defer { statement.reset() }
        try statement.bind(handle, at: 1)
        var result: [User] = []
        while try statement.step() { result.append(UserColumns.user(from: statement)) }
        return result
    }

    /// Which of `ids` name stored messages.
    func storedMessageIDs(among ids: some Collection<String>) throws(SQLiteError) -> Set<String> {
        guard !ids.isEmpty else { return [] }
        let statement = try connection.statement(
            "SELECT id FROM messages WHERE id IN (SELECT value FROM json_each(?1))")
        defer { statement.reset() }
        try statement.bind(SQLiteJSONArray(ids), at: 1)
        var result = Set<String>()
        while try statement.step() { result.insert(statement.text(at: 0)) }
        return result
    }

    /// The first of `ids` that names no stored user, if any.
    func firstMissingUserID(among ids: some Collection<String>) throws(SQLiteError) -> String? {
        guard !ids.isEmpty else { return nil }
        let statement = try connection.statement(
            "SELECT value FROM json_each(?1) WHERE value NOT IN (SELECT id FROM users) LIMIT 1")
        defer { statement.reset() }
        try statement.bind(SQLiteJSONArray(ids), at: 1)
        return try statement.step() ? statement.text(at: 0) : nil
    }
}
