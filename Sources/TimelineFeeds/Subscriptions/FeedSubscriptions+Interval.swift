#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

extension FeedSubscriptions {
    /// Sets how often the subscription named (or with the URL) `reference` is fetched: `every`,
    /// or the default hour when nil. Its next fetch is then that long after its last one.
    ///
    /// - Returns: the subscription as stored.
    /// - Throws: ``FeedSubscriptionError/unknown(_:)``, ``FeedSubscriptionError/invalidInterval(seconds:)``
    ///   (shorter than ``shortestInterval``), or `TimelineStoreError`.
    @discardableResult
    public func setInterval(of reference: String, to every: Duration?) throws -> FeedSubscription {
        let interval = try every.map(Self.intervalSeconds)
        return try store.write { transaction in
            let all = try Self.decode(transaction.sourceStates(of: .feed))
            guard var subscription = all.first(where: { $0.name == reference }) ?? all.first(where: { $0.url == reference }) else {
                throw FeedSubscriptionError.unknown(reference)
            }
            subscription.interval = interval
            try Self.store(subscription, nil, in: transaction)
            return subscription
        }
    }

    /// `every` in whole seconds, refused below ``shortestInterval``.
    static func intervalSeconds(_ every: Duration) throws(FeedSubscriptionError) -> Int {
        let seconds = every.components.seconds
        guard seconds >= shortestInterval.components.seconds else { throw .invalidInterval(seconds: Int(clamping: seconds)) }
        return Int(clamping: seconds)
    }

    /// The feed's own interval in seconds, at most ``longestPublisherInterval``.
    static func publisherSeconds(_ feed: ParsedFeed) -> Int? {
        feed.refreshInterval.map { Int(clamping: min($0, longestPublisherInterval).components.seconds) }
    }

    /// The SHA-256 of `body`, in lowercase hexadecimal (``FeedSubscription/contentHash``).
    static func contentHash(_ body: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in ContentDigest.sha256(body) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
