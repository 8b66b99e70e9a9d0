/// What ``FeedSync/run(fetchingAll:)`` did, one outcome per subscription, by name.
public struct FeedSyncSummary: Sendable, Equatable {
    /// One outcome per subscription.
    public var outcomes: [FeedSyncOutcome]

    /// A summary of these outcomes.
    public init(outcomes: [FeedSyncOutcome]) {
        self.outcomes = outcomes
    }

    /// Feeds whose new body was stored.
    public var fetched: Int { outcomes.count { if case .fetched = $0.kind { true } else { false } } }
    /// Feeds asked that had not changed (a 304, or the same body).
    public var unchanged: Int { outcomes.count { $0.kind == .unchanged } }
    /// Feeds whose fetch or parse failed.
    public var failed: Int { outcomes.count { if case .failed = $0.kind { true } else { false } } }
    /// Feeds not asked: not due, or waiting for their server's `Retry-After`.
    public var notAsked: Int {
        outcomes.count { if case .notDue = $0.kind { true } else if case .waiting = $0.kind { true } else { false } }
    }
    /// Messages added, over every feed.
    public var newItems: Int {
        outcomes.reduce(0) { if case let .fetched(new, _) = $1.kind { $0 + new } else { $0 } }
    }
    /// Messages edited in place, over every feed.
    public var editedItems: Int {
        outcomes.reduce(0) { if case let .fetched(_, edited) = $1.kind { $0 + edited } else { $0 } }
    }
    /// The failures, each with its subscription.
    public var failures: [(subscription: FeedSubscription, error: FeedSubscriptionError)] {
        outcomes.compactMap { if case let .failed(error) = $0.kind { ($0.subscription, error) } else { nil } }
    }
}
