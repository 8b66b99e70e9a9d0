/// The formats `TimelineImporter` reads.
public enum ImportFormat: String, Sendable, CaseIterable {
    /// The project's own JSON Lines format (`JSONLinesImporter`): one user or message per line.
    case jsonl
    /// Mastodon API responses (`MastodonDecoder`): statuses, contexts, accounts, notifications.
    case mastodon
    /// Twitter API responses (`TwitterDecoder`): v1.1 tweets, v2 pages, an archive's `tweets.js`.
    case twitter
    /// Bluesky AppView answers (`BlueskyDecoder`): `getTimeline`/`getAuthorFeed` feeds,
    /// `getPosts`, `listNotifications`, saved as the server sent them.
    case bluesky

    /// What a person calls the format, in a sentence (`reading Mastodon API JSON from the terminal`).
    public var displayName: String {
        switch self {
        case .jsonl: "JSON Lines"
        case .mastodon: "Mastodon API JSON"
        case .twitter: "Twitter API JSON"
        case .bluesky: "Bluesky JSON"
        }
    }
}
