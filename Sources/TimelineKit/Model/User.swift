/// A person (or bot) whose messages appear in the timeline.
///
/// Names and handles come from other servers and people: they are untrusted text and must be
/// neutralised before they reach a terminal.
public struct User: Sendable, Codable, Hashable, Identifiable {
    /// The ID exactly as the source gives it (a Mastodon account ID, a Twitter user ID, `"u1"`).
    /// Never interpreted as a number: Mastodon IDs are digit strings longer than `Int64` allows.
    public var id: String
    /// The handle without a leading `@`, e.g. `alice` or `alice@example.social`.
    public var handle: String
    /// The display name.
    public var name: String
    /// The profile's web address, when known.
    public var url: String?
    /// Whether the account says it is automated.
    public var isBot: Bool

    public init(id: String, handle: String, name: String, url: String? = nil, isBot: Bool = false) {
        self.id = id
        self.handle = handle
        self.name = name
        self.url = url
        self.isBot = isBot
    }
}
