#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

/// The feeds a person subscribed to, kept in a timeline's database beside the items they gave:
/// each a state document of the source ``MessageSource/feed`` (TimelineKit's
/// `setSourceState(_:of:key:)`), keyed by the subscription's ``FeedSubscription/id``, written in
/// the transaction that stores its items, so that a subscription and its items are stored, or
/// removed, together.
///
/// ```swift
/// let subscriptions = FeedSubscriptions(store: store)
/// let outcome = try await subscriptions.subscribe(to: "https://example.com/", fetcher: FeedFetcher(transport: CurlTransport()))
/// for subscription in try subscriptions.all() { print(subscription.name, subscription.url) }
/// ```
public struct FeedSubscriptions: Sendable {
    /// The longest name, in characters.
    public static let maximumNameLength = 64
    /// How long after its last fetch a feed is due, unless its subscription says otherwise
    /// (``FeedSubscription/interval``): an hour, as issue 35 decided.
    public static let defaultInterval: Duration = .seconds(3600)
    /// The shortest interval a person may choose: a minute, so that a typo cannot make every
    /// shell prompt's background sync ask a server again.
    public static let shortestInterval: Duration = .seconds(60)
    /// The longest a feed's own `ttl` or `sy:updatePeriod` may stretch its interval (a day): a
    /// feed that says "yearly" is still looked at daily.
    public static let longestPublisherInterval: Duration = .seconds(86_400)

    /// The database the subscriptions live in.
    public let store: TimelineStore

    /// The subscriptions stored in `store`.
    public init(store: TimelineStore) {
        self.store = store
    }

    /// Every subscription, by name.
    ///
    /// - Throws: `TimelineStoreError`, or ``FeedSubscriptionError/unreadable(key:)``.
    public func all() throws -> [FeedSubscription] {
        try Self.decode(store.sourceStates(of: .feed))
    }

    /// The subscription named `reference`, else the one whose URL is `reference`, else nil.
    public func find(_ reference: String) throws -> FeedSubscription? {
        let all = try all()
        return all.first { $0.name == reference } ?? all.first { $0.url == reference }
    }

    /// Removes the subscription named (or with the URL) `reference` and every message of its
    /// items, in one transaction. Returns it and how many messages were removed.
    ///
    /// - Throws: ``FeedSubscriptionError/unknown(_:)`` when none matches, or `TimelineStoreError`.
    public func unsubscribe(_ reference: String) throws -> (subscription: FeedSubscription, removedMessages: Int) {
        try store.write { transaction in
            let all = try Self.decode(transaction.sourceStates(of: .feed))
            guard let subscription = all.first(where: { $0.name == reference }) ?? all.first(where: { $0.url == reference }) else {
                throw FeedSubscriptionError.unknown(reference)
            }
            let ids = try transaction.messageIDs(startingWith: subscription.messageIDPrefix)
            let removed = try transaction.deleteMessages(ids: ids)
            try transaction.setSourceState(nil, of: .feed, key: subscription.id)
            return (subscription, removed)
        }
    }

    /// Stores `subscription` (replacing the one with its ID) and its items' users and messages,
    /// in the transaction `transaction`.
    static func store(_ subscription: FeedSubscription, _ items: FeedMessages?, in transaction: TimelineTransaction) throws {
        try transaction.setSourceState(encode(subscription), of: .feed, key: subscription.id)
        if let items {
            try transaction.upsert(users: items.users)
            try transaction.upsert(messages: items.messages)
        }
    }

    static func decode(_ states: [String: String]) throws -> [FeedSubscription] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            wholeMilliseconds(try Int64(from: decoder))
        }
        return try states.map { key, json in
            guard let subscription = try? decoder.decode(FeedSubscription.self, from: Data(json.utf8)) else {
                throw FeedSubscriptionError.unreadable(key: key)
            }
            return subscription
        }.sorted { $0.name < $1.name }
    }

    static func encode(_ subscription: FeedSubscription) throws -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(milliseconds(date))
        }
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(subscription), as: UTF8.self)
    }

    /// Times are stored in whole milliseconds, as integers: a `Date` with a fraction of a
    /// millisecond, or a floating-point round trip, would read back unequal to what was stored.
    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }

    static func wholeMilliseconds(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    /// `date` as it reads back once stored.
    static func stored(_ date: Date) -> Date { wholeMilliseconds(milliseconds(date)) }

    /// Whether `name` can name a subscription: 1 to ``maximumNameLength`` characters, none a
    /// space or a control character (it is typed as one shell word and painted as a handle).
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= maximumNameLength
            && !name.unicodeScalars.contains { $0.properties.isWhitespace || $0.properties.generalCategory == .control }
    }
}
