#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A notification stored by a sync (`GET /api/v1/notifications`) or the event stream, with the
/// user who acted and the message it is about, as `TimelineStore.notifications(account:limit:)`
/// returns it. `NotificationRenderer` says it in words.
public struct TimelineNotification: Sendable, Hashable, Identifiable {
    /// The account it was synced for (`alice@mastodon.social`).
    public var account: String
    /// The server's notification ID (unique with `account`).
    public var serverID: String
    /// What happened.
    public var kind: NotificationKind
    /// When it happened.
    public var createdAt: Date
    /// Who did it, when the notification names someone and the user is stored.
    public var actor: User?
    /// The message it is about, when it has one and the message is still stored.
    public var message: Message?
    /// The ID of that message even when it is no longer stored (deleted since).
    public var messageID: String?
    /// How many notifications it stands for: 1, or the size of a group of them (Mastodon 4.3's
    /// grouped notifications: `actor` and `count - 1` others liked the post).
    public var count: Int

    /// `account` and `serverID` together.
    public var id: String { account + "\n" + serverID }

    public init(account: String, serverID: String, kind: NotificationKind, createdAt: Date,
                actor: User? = nil, message: Message? = nil, messageID: String? = nil, count: Int = 1) {
        self.account = account
        self.serverID = serverID
        self.kind = kind
        self.createdAt = createdAt
        self.actor = actor
        self.message = message
        self.messageID = messageID ?? message?.id
        self.count = max(1, count)
    }
}
