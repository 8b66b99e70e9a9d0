#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An account whose notifications the server's filters hold back until the person accepts them
/// (Mastodon 4.3's notification requests: from accounts they do not follow, new accounts, …),
/// as ``AccountSession/notificationRequests(limit:in:)`` lists them for
/// `show --notifications --requests`.
public struct NotificationRequest: Sendable, Hashable {
    /// The account the notifications are from, as the server names it (`bob@example.social`).
    public var account: FollowedUser
    /// How many of its notifications are held back.
    public var notifications: Int
    /// When the newest of them came, when the server says.
    public var updatedAt: Date?

    public init(account: FollowedUser, notifications: Int, updatedAt: Date? = nil) {
        self.account = account
        self.notifications = notifications
        self.updatedAt = updatedAt
    }
}
