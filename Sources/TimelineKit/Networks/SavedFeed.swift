/// A feed an account saved at its server, as Bluesky's preferences list them (`#savedFeedsPrefV2`,
/// issue 37): a custom feed (a feed generator), a list read as a feed, or the home timeline
/// ("Following"), pinned or only saved. What `timeline feeds` shows and `timeline feed NAME`
/// and `timeline home --set NAME` find a feed by. These are a network's own feeds, not the
/// RSS and Atom feed subscriptions of `timeline subscribe`.
public struct SavedFeed: Sendable, Hashable {
    /// What the saved entry is.
    public enum Kind: String, Sendable, Hashable {
        /// A custom feed: an `app.bsky.feed.generator` record's AT URI.
        case feed
        /// A list read as a feed: an `app.bsky.graph.list` record's AT URI.
        case list
        /// The home timeline ("Following"); its value is `following`.
        case timeline
    }

    /// The entry's ID in the preferences (untrusted text).
    public var id: String
    /// A custom feed, a list, or the home timeline.
    public var kind: Kind
    /// The AT URI of the feed or list, or `following` for the home timeline.
    public var value: String
    /// Whether the person pinned it (the official app shows pinned feeds as tabs).
    public var pinned: Bool
    /// The feed's display name as its generator's view gives it (untrusted text), `nil` when
    /// not known (a list, a generator the server did not describe).
    public var name: String?
    /// The DID of the service that generates the feed (the generator view's `did`), to which
    /// interactions are sent back; `nil` when not known.
    public var generatorDID: String?
    /// Whether the generator takes interactions back (`acceptsInteractions`).
    public var acceptsInteractions: Bool

    /// A saved feed with every part given.
    public init(id: String, kind: Kind, value: String, pinned: Bool, name: String? = nil, generatorDID: String? = nil,
                acceptsInteractions: Bool = false) {
        self.id = id
        self.kind = kind
        self.value = value
        self.pinned = pinned
        self.name = name
        self.generatorDID = generatorDID
        self.acceptsInteractions = acceptsInteractions
    }

    /// The short name a person types: the record key of its AT URI (`whats-hot`), or
    /// `following` for the home timeline.
    public var shortName: String {
        kind == .timeline ? "following" : String(value.split(separator: "/").last ?? Substring(value))
    }

    /// The feed of `feeds` that `text` names: its AT URI, its short name, or its display name
    /// (letter case aside), in that order; `nil` when none does or when a name fits several.
    public static func named(_ text: String, in feeds: [SavedFeed]) -> SavedFeed? {
        if let feed = feeds.first(where: { $0.value == text }) { return feed }
        let lowered = text.lowercased()
        for key in [\SavedFeed.shortName, \SavedFeed.loweredName] {
            let found = feeds.filter { $0[keyPath: key] == lowered || $0[keyPath: key] == text }
            if found.count == 1 { return found[0] }
            if found.count > 1 { return nil }
        }
        return nil
    }

    private var loweredName: String { name?.lowercased() ?? "" }
}
