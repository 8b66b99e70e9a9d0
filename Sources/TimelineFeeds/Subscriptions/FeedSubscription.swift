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
    /// What went wrong at the last fetch, nil when it went well.
    public var problem: String?

    /// A subscription with the given parts.
    public init(id: String, name: String, url: String, title: String? = nil, homeURL: String? = nil,
                validators: FeedValidators = FeedValidators(), lastFetch: Date? = nil, problem: String? = nil) {
        self.id = id
        self.name = name
        self.url = url
        self.title = title
        self.homeURL = homeURL
        self.validators = validators
        self.lastFetch = lastFetch
        self.problem = problem
    }

    /// What its items' messages are named by.
    public var identity: FeedSubscriptionIdentity { FeedSubscriptionIdentity(id: id, name: name) }

    /// The prefix of every message ID of its items (`feed:<id>:`).
    public var messageIDPrefix: String { FeedMessages.messageID(subscription: id, itemID: "") }
}
