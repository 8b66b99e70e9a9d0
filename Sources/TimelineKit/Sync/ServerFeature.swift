/// A part of the Mastodon client API that servers speaking the API may leave out. Mastodon has
/// them all; Takahē has neither markers nor streaming, and Pleroma/Akkoma, GoToSocial, snac
/// and the Misskey family each lack a different part. A server that answers such an endpoint
/// with 404, 405, 410 or 501, or with an HTML page (``ServerError/notSupported(url:status:)``)
/// does not support it: the sync goes on without it and succeeds, the person is told once, and
/// the account remembers it (asking again after ``recheckInterval``, in case the server was
/// upgraded).
public enum ServerFeature: String, Sendable, CaseIterable, Comparable {
    /// Read markers (`GET`/`POST /api/v1/markers`): without them, what is read stays on this
    /// computer and is not shared with the account's other apps.
    case markers
    /// The user's event stream (`GET /api/v1/streaming/user`): without it, `show -f` checks
    /// for new posts by syncing at an interval.
    case streaming
    /// The person's filters (`GET /api/v2/filters`, Mastodon 4.0; a server before it answers 404,
    /// one that refuses the method 405; Takahē 0.11 answers `[]`, having none): without
    /// them, the keywords of filters set on the server are not applied to what is stored.
    case filters
    /// Grouped notifications (`GET /api/v2/notifications`, Mastodon 4.3; a server before it
    /// answers 404): without them, notifications are listed one by one. Kept in the
    /// notifications' sync state, not the home timeline's: the v1 list loses nothing, so it is
    /// not among the lacks a sync tells.
    case groupedNotifications = "grouped_notifications"

    /// How long a server's lack of a feature is trusted before asking again: a day.
    public static let recheckInterval: Duration = .seconds(24 * 3600)

    /// What the person loses, for the sentence that tells them once.
    public var consequence: String {
        switch self {
        case .markers: "what you read stays on this computer and is not shared with your other apps"
        case .streaming: "new posts are fetched at an interval instead of as they arrive"
        case .filters: "filters set on the server are not applied to the posts stored here"
        case .groupedNotifications: "notifications are listed one by one instead of grouped"
        }
    }

    /// What it is, in a few words (`read markers`).
    public var name: String {
        switch self {
        case .markers: "read markers"
        case .streaming: "streaming"
        case .filters: "filters (v2)"
        case .groupedNotifications: "grouped notifications (v2)"
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
