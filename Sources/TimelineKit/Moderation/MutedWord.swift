#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A muted word or phrase (Bluesky's `#mutedWordsPref`), or a keyword of a server filter
/// (Mastodon's v2 filters): matched case-insensitively, as a whole word or phrase unless
/// `wholeWord` is off (``MutedWordMatcher`` says exactly how).
public struct MutedWord: Sendable, Hashable, Codable {
    /// The word, phrase or tag (without `#`).
    public var value: String
    /// Whether it mutes the text, the tags, or both.
    public var targetsText: Bool
    public var targetsTags: Bool
    /// Whether it must match whole words (Mastodon's `whole_word`; always on for Bluesky's words
    /// in languages written with spaces).
    public var wholeWord: Bool
    /// When it stops muting (`nil`: never).
    public var expiresAt: Date?
    /// Bluesky's `actorTarget` `exclude-following`: not applied to accounts the person follows.
    public var excludesFollowing: Bool
    /// Hide, or collapse behind a warning (a Mastodon filter's `filter_action`).
    public var action: FilterAction
    /// The server filter's title, painted as the reason (`Filtered: TITLE`); `nil` for a muted word.
    public var title: String?
    /// The server filter's ID (Mastodon's v2 filters), for a filter's keyword: a sync replaces the
    /// words of the filters it reads and keeps the others. `nil` for a muted word.
    public var filterID: String?

    public init(value: String, targetsText: Bool = true, targetsTags: Bool = true, wholeWord: Bool = true,
                expiresAt: Date? = nil, excludesFollowing: Bool = false, action: FilterAction = .hide,
                title: String? = nil, filterID: String? = nil) {
        self.value = value
        self.targetsText = targetsText
        self.targetsTags = targetsTags
        self.wholeWord = wholeWord
        self.expiresAt = expiresAt
        self.excludesFollowing = excludesFollowing
        self.action = action
        self.title = title
        self.filterID = filterID
    }

    /// The reason a message it matched is hidden or collapsed with.
    public var reason: String { title.map { "Filtered: " + $0 } ?? "muted word" }

    /// Whether it still mutes at `now`.
    public func isActive(at now: Date) -> Bool { expiresAt.map { $0 > now } ?? true }
}
