#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

extension FeedSubscriptions {
    /// Subscribes to the feed at `url`, or to the first feed the HTML page at `url` names: fetches
    /// it once and stores the subscription with its items in one transaction (which rewrites the
    /// snapshot), so that a failure at any step stores nothing.
    ///
    /// The subscription keeps the feed's URL (after a page's discovery, and after permanent
    /// redirects; a temporary one is followed and forgotten), its title and home page, the
    /// validators as received and the fetch time. Its name is `name`, else the feed's host
    /// (without `www.`), made unique with `-2`, `-3`, ….
    ///
    /// `every` is the subscription's ``FeedSubscription/interval`` (nil: the default hour). The
    /// fetch counts as its first: a `sync` right after `subscribe` fetches nothing.
    ///
    /// - Returns: ``FeedSubscribeOutcome/alreadySubscribed(_:)`` when a subscription has the
    ///   feed's URL already (nothing is stored then; ``setInterval(of:to:)`` changes its interval).
    /// - Throws: ``FeedSubscriptionError``: `.fetch` (unreachable, an HTTP error, a refused
    ///   redirect or size), `.notAFeed` (neither a feed nor a page naming one), `.invalidName`,
    ///   `.nameTaken`, `.invalidInterval`; or `TimelineStoreError`.
    public func subscribe(to url: String, name: String? = nil, every: Duration? = nil, fetcher: FeedFetcher,
                          now: Date = Date()) async throws -> FeedSubscribeOutcome {
        if let name, !Self.isValidName(name) { throw FeedSubscriptionError.invalidName(name) }
        let interval = try every.map(Self.intervalSeconds)
        if let existing = try all().first(where: { $0.url == url }) { return .alreadySubscribed(existing) }
        var fetched = try await fetch(url, fetcher: fetcher)
        var feed: ParsedFeed
        do {
            feed = try FeedParser.parse(fetched.body, url: fetched.feedURL)
        } catch where error.problem.isHTMLPage {
            guard let named = FeedDiscovery.feeds(inPage: fetched.body, url: fetched.result.finalURL).first else {
                throw FeedSubscriptionError.notAFeed(url: url, reason: error)
            }
            if let existing = try all().first(where: { $0.url == named.url }) { return .alreadySubscribed(existing) }
            fetched = try await fetch(named.url, fetcher: fetcher)
            do {
                feed = try FeedParser.parse(fetched.body, url: fetched.feedURL)
            } catch {
                throw FeedSubscriptionError.notAFeed(url: named.url, reason: error)
            }
        } catch {
            throw FeedSubscriptionError.notAFeed(url: url, reason: error)
        }
        let feedURL = fetched.feedURL
        let now = Self.stored(now)
        let chosenName = name
        return try store.write { transaction -> FeedSubscribeOutcome in
            // Decided again inside the transaction: another process may have subscribed meanwhile.
            let all = try Self.decode(transaction.sourceStates(of: .feed))
            if let existing = all.first(where: { $0.url == feedURL }) { return .alreadySubscribed(existing) }
            let names = Set(all.map(\.name))
            let name: String
            if let chosenName {
                guard !names.contains(chosenName) else { throw FeedSubscriptionError.nameTaken(chosenName) }
                name = chosenName
            } else {
                name = Self.uniqueName(Self.defaultName(feedURL: feedURL, title: feed.title), among: names)
            }
            let subscription = FeedSubscription(
                id: Self.newID(among: Set(all.map(\.id))), name: name, url: feedURL, title: feed.title,
                homeURL: feed.homeURL, validators: fetched.result.validators, lastFetch: now, interval: interval,
                publisherInterval: Self.publisherSeconds(feed), contentHash: Self.contentHash(fetched.body))
            let items = FeedMessages(feed: feed, subscription: subscription.identity, fetchedAt: now)
            try Self.store(subscription, items, in: transaction)
            return .subscribed(subscription, items: items.messages.count)
        }
    }

    /// A fetch's body and the URL the feed is to be known by: where it moved for good, else the
    /// URL asked for.
    private struct Fetched {
        var result: FeedFetchResult
        var body: [UInt8]
        var feedURL: String
    }

    private func fetch(_ url: String, fetcher: FeedFetcher) async throws(FeedSubscriptionError) -> Fetched {
        let result: FeedFetchResult
        do {
            result = try await fetcher.fetch(url)
        } catch {
            throw .fetch(error)
        }
        // No validators were sent, so no server has reason to answer 304; one that does sent no feed.
        guard case let .fetched(body) = result.outcome else { throw .fetch(.status(304, url: url)) }
        return Fetched(result: result, body: body, feedURL: result.movedPermanentlyTo ?? url)
    }

    /// The feed's host without `www.`, else its title, else `feed`.
    static func defaultName(feedURL: String, title: String?) -> String {
        if let host = URL(string: feedURL)?.host, !host.isEmpty {
            return host.hasPrefix("www.") ? String(host.dropFirst(4)) : host
        }
        let words = (title ?? "").split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: "-")
        let name = String(words.prefix(maximumNameLength))
        return isValidName(name) ? name : "feed"
    }

    /// `base`, or `base-2`, `base-3`, … the first that `names` does not hold; `base` is cut
    /// before its number so that the name stays within ``maximumNameLength``.
    static func uniqueName(_ base: String, among names: Set<String>) -> String {
        if !names.contains(base) { return base }
        var number = 2
        while true {
            let suffix = "-\(number)"
            let name = String(base.prefix(maximumNameLength - suffix.count)) + suffix
            if !names.contains(name) { return name }
            number += 1
        }
    }

    /// Eight hex digits no subscription has: short enough for a message ID's namespace, random so
    /// that an ID is never reused by a later subscription (whose items would take over old rows).
    static func newID(among ids: Set<String>) -> String {
        while true {
            let digits = String(UInt32.random(in: 0 ... .max), radix: 16)
            let id = String(repeating: "0", count: 8 - digits.count) + digits
            if !ids.contains(id) { return id }
        }
    }
}
