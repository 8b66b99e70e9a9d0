import TimelineKit

/// What ``FeedSubscriptions/add(_:)`` did with a list's feeds (an OPML file's outlines), each
/// feed URL counted once however often the list names it.
public struct FeedListAddition: Sendable, Equatable {
    /// A feed of the list that no fetch could ever reach, and why.
    public struct Skipped: Sendable, Equatable {
        /// The outline as the list gave it.
        public var outline: OPMLSubscription
        /// Why it cannot be fetched: ``HTTPTransportError/insecureURL(_:)`` for plain `http://`
        /// beyond this machine, ``HTTPTransportError/invalidURL(_:)`` for anything else that is
        /// not an `https://` URL.
        public var reason: HTTPTransportError

        /// A feed left out for `reason`.
        public init(outline: OPMLSubscription, reason: HTTPTransportError) {
            self.outline = outline
            self.reason = reason
        }
    }

    /// The new subscriptions, in the list's order: never fetched, so due at once.
    public var added: [FeedSubscription] = []
    /// The subscriptions that had a feed of the list already, left as they were.
    public var alreadySubscribed: [FeedSubscription] = []
    /// The feeds left out, in the list's order.
    public var skipped: [Skipped] = []

    /// An addition with the given parts.
    public init(added: [FeedSubscription] = [], alreadySubscribed: [FeedSubscription] = [], skipped: [Skipped] = []) {
        self.added = added
        self.alreadySubscribed = alreadySubscribed
        self.skipped = skipped
    }
}
