/// What a notification says happened, as the server names it (`mention`, `favourite`, …).
///
/// The names Mastodon documents have constants; a server may send others (Pleroma's
/// `pleroma:emoji_reaction`, a newer Mastodon's), which are kept as they are and shown
/// generically, never dropped.
public struct NotificationKind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The server's name for it.
    public var rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Someone mentioned the account in a status.
    public static let mention = NotificationKind(rawValue: "mention")
    /// Someone the account gets notified about posted a status.
    public static let status = NotificationKind(rawValue: "status")
    /// Someone boosted one of the account's statuses.
    public static let reblog = NotificationKind(rawValue: "reblog")
    /// Someone favourited (liked) one of the account's statuses.
    public static let favourite = NotificationKind(rawValue: "favourite")
    /// Someone followed the account.
    public static let follow = NotificationKind(rawValue: "follow")
    /// Someone asked to follow the (locked) account.
    public static let followRequest = NotificationKind(rawValue: "follow_request")
    /// A poll the account voted in or created has ended.
    public static let poll = NotificationKind(rawValue: "poll")
    /// A status the account boosted was edited.
    public static let update = NotificationKind(rawValue: "update")
    /// Someone quoted one of the account's statuses (Mastodon 4.4).
    public static let quote = NotificationKind(rawValue: "quote")
    /// Someone replied to one of the account's posts (Bluesky; Mastodon says `mention`).
    public static let reply = NotificationKind(rawValue: "reply")
    /// Someone signed up (for moderators).
    public static let adminSignUp = NotificationKind(rawValue: "admin.sign_up")
    /// Someone filed a report (for moderators).
    public static let adminReport = NotificationKind(rawValue: "admin.report")

    public var description: String { rawValue }

    /// Whether the status it carries is the account's own (so the account has read it).
    var isAboutOwnPost: Bool {
        self == .favourite || self == .reblog || self == .quote
    }
}
