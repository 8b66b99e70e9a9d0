/// A run of consecutive timeline messages with everything needed to show them: the messages they
/// repost or quote and every user those messages name as author.
public struct TimelinePage: Sendable, Codable, Hashable {
    /// The messages, newest first.
    public var messages: [Message]
    /// Messages that `messages` repost or quote and that are not themselves in `messages`.
    public var related: [Message]
    /// The authors of `messages` and `related`, sorted by ID.
    public var users: [User]
    /// Where the next (older) page starts, or `nil` when this page reached the oldest message.
    public var nextCursor: TimelineCursor?

    public init(messages: [Message], related: [Message] = [], users: [User] = [], nextCursor: TimelineCursor? = nil) {
        self.messages = messages
        self.related = related
        self.users = users
        self.nextCursor = nextCursor
    }

    /// The first `count` messages, with everything needed to show them: a message they repost or
    /// quote that is cut off moves to `related`.
    public func prefix(_ count: Int) -> TimelinePage {
        guard count < messages.count else { return self }
        let kept = Array(messages.prefix(max(0, count)))
        let keptIDs = Set(kept.map(\.id))
        let referenced = Set(kept.flatMap { [$0.repostOfID, $0.quoteOfID].compactMap { $0 } })
        let movedToRelated = messages.dropFirst(kept.count).filter { referenced.contains($0.id) && !keptIDs.contains($0.id) }
        return TimelinePage(messages: kept, related: related + movedToRelated, users: users,
                            nextCursor: kept.last?.cursor)
    }

    /// The page's users by ID, for rendering.
    public var usersByID: [String: User] {
        Dictionary(users.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every message the page holds, its own and the related ones, by ID.
    public var messagesByID: [String: Message] {
        Dictionary((messages + related).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
