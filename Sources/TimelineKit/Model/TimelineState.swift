/// What the database says about itself in O(1): which database it is, how far it has changed,
/// and its counts. Kept by triggers, so it stays true even for writes made with the `sqlite3` shell.
public struct TimelineState: Sendable, Codable, Hashable {
    /// A random ID chosen when the database was created. A snapshot made from another database
    /// (say, one that was deleted and created again) is never taken for a fresh one.
    public var databaseID: String
    /// Changes with every committed change to messages or users, by any process.
    public var generation: Int64
    /// All stored messages.
    public var messageCount: Int
    /// Stored messages not marked read.
    public var unreadCount: Int
    /// All stored users.
    public var userCount: Int

    public init(databaseID: String, generation: Int64, messageCount: Int, unreadCount: Int, userCount: Int) {
        self.databaseID = databaseID
        self.generation = generation
        self.messageCount = messageCount
        self.unreadCount = unreadCount
        self.userCount = userCount
    }
}
