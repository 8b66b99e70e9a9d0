#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The accounts a person muted and blocked, and the words they muted, as their server lists them
/// (``AccountSession/moderationLists(_:limit:in:)``; issue 34): what `timeline muted` and
/// `timeline blocked` print, and what each sync writes into the account's ``ModerationRules``.
/// Every text is the server's, untrusted: neutralise it before it reaches a terminal.
public struct ModerationLists: Sendable, Hashable {
    /// The accounts muted, newest first as the server lists them.
    public var muted: [ModeratedAccount]
    /// The accounts blocked, newest first as the server lists them.
    public var blocked: [ModeratedAccount]
    /// The words and phrases muted (Mastodon: the keywords of the account's filters; Bluesky:
    /// `#mutedWordsPref`).
    public var mutedWords: [MutedWord]
    /// Whether a list was longer than the limit asked for: only its first part is here.
    public var truncated: Bool

    /// Lists as given.
    public init(muted: [ModeratedAccount] = [], blocked: [ModeratedAccount] = [], mutedWords: [MutedWord] = [],
                truncated: Bool = false) {
        self.muted = muted
        self.blocked = blocked
        self.mutedWords = mutedWords
        self.truncated = truncated
    }

    /// Which lists to read.
    public struct Parts: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        /// The parts whose bits `rawValue` sets.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// The accounts muted.
        public static let muted = Parts(rawValue: 1 << 0)
        /// The accounts blocked.
        public static let blocked = Parts(rawValue: 1 << 1)
        /// The words muted.
        public static let words = Parts(rawValue: 1 << 2)
    }

    /// The most accounts of each list a sync reads into the rules (and `muted` and `blocked`
    /// print by default): 1,000 muted and 1,000 blocked, in at most 13 requests each on
    /// Mastodon (80 a page) and 10 on Bluesky (100 a page). A person with more keeps the
    /// newest 1,000 of each here; the server still applies all of them to what it sends.
    public static let defaultLimit = 1_000
}

/// An account muted or blocked, as its server lists it.
public struct ModeratedAccount: Sendable, Hashable {
    /// The account, as its server names it.
    public var user: FollowedUser
    /// Its stored user ID (`User.id`), which the rules name.
    public var storedUserID: String
    /// When a mute ends (`nil`: never, or a block).
    public var until: Date?

    /// `user`, stored as `storedUserID`, until `until`.
    public init(user: FollowedUser, storedUserID: String, until: Date? = nil) {
        self.user = user
        self.storedUserID = storedUserID
        self.until = until
    }
}
