/// Why a subscription could not be made, found or changed. ``description`` says what to do.
public enum FeedSubscriptionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No subscription has this name or URL.
    case unknown(String)
    /// Another subscription has this name.
    case nameTaken(String)
    /// A name that cannot be used: empty, too long, or with spaces or control characters.
    case invalidName(String)
    /// An interval shorter than ``FeedSubscriptions/shortestInterval``.
    case invalidInterval(seconds: Int)
    /// The URL is neither a feed nor a page that names one.
    case notAFeed(url: String, reason: FeedError)
    /// The URL could not be fetched.
    case fetch(FeedFetchError)
    /// A stored subscription cannot be read (written by a newer timeline, or damaged).
    case unreadable(key: String)

    public var description: String {
        switch self {
        case let .unknown(reference):
            "no subscription is named or has the URL \"\(reference)\"; `timeline subscriptions` lists them."
        case let .nameTaken(name):
            "a subscription is already named \"\(name)\"; choose another with --name."
        case let .invalidName(name):
            "\"\(name)\" cannot name a subscription: use 1 to \(FeedSubscriptions.maximumNameLength) characters, no spaces or control characters."
        case let .invalidInterval(seconds):
            "\(seconds) seconds is too often to fetch a feed; give \(FeedSubscriptions.shortestInterval.components.seconds / 60) minute or more (30m, 2h, 1d)."
        case let .notAFeed(url, reason):
            "\(url) is not a feed: \(reason)"
        case let .fetch(error):
            error.description
        case let .unreadable(key):
            "the stored subscription \(key) cannot be read (written by a newer timeline?); upgrade timeline."
        }
    }
}
