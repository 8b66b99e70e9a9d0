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
    /// What the person's accounts did to the page's messages (own and related) that have any
    /// interaction (favourited, boosted, bookmarked), sorted by message ID.
    public var interactions: [MessageInteraction]

    public init(messages: [Message], related: [Message] = [], users: [User] = [], nextCursor: TimelineCursor? = nil,
                interactions: [MessageInteraction] = []) {
        self.messages = messages
        self.related = related
        self.users = users
        self.nextCursor = nextCursor
        self.interactions = interactions
    }

    /// What the person's accounts did to the message `id`, `nil` when nothing.
    public func interaction(of id: String) -> MessageInteraction? {
        interactions.first { $0.messageID == id }
    }

    /// The first `count` messages, with everything needed to show them: a message they repost or
    /// quote that is cut off moves to `related`.
    public func prefix(_ count: Int) -> TimelinePage {
        guard count < messages.count else { return self }
        let kept = Array(messages.prefix(max(0, count)))
        let originals = Self.originalIDs(shownWith: kept)
        let movedToRelated = messages.dropFirst(kept.count).filter { originals.contains($0.id) }
        return TimelinePage(messages: kept, related: related + movedToRelated, users: users,
                            nextCursor: kept.last?.cursor, interactions: interactions)
    }

    /// The IDs of the messages that `messages` repost or quote and do not hold themselves: what a
    /// page of them shows from `related`. (A snapshot preview makes only these of the messages
    /// after its head, then takes the `prefix`.)
    static func originalIDs(shownWith messages: [Message]) -> Set<String> {
        var ids = Set<String>()
        for message in messages {
            if let id = message.repostOfID { ids.insert(id) }
            if let id = message.quoteOfID { ids.insert(id) }
        }
        for message in messages { ids.remove(message.id) }
        return ids
    }

    /// The page's users by ID, for rendering.
    public var usersByID: [String: User] {
        Dictionary(users.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The page's interactions by message ID, for writing each message's (`show --json`,
    /// `--format`) without a search per message.
    public var interactionsByID: [String: MessageInteraction] {
        Dictionary(interactions.map { ($0.messageID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The interaction to show with `message`: a repost's is the post it reposts (actions act on
    /// the original, and `show` paints the original's), `nil` when nothing.
    public static func interaction(shownWith message: Message, in interactions: [String: MessageInteraction]) -> MessageInteraction? {
        interactions.isEmpty ? nil : interactions[message.repostOfID ?? message.id]
    }

    /// Every message the page holds, its own and the related ones, by ID.
    public var messagesByID: [String: Message] {
        Dictionary((messages + related).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
