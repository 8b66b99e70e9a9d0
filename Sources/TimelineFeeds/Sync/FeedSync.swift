#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

/// Fetches the subscriptions that are due and stores what changed: what `timeline sync` does for
/// feeds.
///
/// - **Due**: a feed is fetched ``FeedSubscription/effectiveInterval`` after its last fetch (an
///   hour unless the person chose, longer when the feed's `ttl` says so); `fetchingAll` fetches
///   every feed now, except those whose server asked to wait (429 or 503 with `Retry-After`):
///   no request goes to them before ``FeedSubscription/retryAfter``.
/// - **Conditional**: the stored validators go back exactly as received; a 304 parses nothing
///   and writes no message. A 200 whose body has the SHA-256 of the last body parsed is treated
///   the same (servers that send no validators, or new ones for the same bytes).
/// - **Redirects**: ``FeedFetcher``'s: a 301 (or 308) chain moves the subscription's URL, a 302
///   or 307 is followed and forgotten, https never goes to http.
/// - **Concurrent, one writer**: at most ``concurrency`` fetches (and their parses) run at once;
///   each feed's result is written as it arrives, in one transaction per feed, by this one task,
///   so that the store keeps its single writer and a failure never undoes another feed's work.
/// - **Failures** stay with their feed: the problem (one line) is kept in its subscription and
///   the sync goes on; ``FeedSyncSummary`` says what became of each.
/// - **Items**: the same item (same guid or id) is the same message, updated in place: its ID,
///   its place (an undated item keeps the time first seen) and its read state are kept; when its
///   text or link changed it is marked edited (`editedAt`: the item's update time, else the
///   fetch). Items that leave the feed stay.
///
/// A feed that was not asked, or answered that nothing changed, still has its subscription
/// written (its last fetch, its validators): a state document, which moves neither the
/// timeline's generation nor the snapshot.
///
/// ```swift
/// let sync = FeedSync(store: store, fetcher: FeedFetcher(transport: CurlTransport()))
/// let summary = try await sync.run()
/// print(summary.fetched, summary.unchanged, summary.failed)
/// ```
public struct FeedSync: Sendable {
    /// The most feeds fetched at once: enough that 200 feeds take about 50 round trips, not
    /// 200, few enough that one person's sync is not a crawler to anyone's server.
    public static let defaultConcurrency = 4

    /// The database of the subscriptions and their items.
    public let store: TimelineStore
    /// How feeds are fetched.
    public let fetcher: FeedFetcher
    /// The most fetches in flight at once (at least 1).
    public let concurrency: Int

    /// A sync of `store`'s subscriptions through `fetcher`.
    public init(store: TimelineStore, fetcher: FeedFetcher, concurrency: Int = FeedSync.defaultConcurrency) {
        self.store = store
        self.fetcher = fetcher
        self.concurrency = max(1, concurrency)
    }

    /// Fetches each due subscription (every one, with `fetchingAll`, but never one whose
    /// ``FeedSubscription/retryAfter`` is still ahead) and stores what changed.
    ///
    /// - Parameter now: the time the sync runs at (tests pass their own).
    /// - Returns: one outcome per subscription, by name.
    /// - Throws: `TimelineStoreError` or ``FeedSubscriptionError/unreadable(key:)`` when the
    ///   database cannot be read or written: the feeds stored before it stay stored. A feed's
    ///   own failure is never thrown; it is in the summary.
    public func run(fetchingAll: Bool = false, now: Date = Date()) async throws -> FeedSyncSummary {
        let now = FeedSubscriptions.stored(now)
        var outcomes: [FeedSyncOutcome] = []
        var due: [FeedSubscription] = []
        for subscription in try FeedSubscriptions(store: store).all() {
            if let until = subscription.retryAfter, until > now {
                outcomes.append(FeedSyncOutcome(subscription: subscription, kind: .waiting(until: until)))
            } else if fetchingAll || subscription.isDue(at: now) {
                due.append(subscription)
            } else {
                outcomes.append(FeedSyncOutcome(subscription: subscription, kind: .notDue))
            }
        }
        let fetcher = fetcher
        try await withThrowingTaskGroup(of: (FeedSubscription, Fetched).self) { group in
            var waiting = due.makeIterator()
            // A window of `concurrency` fetches: each one that ends makes room for the next.
            for _ in 0 ..< concurrency {
                guard let next = waiting.next() else { break }
                group.addTask { (next, await Self.fetch(next, with: fetcher, now: now)) }
            }
            while let (subscription, fetched) = try await group.next() {
                outcomes.append(try record(fetched, of: subscription, now: now))
                if let next = waiting.next() {
                    group.addTask { (next, await Self.fetch(next, with: fetcher, now: now)) }
                }
            }
        }
        return FeedSyncSummary(outcomes: outcomes.sorted { $0.subscription.name < $1.subscription.name })
    }

    /// One feed's fetch, parsed when it changed: what the writer stores.
    enum Fetched: Sendable {
        case notModified(FeedFetchResult)
        case sameBody(FeedFetchResult)
        case changed(FeedFetchResult, ParsedFeed, contentHash: String)
        case failed(FeedSubscriptionError, retryAfter: Date?)
    }

    /// Fetches `subscription` and parses what changed; runs in the task group, off the writer.
    static func fetch(_ subscription: FeedSubscription, with fetcher: FeedFetcher, now: Date) async -> Fetched {
        let result: FeedFetchResult
        do {
            result = try await fetcher.fetch(subscription.url, validators: subscription.validators)
        } catch {
            if case let .retryLater(_, _, retryAfter?) = error {
                return .failed(.fetch(error), retryAfter: FeedRetryAfter.date(retryAfter, now: now))
            }
            return .failed(.fetch(error), retryAfter: nil)
        }
        guard case let .fetched(body) = result.outcome else { return .notModified(result) }
        let hash = FeedSubscriptions.contentHash(body)
        if hash == subscription.contentHash { return .sameBody(result) }
        do {
            let feed = try FeedParser.parse(body, url: result.movedPermanentlyTo ?? subscription.url)
            return .changed(result, feed, contentHash: hash)
        } catch {
            return .failed(.notAFeed(url: result.finalURL, reason: error), retryAfter: nil)
        }
    }

    /// Stores one feed's fetch in one transaction: its subscription, and its items when they changed.
    private func record(_ fetched: Fetched, of asked: FeedSubscription, now: Date) throws -> FeedSyncOutcome {
        var items: FeedMessages?
        var counts = (new: 0, edited: 0)
        if case let .changed(_, feed, _) = fetched {
            var parsed = FeedMessages(feed: feed, subscription: asked.identity, fetchedAt: now)
            counts = try merge(&parsed, undated: Set(feed.items.filter { $0.published == nil && $0.updated == nil }
                .map { FeedMessages.messageID(subscription: asked.id, itemID: $0.id) }), now: now)
            items = parsed
        }
        let stored = try store.write { transaction -> FeedSubscription? in
            // Read again under the write lock: the subscription may have been renamed, given a
            // new interval or removed while its feed was fetched.
            guard let json = try transaction.sourceStates(of: .feed)[asked.id],
                  var subscription = try FeedSubscriptions.decode([asked.id: json]).first else { return nil }
            subscription.lastFetch = now
            subscription.retryAfter = nil
            subscription.problem = nil
            switch fetched {
            case let .notModified(result), let .sameBody(result):
                subscription.validators = result.validators
                if let moved = result.movedPermanentlyTo { subscription.url = moved }
            case let .changed(result, feed, hash):
                subscription.validators = result.validators
                if let moved = result.movedPermanentlyTo { subscription.url = moved }
                subscription.contentHash = hash
                subscription.title = feed.title ?? subscription.title
                subscription.homeURL = feed.homeURL ?? subscription.homeURL
                subscription.publisherInterval = FeedSubscriptions.publisherSeconds(feed)
            case let .failed(error, retryAfter):
                subscription.problem = FeedProblemLine.line(error.description)
                subscription.retryAfter = retryAfter
            }
            try FeedSubscriptions.store(subscription, items, in: transaction)
            return subscription
        }
        let kind: FeedSyncOutcome.Kind = switch fetched {
        case .notModified, .sameBody: .unchanged
        case .changed: .fetched(newItems: counts.new, editedItems: counts.edited)
        case let .failed(error, _): .failed(error)
        }
        return FeedSyncOutcome(subscription: stored ?? asked, kind: kind)
    }

    /// Makes `items` agree with what is stored: an item already stored keeps its time when the
    /// feed dates it not (`undated`), and is marked edited when its text or link changed (else
    /// keeps the stored mark), so that an unchanged item is an identical row the store does
    /// not write. Returns how many are new and how many were edited.
    private func merge(_ items: inout FeedMessages, undated: Set<String>, now: Date) throws -> (new: Int, edited: Int) {
        let stored = Dictionary(try store.messages(ids: items.messages.map(\.id)).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var counts = (new: 0, edited: 0)
        for index in items.messages.indices {
            let message = items.messages[index]
            guard let old = stored[message.id] else {
                counts.new += 1
                continue
            }
            if undated.contains(message.id) { items.messages[index].createdAt = old.createdAt }
            if old.text != message.text || old.url != message.url {
                items.messages[index].editedAt = message.editedAt ?? now
                counts.edited += 1
            } else {
                items.messages[index].editedAt = message.editedAt ?? old.editedAt
            }
        }
        return counts
    }
}
