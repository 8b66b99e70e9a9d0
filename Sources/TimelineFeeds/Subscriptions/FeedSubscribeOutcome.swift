/// What ``FeedSubscriptions/subscribe(to:name:fetcher:now:)`` did.
public enum FeedSubscribeOutcome: Sendable, Hashable {
    /// A new subscription, stored with its items.
    case subscribed(FeedSubscription, items: Int)
    /// A subscription to the same feed URL was there already; nothing changed.
    case alreadySubscribed(FeedSubscription)
}
