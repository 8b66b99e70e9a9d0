#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One feed a person subscribed to, as ``FeedSubscriptions`` stores it.
public struct FeedSubscription: Sendable, Hashable, Codable {
    /// Short, stable for the subscription's life: the namespace of its items' message IDs
    /// (``identity``), unchanged by a rename or a permanent redirect.
    public var id: String
    /// What a person calls it (`timeline unsubscribe NAME`), unique among subscriptions.
    public var name: String
    /// The feed's URL (a page's subscription holds the feed's, not the page's), moved by a 301.
    public var url: String
    /// The feed's title as plain text, when it has one.
    public var title: String?
    /// The site the feed belongs to, when it says.
    public var homeURL: String?
    /// The validators of the last answer, exactly as received.
    public var validators: FeedValidators
    /// When the feed was last fetched, answered or not.
    public var lastFetch: Date?
    /// What went wrong at the last fetch, as one line, nil when it went well.
    public var problem: String?
    /// The seconds between fetches the person chose (`timeline subscribe URL --every 30m`);
    /// nil for ``FeedSubscriptions/defaultInterval``.
    public var interval: Int?
    /// The seconds the feed itself says a copy stays fresh (RSS `ttl`, `sy:updatePeriod`), as
    /// of its last parse, at most ``FeedSubscriptions/longestPublisherInterval``; nil when it
    /// says nothing. Honoured when longer than ``interval``.
    public var publisherInterval: Int?
    /// No request goes to the feed before this time: the `Retry-After` of its last 429 or 503
    /// (``FeedRetryAfter``), not even when a sync is asked to fetch every feed now.
    public var retryAfter: Date?
    /// The SHA-256 (hexadecimal) of the body last parsed: the same body again is not parsed
    /// and writes no message, for servers that send no validators.
    public var contentHash: String?

    /// A subscription with the given parts.
    public init(id: String, name: String, url: String, title: String? = nil, homeURL: String? = nil,
                validators: FeedValidators = FeedValidators(), lastFetch: Date? = nil, problem: String? = nil,
                interval: Int? = nil, publisherInterval: Int? = nil, retryAfter: Date? = nil, contentHash: String? = nil) {
        self.id = id
        self.name = name
        self.url = url
        self.title = title
        self.homeURL = homeURL
        self.validators = validators
        self.lastFetch = lastFetch
        self.problem = problem
        self.interval = interval
        self.publisherInterval = publisherInterval
        self.retryAfter = retryAfter
        self.contentHash = contentHash
    }

    /// The seconds from one fetch to the next: the person's ``interval`` (else an hour), or the
    /// feed's own ``publisherInterval`` when that is longer.
    public var effectiveInterval: Int {
        max(interval ?? Int(FeedSubscriptions.defaultInterval.components.seconds), publisherInterval ?? 0)
    }

    /// When the next sync fetches the feed: ``effectiveInterval`` after the last fetch (nil, at
    /// once, when it was never fetched), and never before ``retryAfter``.
    public var nextDue: Date? {
        let due = lastFetch.map { $0.addingTimeInterval(Double(effectiveInterval)) }
        guard let retryAfter else { return due }
        return max(due ?? retryAfter, retryAfter)
    }

    /// Whether a sync at `now` fetches the feed.
    public func isDue(at now: Date) -> Bool { nextDue.map { $0 <= now } ?? true }

    /// Whether the server's `Retry-After` still forbids a request at `now`.
    public func isWaiting(at now: Date) -> Bool { retryAfter.map { $0 > now } ?? false }

    /// What its items' messages are named by.
    public var identity: FeedSubscriptionIdentity { FeedSubscriptionIdentity(id: id, name: name) }

    /// The prefix of every message ID of its items (`feed:<id>:`).
    public var messageIDPrefix: String { FeedMessages.messageID(subscription: id, itemID: "") }
}
