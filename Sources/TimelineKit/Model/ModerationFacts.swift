/// What a server said about one message that the person's own rules read (issue 34): the
/// moderation labels on it and on its author (Bluesky), and the person's server-side filters it
/// matched (Mastodon's `filtered`). Stored with the message (the `moderation` column), so that a
/// rule changed later is applied to what is already stored without asking the server again.
///
/// Never painted by itself: ``ModerationRules`` turns facts into a ``ModerationVerdict``.
public struct ModerationFacts: Sendable, Hashable, Codable {
    /// Labels on the post and on its author, as the server sent them (negations already applied).
    public var labels: [ContentLabel]
    /// The person's own server filters the message matched, as the server said when it sent it.
    public var filterMatches: [FilterMatch]

    public init(labels: [ContentLabel] = [], filterMatches: [FilterMatch] = []) {
        self.labels = labels
        self.filterMatches = filterMatches
    }

    /// No facts: what every message of a network without moderation has.
    public static let none = ModerationFacts()

    /// Whether there is nothing to read.
    public var isEmpty: Bool { labels.isEmpty && filterMatches.isEmpty }
}

/// A moderation label (atproto `com.atproto.label.defs#label`): a value a labeler put on a post or
/// an account.
public struct ContentLabel: Sendable, Hashable, Codable {
    /// The labeler's DID (`src`); for an author's self-label, the author's own DID.
    public var source: String
    /// The label's value (`val`): `porn`, `!hide`, `graphic-media`, a labeler's own value.
    public var value: String
    /// Whether the label is on the author's account rather than on the post.
    public var isOnAuthor: Bool

    public init(source: String, value: String, isOnAuthor: Bool = false) {
        self.source = source
        self.value = value
        self.isOnAuthor = isOnAuthor
    }
}

/// A filter of the person's own that a message matched, as the server reported it (a Mastodon
/// status's `filtered` array of `FilterResult`s).
public struct FilterMatch: Sendable, Hashable, Codable {
    /// The filter's title, which a collapsed message is painted with (`Filtered: TITLE`).
    public var title: String
    /// What the filter asks for.
    public var action: FilterAction

    public init(title: String, action: FilterAction) {
        self.title = title
        self.action = action
    }
}

/// What a filter or a muted word asks for: hide the message, paint it collapsed behind a warning,
/// or (Mastodon 4.4's `blur`) hide its media only.
public enum FilterAction: String, Sendable, Hashable, Codable, CaseIterable {
    case hide, warn, blur
}
