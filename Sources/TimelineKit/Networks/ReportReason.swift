/// Why a post is reported to its server's moderators (`timeline report --reason`; issue 34):
/// Mastodon's report `category`, Bluesky's `com.atproto.moderation.defs#reason…`.
public enum ReportReason: String, Sendable, Hashable, CaseIterable {
    /// Unwanted advertising, repeated replies, bots.
    case spam
    /// It breaks the server's rules (Mastodon `violation`; Bluesky `#reasonViolation`).
    case violation
    /// Anything else: say what in the comment.
    case other

    /// Bluesky's `reasonType` for it.
    public var blueskyReasonType: String {
        switch self {
        case .spam: "com.atproto.moderation.defs#reasonSpam"
        case .violation: "com.atproto.moderation.defs#reasonViolation"
        case .other: "com.atproto.moderation.defs#reasonOther"
        }
    }
}

/// What ``AccountSession/report(_:reason:comment:in:)`` sent: the post and its author reported,
/// and the report's ID at the server where it answers one.
public struct ReportOutcome: Sendable, Hashable {
    /// The stored ID of the post reported.
    public var messageID: String
    /// The post's author, as the server names them.
    public var author: FollowedUser
    /// The server's ID of the report (Mastodon's report ID, Bluesky's `id`), when it answered one.
    public var reportID: String?

    /// A report of `messageID` by `author`, known at the server as `reportID`.
    public init(messageID: String, author: FollowedUser, reportID: String?) {
        self.messageID = messageID
        self.author = author
        self.reportID = reportID
    }
}
