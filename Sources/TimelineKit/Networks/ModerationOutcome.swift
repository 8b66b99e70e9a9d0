#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the server answered to a mute, block, muted word or their undo (issue 34), sent from the
/// outbox (``OutboxResult/moderated(_:)``): whom or what, and whether anything changed.
public struct ModerationOutcome: Sendable, Hashable {
    /// The change as it was asked for.
    public var change: OutboxEntry.Change
    /// The account muted or blocked, as its server names it; `nil` for a word.
    public var user: FollowedUser?
    /// The account's stored user ID (`User.id`: `example.social/1234`, a DID), which the
    /// ``ModerationRules`` name; `nil` for a word.
    public var storedUserID: String?
    /// Whether anything changed at the server: `false` when it was already so (a word already
    /// muted, an account not blocked). Mastodon answers a mute or block the same either way:
    /// `true` there.
    public var changed: Bool

    /// `change` done for `user` (stored as `storedUserID`), `changed` or not.
    public init(change: OutboxEntry.Change, user: FollowedUser? = nil, storedUserID: String? = nil, changed: Bool = true) {
        self.change = change
        self.user = user
        self.storedUserID = storedUserID
        self.changed = changed
    }
}
