/// One message a search found.
public struct SearchResult: Sendable, Hashable {
    /// The message.
    public var message: Message
    /// Its author, when stored.
    public var author: User?
    /// Where the query's terms occur in `message.text`, for highlighting: sorted, not
    /// overlapping, on character boundaries. May be empty (see `SearchQuery.matchRanges(in:)`).
    /// Highlight text that is shown after neutralising it (`TerminalText`) by calling
    /// `matchRanges(in:)` on the neutralised text, as `TimelineRenderer` does.
    public var matches: [Range<String.Index>]

    /// A result for `message`.
    public init(message: Message, author: User?, matches: [Range<String.Index>]) {
        self.message = message
        self.author = author
        self.matches = matches
    }
}

/// What `TimelineStore.search` found: the matching messages newest first, as results and as a
/// page ready for `TimelineRenderer` (with the messages they repost or quote and the authors).
public struct SearchResults: Sendable {
    /// The query that was run.
    public var query: SearchQuery
    /// The matching messages, newest first.
    public var results: [SearchResult]
    /// The same messages as a timeline page, with what rendering them needs.
    public var page: TimelinePage

    /// Results of `query` from `page`.
    public init(query: SearchQuery, page: TimelinePage) {
        self.query = query
        self.page = page
        let users = page.usersByID
        results = page.messages.map { message in
            SearchResult(message: message, author: users[message.authorID], matches: query.matchRanges(in: message.text))
        }
    }

    /// Whether nothing matched.
    public var isEmpty: Bool { results.isEmpty }
}
