import TimelineKit

extension FeedSubscriptions {
    /// Subscribes to every feed of a list (an ``OPMLDocument``'s ``OPMLDocument/subscriptions``)
    /// without fetching any: all of them in one transaction, so that a failure stores none.
    ///
    /// Each feed URL is taken once, the first time the list names it; one a subscription has
    /// already is left as it is. A new subscription has no last fetch, so the next sync that
    /// fetches due feeds fetches it. Its name is the outline's title (spaces as `-`), else its
    /// feed's host, cut to ``maximumNameLength`` and made unique with `-2`, `-3`, …; its title
    /// and home page are the outline's until the first fetch says otherwise.
    ///
    /// A URL no fetch would send (plain `http://` beyond this machine, or not an `http(s)://`
    /// URL at all: see `HTTPRequest.checkURL(_:)`) is skipped, not stored: it could never be
    /// fetched. The caller says which, so that a person can subscribe to their `https://`
    /// addresses.
    ///
    /// ```swift
    /// let list = try OPMLDocument(parsing: bytes)
    /// let addition = try FeedSubscriptions(store: store).add(list.subscriptions)
    /// print("\(addition.added.count) added, \(addition.alreadySubscribed.count) already there")
    /// ```
    ///
    /// - Throws: `TimelineStoreError`, or ``FeedSubscriptionError/unreadable(key:)``.
    public func add(_ outlines: [OPMLSubscription]) throws -> FeedListAddition {
        var addition = FeedListAddition()
        var seen: Set<String> = []
        var fetchable: [OPMLSubscription] = []
        for outline in outlines where seen.insert(outline.feedURL).inserted {
            do throws(HTTPTransportError) {
                try HTTPRequest.checkURL(outline.feedURL)
                fetchable.append(outline)
            } catch {
                addition.skipped.append(FeedListAddition.Skipped(outline: outline, reason: error))
            }
        }
        guard !fetchable.isEmpty else { return addition }
        return try store.write { transaction -> FeedListAddition in
            // Read inside the transaction: another process may have subscribed meanwhile.
            let all = try Self.decode(transaction.sourceStates(of: .feed))
            var byURL = Dictionary(all.map { ($0.url, $0) }, uniquingKeysWith: { first, _ in first })
            var names = Set(all.map(\.name))
            var ids = Set(all.map(\.id))
            for outline in fetchable {
                if let existing = byURL[outline.feedURL] {
                    addition.alreadySubscribed.append(existing)
                    continue
                }
                let subscription = FeedSubscription(
                    id: Self.newID(among: ids), name: Self.uniqueName(Self.name(for: outline), among: names),
                    url: outline.feedURL, title: outline.title, homeURL: outline.homeURL)
                try Self.store(subscription, nil, in: transaction)
                names.insert(subscription.name)
                ids.insert(subscription.id)
                byURL[subscription.url] = subscription
                addition.added.append(subscription)
            }
            return addition
        }
    }

    /// Every subscription as an OPML list (``OPMLDocument/xml()`` writes it), by name: each an
    /// outline of type `rss` with the feed's title (its name when it has none), its URL and its
    /// home page when known.
    ///
    /// - Throws: `TimelineStoreError`, or ``FeedSubscriptionError/unreadable(key:)``.
    public func opmlDocument(title: String = "timeline subscriptions") throws -> OPMLDocument {
        OPMLDocument(title: title, subscriptions: try all().map { subscription in
            OPMLSubscription(feedURL: subscription.url, title: subscription.title ?? subscription.name, homeURL: subscription.homeURL)
        })
    }

    /// The name an outline's subscription is known by before it is made unique: its title with
    /// white space as `-` and control characters left out, else its feed's host; at most
    /// ``maximumNameLength`` characters.
    static func name(for outline: OPMLSubscription) -> String {
        if let title = outline.title {
            let words = title.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: "-")
            let kept = String(String.UnicodeScalarView(words.unicodeScalars.filter {
                !$0.properties.isWhitespace && $0.properties.generalCategory != .control
            }))
            let name = String(kept.prefix(maximumNameLength))
            if isValidName(name) { return name }
        }
        return String(defaultName(feedURL: outline.feedURL, title: nil).prefix(maximumNameLength))
    }
}
