/// What an event of the account's stream (`GET /api/v1/streaming/user`) changed in the store,
/// as `MastodonSync.stream(onEvent:)` reports it after storing it.
public enum MastodonStreamEvent: Sendable, Hashable {
    /// `update`: a new status in the home timeline, stored as this message.
    case status(messageID: String)
    /// `status.update`: a status was edited; its message was updated in place.
    case edited(messageID: String)
    /// `delete`: a status was deleted; its message was removed when it was stored.
    case deleted(messageID: String)
    /// `notification`: a notification, stored under the server's ID.
    case notification(serverID: String)
    /// An event of another kind (`filters_changed`, `announcement`, `conversation`, …) or one
    /// whose data could not be read; nothing was stored.
    case ignored(type: String)
}
