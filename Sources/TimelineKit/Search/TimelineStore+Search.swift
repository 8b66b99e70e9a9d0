extension TimelineStore {
    /// The messages matching `query`, newest first (ties broken by ID), at most `limit`.
    ///
    /// `author` keeps the messages of the users with this handle (`@` optional); `unreadOnly`
    /// keeps unread messages. Runs in one read transaction on the reader connection, through the
    /// full-text indexes (see `SearchStatement`): its cost grows with the number of messages
    /// that hold the terms, not with the size of the timeline.
    ///
    /// - Throws: `TimelineStoreError.invalidSearch` when the query cannot be parsed (its
    ///   description says what to type instead), or the store's other errors.
    public func search(_ query: String, limit: Int = 20, author: String? = nil, unreadOnly: Bool = false) throws(TimelineStoreError) -> SearchResults {
        let parsed: SearchQuery
        do throws(SearchQueryError) {
            parsed = try SearchQuery(query)
        } catch {
            throw .invalidSearch(error)
        }
        return try search(parsed, limit: limit, author: author, unreadOnly: unreadOnly)
    }

    /// `search(_:limit:author:unreadOnly:)` for a query already parsed.
    public func search(_ query: SearchQuery, limit: Int = 20, author: String? = nil, unreadOnly: Bool = false) throws(TimelineStoreError) -> SearchResults {
        let limit = max(0, limit)
        let page = try read { reader throws(SQLiteError) -> TimelinePage in
            var authorIDs: SQLiteJSONArray?
            if let author {
                let handle = author.hasPrefix("@") ? String(author.dropFirst()) : author
                authorIDs = SQLiteJSONArray(try reader.users(handle: handle).map(\.id))
            }
            var found: [Message] = []
            var cursor: TimelineCursor?
            // Hashtags and mentions are checked here after the index found their word: read in
            // batches until enough pass or the matches run out.
            let batch = query.needsCheck ? max(limit * 2, 50) : limit
            while found.count < limit {
                let statement = SearchStatement(query: query, authorIDs: authorIDs, unreadOnly: unreadOnly, after: cursor, limit: batch)
                let rows = try reader.messages(matching: statement)
                found += query.needsCheck ? rows.filter { query.passesCheck($0.text) } : rows
                guard rows.count == batch, let last = rows.last else { break }
                cursor = last.cursor
            }
            return try reader.completePage(messages: Array(found.prefix(limit)), nextCursor: nil)
        }
        return SearchResults(query: query, page: page)
    }
}

extension TimelineReader {
    /// The messages a search statement selects, in its order.
    func messages(matching search: SearchStatement) throws(SQLiteError) -> [Message] {
        let statement = try connection.statement(search.sql)
        defer { statement.reset() }
        try search.bind(to: statement)
        var messages: [Message] = []
        while try statement.step() { messages.append(MessageColumns.message(from: statement)) }
        return messages
    }
}
