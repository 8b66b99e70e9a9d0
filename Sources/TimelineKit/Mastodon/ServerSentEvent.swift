/// One event of a `text/event-stream` (server-sent events), as `ServerSentEventParser`
/// dispatches it.
///
/// Mastodon's streaming API sends events such as `event: update` with a status as JSON in
/// `data`, `event: delete` with a status ID, `event: notification`, `event: status.update`.
public struct ServerSentEvent: Sendable, Hashable {
    /// The `event` field; `"message"` when the event named none.
    public var type: String
    /// The `data` lines joined with line feeds (without the last line's).
    public var data: String
    /// The last event ID when the event was dispatched (the stream's `id` fields persist from
    /// event to event); empty when none was sent.
    public var lastEventID: String

    public init(type: String = "message", data: String, lastEventID: String = "") {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
    }
}
