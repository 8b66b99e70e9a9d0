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

    init(id: String, kind: NotificationKind, createdAt: Int64, actorID: String?, messageID: String?) {
        self.id = id
        self.kind = kind
        self.createdAt = createdAt
        self.actorID = actorID
        self.messageID = messageID
    }
}
