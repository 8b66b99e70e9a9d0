/// One notification of a page, its IDs already in the server's namespace after
/// `namespaced(_:)`.
struct DecodedNotification: Sendable, Hashable {
    /// The server's notification ID (not namespaced: it is stored with its account).
    var id: String
    var kind: NotificationKind
    var createdAt: Int64
    /// The account that acted (who favourited, followed, mentioned).
    var actorID: String?
    /// The status it is about, when it has one.
    var messageID: String?
    /// The server's key of the group it stands for (Mastodon 4.3's grouped notifications), so
    /// that a group that grew replaces its older entry; `nil` for a notification of its own.
    var groupKey: String?
    /// How many notifications it stands for: 1, or a group's `notifications_count`.
    var groupCount = 1

    init(id: String, kind: NotificationKind, createdAt: Int64, actorID: String?, messageID: String?) {
        self.id = id
        self.kind = kind
        self.createdAt = createdAt
        self.actorID = actorID
        self.messageID = messageID
    }
}
