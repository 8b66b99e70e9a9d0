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

    /// The longest value kept, in bytes: Bluesky's lexicon allows 10,000 bytes (1,000
    /// graphemes); a longer word from a server is left out, not cut (a cut phrase would mute more).
    public static let maximumValueBytes = 10_000
    /// The longest filter title kept, in characters; a longer one is cut (it is only painted).
    public static let maximumTitleLength = 200
    /// The most words kept of one account's preferences or filters: the first ones are kept.
    public static let maximumCount = 20_000
    /// The most bytes of word values kept of one account: with ``maximumCount``, what bounds the
    /// memory and the compile time of the matcher whatever the server sends.
    public static let maximumTotalBytes = 1 << 20

    /// `words` within the limits above: words too long left out, then the first ones kept while
    /// the count and the total stay within. Returns how many were left out.
    public static func bounded(_ words: [MutedWord]) -> (kept: [MutedWord], leftOut: Int) {
        var kept: [MutedWord] = [], total = 0
        for word in words where word.value.utf8.count <= maximumValueBytes {
            guard kept.count < maximumCount, total + word.value.utf8.count <= maximumTotalBytes else { break }
            total += word.value.utf8.count
            kept.append(word)
        }
        return (kept, words.count - kept.count)
    }

    /// The reason a message it matched is hidden or collapsed with.
    public var reason: String { title.map { "Filtered: " + $0 } ?? "muted word" }

    /// Whether it still mutes at `now`.
    public func isActive(at now: Date) -> Bool { expiresAt.map { $0 > now } ?? true }
}
