// What a source without saved feeds does (issue 37): it refuses to list them, as every optional
// requirement of `AccountSession` refuses, and sends no feed interaction (there is no feed
// generator to tell).

extension AccountSession {
    /// Refuses: the source has no saved feeds (``SourceAction/feeds``).
    public func savedFeeds(in store: TimelineStore) async throws -> [SavedFeed] {
        throw SourceError.unsupported(action: .feeds, source: account.network.displayName, reason: capabilities.refusals[.feeds])
    }

    /// Sends nothing: the source has no feed generators.
    @discardableResult
    public func sendFeedInteraction(_ interaction: FeedInteraction, on messageID: String, in store: TimelineStore) async -> Bool {
        false
    }
}
