/// The users and messages a Mastodon or Twitter decoder found in a file, each ID once, ready to
/// store with `TimelineStore.write { … }` or `TimelineImporter.store(_:sourceName:)`.
///
/// API responses repeat themselves: the same account authors many statuses, a boosted status
/// also comes on its own, a status context and a timeline page overlap. Each ID is kept once, in
/// the order it was first met, with the **last** version met: an embedded status (a boost's or a
/// quote's original) counts as met just before the status that embeds it. Storing each ID once is
/// also what keeps a second import of the same file from changing anything: two different
/// versions stored in turn would change the row twice on every import.
public struct DecodedTimeline: Sendable, Equatable {
    /// The users, in the order first met.
    public private(set) var users: [User] = []
    /// The messages, in the order first met: originals before the reposts and quotes that
    /// embed them.
    public private(set) var messages: [Message] = []
    /// What the account that fetched them has done to the messages, where the server says it
    /// (Mastodon's `favourited`, `reblogged`, `bookmarked`; Bluesky's `viewer`): a sync stores
    /// it for its account, an import of a file has no account to store it for.
    public private(set) var interactions: [MessageInteraction] = []

    private var userIndex: [String: Int] = [:]
    private var messageIndex: [String: Int] = [:]
    private var interactionIndex: [String: Int] = [:]

    public init() {}

    /// Adds `user`, replacing a user with the same ID added before, with its name and handle
    /// held to `UserLimits`.
    public mutating func add(_ user: User) {
        let user = UserLimits.applied(to: user)
        Self.replaceOrAppend(user, key: user.id, in: &users, index: &userIndex)
    }

    /// Adds `message`, replacing a message with the same ID added before.
    public mutating func add(_ message: Message) {
        Self.replaceOrAppend(message, key: message.id, in: &messages, index: &messageIndex)
    }

    /// Adds what the fetching account did to a message, replacing what was added for it before.
    public mutating func add(_ interaction: MessageInteraction) {
        Self.replaceOrAppend(interaction, key: interaction.messageID, in: &interactions, index: &interactionIndex)
    }

    /// Replaces the element `index` holds for `key`, or appends `value` and records where: the
    /// one rule of every `add` (the last added wins, the first added keeps its place).
    private static func replaceOrAppend<T>(_ value: T, key: String, in elements: inout [T], index: inout [String: Int]) {
        if let position = index[key] {
            elements[position] = value
        } else {
            index[key] = elements.count
            elements.append(value)
        }
    }

    /// This timeline with the messages `isOwn` picks marked read: a synced account's own posts,
    /// which the person wrote and so has read.
    func markingRead(where isOwn: (Message) -> Bool) -> DecodedTimeline {
        guard messages.contains(where: { isOwn($0) && !$0.isRead }) else { return self }
        var result = self
        for var message in messages where isOwn(message) && !message.isRead {
            message.isRead = true
            result.add(message)
        }
        return result
    }

    /// Adds everything `other` holds, its versions replacing this one's.
    public mutating func add(contentsOf other: DecodedTimeline) {
        for user in other.users { add(user) }
        for message in other.messages { add(message) }
        for interaction in other.interactions { add(interaction) }
    }

    /// The user with this ID, if added.
    public func user(id: String) -> User? {
        userIndex[id].map { users[$0] }
    }

    /// The message with this ID, if added.
    public func message(id: String) -> Message? {
        messageIndex[id].map { messages[$0] }
    }

    public static func == (lhs: DecodedTimeline, rhs: DecodedTimeline) -> Bool {
        lhs.users == rhs.users && lhs.messages == rhs.messages
    }
}
