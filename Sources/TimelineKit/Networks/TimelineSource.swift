/// A timeline of a server other than the home timeline (issue 27): a hashtag's posts, or a
/// list's (Mastodon's lists, Bluesky's list feeds and feed generators), fetched by
/// ``AccountSession/fetchTimeline(_:limit:in:)``.
public enum TimelineSource: Sendable, Hashable {
    /// The newest public posts with the hashtag (no `#`): Mastodon's `timelines/tag/:tag`,
    /// Bluesky's `searchPosts` for the tag.
    case tag(String)
    /// A list's timeline, by the ID its network gives it (``AccountSession/listID(_:)``):
    /// Mastodon's list ID, a Bluesky list's or feed generator's AT URI.
    case list(String)

    /// `text` as a hashtag (one leading `#` dropped), or `nil` when it cannot be one: letters,
    /// digits and `_` only (any script's letters, as hashtags are written), 1 to 100 characters.
    /// Nothing else is sent: a tag becomes part of a URL path.
    public static func hashtag(_ text: String) -> String? {
        var tag = Substring(text)
        if tag.first == "#" { tag = tag.dropFirst() }
        guard !tag.isEmpty, tag.count <= 100,
              tag.allSatisfy({ $0 == "_" || (($0.isLetter || $0.isNumber) && !$0.isWhitespace) }) else { return nil }
        return String(tag)
    }
}

/// A list an account keeps at its server (``AccountSession/lists(in:)``).
public struct TimelineList: Sendable, Hashable {
    /// The ID to give `timeline list` (Mastodon's list ID, a Bluesky list's AT URI).
    public var id: String
    /// The list's title, as the server gives it (untrusted text).
    public var title: String

    public init(id: String, title: String) {
        self.id = id
        self.title = title
    }
}
