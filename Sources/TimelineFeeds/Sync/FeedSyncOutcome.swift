#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a sync did with one subscription.
public struct FeedSyncOutcome: Sendable, Equatable {
    /// What happened.
    public enum Kind: Sendable, Equatable {
        /// A new body was parsed and stored: `newItems` messages added, `editedItems` changed in place.
        case fetched(newItems: Int, editedItems: Int)
        /// A 304, or the same body as last time (``FeedSubscription/contentHash``): nothing parsed,
        /// no message written.
        case unchanged
        /// Not due yet (``FeedSubscription/nextDue``): no request.
        case notDue
        /// The server asked to wait (``FeedSubscription/retryAfter``) until this time: no request.
        case waiting(until: Date)
        /// The fetch or the parse failed; the subscription keeps the problem and the sync went on.
        case failed(FeedSubscriptionError)
    }

    /// The subscription as it was stored after the sync (its URL moved by a 301, its problem…).
    public var subscription: FeedSubscription
    /// What happened.
    public var kind: Kind

    /// An outcome with the given parts.
    public init(subscription: FeedSubscription, kind: Kind) {
        self.subscription = subscription
        self.kind = kind
    }
}
