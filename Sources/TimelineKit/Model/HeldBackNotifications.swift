/// What an account's server holds back from its notifications (Mastodon 4.3's filtered
/// notifications: from accounts the person does not follow, new accounts, …), as its last sync
/// counted them (`GET /api/v1/notifications/policy`'s summary). `show --notifications` says it
/// under the list, and `show --notifications --requests` lists them.
public struct HeldBackNotifications: Sendable, Hashable {
    /// The account they are held back for.
    public var account: String
    /// How many accounts' notifications wait to be accepted (notification requests).
    public var requests: Int
    /// How many notifications those requests hold.
    public var notifications: Int

    public init(account: String, requests: Int, notifications: Int) {
        self.account = account
        self.requests = requests
        self.notifications = notifications
    }
}
