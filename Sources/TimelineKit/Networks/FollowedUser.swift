/// Someone a person follows, or asked to follow: an account as its network names it
/// (``AccountSession/setFollowing(_:_:in:)``, ``AccountSession/followedUsers(limit:in:)``). Every
/// field is the server's text, untrusted: neutralise it before it reaches a terminal.
public struct FollowedUser: Sendable, Hashable {
    /// The network's own ID of the account (Mastodon: the server's account ID; Bluesky: its DID).
    public var id: String
    /// The handle as the server gives it (`alice@example.social`, `alice.bsky.social`), no `@`.
    public var handle: String
    /// The display name, empty when the account has none.
    public var name: String

    /// The account `id`, known as `handle`, named `name`.
    public init(id: String, handle: String, name: String) {
        self.id = id
        self.handle = handle
        self.name = name
    }
}

/// What ``AccountSession/setFollowing(_:_:in:)`` did: whom, and how things now stand.
public struct FollowOutcome: Sendable, Hashable {
    /// The account followed or unfollowed.
    public var user: FollowedUser
    /// Whether the account is now followed.
    public var following: Bool
    /// Whether a follow waits for the account's approval (a locked Mastodon account).
    public var requested: Bool
    /// Whether anything changed at the server: `false` when it was already so (Bluesky tells;
    /// Mastodon answers the same either way, so `true` there).
    public var changed: Bool

    /// `user`, now `following` (or `requested`), `changed` or not.
    public init(user: FollowedUser, following: Bool, requested: Bool = false, changed: Bool = true) {
        self.user = user
        self.following = following
        self.requested = requested
        self.changed = changed
    }
}
