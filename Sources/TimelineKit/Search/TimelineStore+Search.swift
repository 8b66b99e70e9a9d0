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
        try search(query, limit: limit, author: author, unreadOnly: unreadOnly, sortingLimit: SearchStatement.sortingLimit)
    }

    /// The search, with the number of matches above which the timeline is walked and the sizes
    /// of the windows the walk tries first (tests lower both).
    func search(_ query: SearchQuery, limit: Int, author: String?, unreadOnly: Bool, sortingLimit: Int,
                windowSizes: [Int] = TimelineWindow.sizes) throws(TimelineStoreError) -> SearchResults {
        let limit = max(0, limit)
        let page = try read { reader throws(SQLiteError) -> TimelinePage in
            var authorIDs: SQLiteJSONArray?
            if let author {
                let handle = author.hasPrefix("@") ? String(author.dropFirst()) : author
                authorIDs = SQLiteJSONArray(try reader.users(handle: handle).map(\.id))
            }
            // At most this many messages can match: the fewest of any clause (each clause's
            // terms added up), each counted in its index and only up to the threshold.
            var matches = Int.max
            for clause in query.clauses {
                var count = 0
                for term in clause {
                    count += try reader.count(SearchStatement(countingMatchesOf: term, upTo: sortingLimit + 1))
                }
                matches = min(matches, count)
            }
            // Fewer matches than that, but so many for the timeline's size that the first window
            // should hold four pages of them if they were spread evenly (a third of 100k messages
            // hold `the`): the walk finds the page in the window, where sorting them all took
            // 40 ms (issue 28). Either way the answer is exact; this only picks the cheaper.
            var dense = false
            if matches <= sortingLimit, let window = windowSizes.first {
                let total = try reader.state().messageCount
                dense = total > 0 && Double(matches) * Double(min(window, total)) / Double(total) >= 4 * Double(max(1, limit))
            }
            let order: SearchStatement.Order = matches > sortingLimit || dense ? .walkingTimeline : .sortingMatches
            // Many matches: first among the newest messages only (`TimelineWindow`), then in
            // larger windows, then everywhere, until the page is known to be the newest.
            var windows: [Int?] = order == .walkingTimeline ? windowSizes : []
            windows.append(nil)
            var found: [Message] = []
            for size in windows {
                let window = try size.flatMap { size throws(SQLiteError) in try TimelineWindow(newest: size, reader: reader) }
                // Hashtags and mentions are checked here after the index found their word: one
                // statement without a limit, read only until enough rows pass.
                let statement = SearchStatement(query: query, authorIDs: authorIDs, unreadOnly: unreadOnly,
                                                order: order, limit: query.needsCheck ? nil : limit, rowids: window?.rowids)
                found = try reader.messages(matching: statement, limit: limit) { query.needsCheck ? query.passesCheck($0.text) : true }
                guard let window else { break }
                if window.isWhole { break }
                if found.count >= limit, try found.last.map({ last throws(SQLiteError) in try window.holds(messageID: last.id, reader: reader) }) ?? true {
                    break
                }
            }
            return try reader.completePage(messages: Array(found.prefix(limit)), nextCursor: nil)
        }
        return SearchResults(query: query, page: page)
    }
}

extension TimelineReader {
    /// What a counting statement counted.
    func count(_ search: SearchStatement) throws(SQLiteError) -> Int {
        let statement = try connection.statement(search.sql)
        defer { statement.reset() }
        try search.bind(to: statement)
        return try statement.step() ? statement.int(at: 0) : 0
    }

    /// The first `limit` messages a search statement selects that `accept` takes, in its order.
    func messages(matching search: SearchStatement, limit: Int, where accept: (Message) -> Bool) throws(SQLiteError) -> [Message] {
        let statement = try connection.statement(search.sql)
        defer { statement.reset() }
        try search.bind(to: statement)
        var messages: [Message] = []
        while messages.count < limit, try statement.step() {
            let message = MessageColumns.message(from: statement)
            if accept(message) { messages.append(message) }
        }
        return messages
    }
}
