#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Keeps one Bluesky account's home timeline and notifications in a `TimelineStore`: what
/// `timeline sync` does for a Bluesky account.
///
/// ```swift
/// let client = BlueskyClient(service: try ServerAddress("https://bsky.social"), session: blueskySession,
///                            transport: transport) { renewed in save(renewed) }
/// let summary = try await BlueskySync(store: store, account: "alice.bsky.social", client: client).run()
/// ```
///
/// **Paging.** `app.bsky.feed.getTimeline` is paged by an opaque `cursor`, newest first. The
/// first sync stores the newest `Options.homeDepth` items (200); every later sync asks for the
/// newest page and goes on with the cursor until it reaches an item it already holds (decoding
/// none of it, nor what follows in that answer: held items are told by their entry IDs, so a
/// sync no longer refreshes the like counts of posts it holds, as on Mastodon). When the
/// request bound comes first, what lies between is recorded as a gap and filled on the next
/// sync, as for Mastodon: the paging, gaps and positions are `TimelinePager`'s, shared with
/// `MastodonSync`. Each page is stored in one transaction with the position it moves; the
/// snapshot is rewritten once, at the end.
///
/// **What is stored.** Feed items as `BlueskyDecoder` reads them (reposts, replies with their
/// parents, quotes, images, facets written out), under Bluesky's global IDs (AT URIs, DIDs): a
/// post seen by two accounts is one message, and nothing collides with a Mastodon server's IDs.
/// The account's own posts arrive read.
///
/// **Notifications** (`app.bsky.notification.listNotifications`) are stored like Mastodon's,
/// for `show --notifications`; the posts that likes and reposts name, which the answer does not
/// carry, are fetched with `app.bsky.feed.getPosts` (25 a request) before the page is stored,
/// and are marked read (they are the account's own).
public struct BlueskySync: Sendable {
    /// What a sync fetches, and how much.
    public struct Options: Sendable, Hashable {
        /// How many of the newest home items the first sync of an account stores.
        public var homeDepth: Int
        /// How many of the newest notifications the first sync stores.
        public var notificationDepth: Int
        /// Items asked for per request (Bluesky gives at most 100).
        public var pageSize: Int
        /// The most requests for one timeline in one sync; what is left is a gap that the next
        /// sync fills.
        public var maximumPagesPerTimeline: Int
        /// Whether `run()` syncs notifications.
        public var syncsNotifications: Bool
        /// Entries the first request of a timeline already synced asks for: Bluesky cannot be
        /// asked for what is newer than a post, so a sync looks at the newest `probeSize` first
        /// and stops there when it holds them (a sync with nothing new receives one item per
        /// timeline, and decodes none); otherwise the rest is asked for in pages of 10, 100,
        /// each decoded down to the first entry held (5 new entries decode 5).
        public var probeSize: Int
        /// How long `run()` may take in all (``RequestPolicy/defaultSyncTimeLimit``); `nil`: as
        /// long as its requests take.
        public var timeLimit: Duration?
        /// The custom feed (an `app.bsky.feed.generator` AT URI) read as the home timeline
        /// (`app.bsky.feed.getFeed`) instead of Following (`getTimeline`): ``Account/homeFeed``.
        public var homeFeed: String?

        public init(homeDepth: Int = 200, notificationDepth: Int = 100, pageSize: Int = 100,
                    maximumPagesPerTimeline: Int = 10, syncsNotifications: Bool = true, probeSize: Int = 1,
                    timeLimit: Duration? = RequestPolicy.defaultSyncTimeLimit) {
            self.probeSize = min(100, max(1, probeSize))
            self.timeLimit = timeLimit
            self.homeDepth = max(1, homeDepth)
            self.notificationDepth = max(1, notificationDepth)
            self.pageSize = min(100, max(1, pageSize))
            self.maximumPagesPerTimeline = max(1, maximumPagesPerTimeline)
            self.syncsNotifications = syncsNotifications
        }
    }

    /// The store that receives what is synced.
    public let store: TimelineStore
    /// The account's name (`alice.bsky.social`), which keys its sync state.
    public let account: String
    /// The requests, the session, limits and faults.
    public let client: BlueskyClient
    /// What is fetched, and how much.
    public let options: Options

    /// Prepares to sync `account` through `client`, which must hold a session.
    public init(store: TimelineStore, account: String, client: BlueskyClient, options: Options = Options()) {
        self.store = store
        self.account = account
        self.client = client
        self.options = options
    }

    /// Prepares to sync an account `timeline login bluesky` stored (see ``AccountStore``)
    /// through `client` (``AccountStore/blueskyClient(for:transport:policy:clock:)``): the same
    /// inputs as ``MastodonSync/init(store:account:token:transport:options:clock:)``'s.
    public init(store: TimelineStore, account: Account, client: BlueskyClient, options: Options = Options()) {
        self.init(store: store, account: account.name, client: client, options: options)
    }

    /// The pager that stores this account's pages: entries under their own URIs, the
    /// account's own posts read.
    var pager: TimelinePager {
        let own = client.currentSession?.did
        let client = client
        return TimelinePager(store: store, account: account, server: "at://" + (own ?? client.service.authority), messageID: { $0 },
                             prepare: { timeline in timeline.markingRead { $0.authorID == own } },
                             received: { (client.requestsSent, client.bytesReceived) })
    }

    /// Reads the account's preferences (``syncPreferences()``), syncs the home timeline, then
    /// notifications (as `options` say), and rewrites the snapshot once at the end (also after
    /// a failure, when something was stored before it).
    ///
    /// - Throws: `ServerError`; `.unauthorized` when the session cannot be refreshed (log in
    ///   again). What was stored before a failure stays, and the next run goes on from it.
    @discardableResult
    public func run() async throws(ServerError) -> SyncSummary {
        guard client.currentSession != nil else { throw .unauthorized(server: client.service.baseURL) }
        return try await pager.run(clock: client.clock, requestsSent: { client.requestsSent }, secrets: { client.secrets },
                                   within: (client.requester, options.timeLimit)) { summary throws(ServerError) in
            try await syncPreferences()
            let home = try await sync(.home)
            summary.newStatuses = home.newEntries
            summary.gapsLeft = home.gapsLeft
            summary.homeTraffic = home.traffic
            summary.markedRead = home.markedRead
            summary.noteSkipped(home.skipped)
            if options.syncsNotifications {
                let notifications = try await sync(.notifications)
                summary.newNotifications = notifications.newEntries
                summary.notificationTraffic = notifications.traffic
                summary.noteSkipped(notifications.skipped)
            }
        }
    }

    /// Keeps the store up to date from Bluesky until the task is cancelled (what `show -f` does
    /// with a Bluesky account): a sync every `pollInterval`. Bluesky's only push channel for a
    /// home timeline is the whole network's firehose, far too much for one terminal, so this
    /// polls, as Bluesky's own app does. With a `gate`, each sync holds its lock or is left out
    /// while another process syncs. A sync that fails for a while is told to `health` once, and
    /// its return once more.
    ///
    /// - Throws: `.unauthorized` (log in again), `.cancelled` when the task is cancelled,
    ///   `.store`, and errors of a sync that are not temporary.
    public func follow(pollInterval: Duration = .seconds(120), gate: SyncGate? = nil, health: FollowHealth? = nil) async throws(ServerError) {
        while true {
            if Task.isCancelled { throw .cancelled }
            try await followRound(gate: gate, health: health) { () async throws(ServerError) in try await run() }
            do {
                try await client.clock.sleep(pollInterval)
            } catch {
                throw .cancelled
            }
        }
    }

    /// Tells Bluesky the person has seen their notifications up to `date`
    /// (`app.bsky.notification.updateSeen`), so its apps count them as read: what
    /// `show --notifications` does on a terminal once it has shown them.
    public func markNotificationsSeen(at date: Date) async throws(ServerError) {
        try await client.markNotificationsSeen(at: date)
    }

    /// Syncs one timeline through the shared pager, asking for pages by cursor. Bluesky's
    /// cursors only go down (`getTimeline` and `listNotifications` have no "since"), so a
    /// timeline already synced starts with a probe of `Options.probeSize` entries, which ends
    /// the sync when it reaches a stored entry (``TimelinePager/CatchUp/probe(limit:)``).
    func sync(_ timeline: SyncedTimeline) async throws(ServerError) -> TimelinePager.Progress {
        if timeline == .home { try restartHomeIfItsFeedChanged() }
        let depth = timeline == .home ? options.homeDepth : options.notificationDepth
        let bounds = TimelinePager.Bounds(depth: depth, pageSize: options.pageSize, maximumPages: options.maximumPagesPerTimeline,
                                          catchUp: .probe(limit: options.probeSize))
        return try await pager.sync(timeline, bounds: bounds) { request throws(ServerError) in
            switch request {
            case let .newest(limit, _): try await fetch(timeline, cursor: nil, limit: limit)
            case let .gap(gap, limit): try await fetch(timeline, cursor: gap.upperID, limit: limit)
            }
        }
    }

    /// One page of `timeline`, from `cursor` on (the newest without one).
    func fetch(_ timeline: SyncedTimeline, cursor: String?, limit: Int) async throws(ServerError) -> FetchedPage {
        var parameters: [(name: String, value: String)] = [("limit", String(limit))]
        if let cursor { parameters.append(("cursor", cursor)) }
        switch timeline {
        case .home:
            if let feed = options.homeFeed { return try await fetchHomeFeed(feed, parameters: parameters, limit: limit) }
            let nsid = "app.bsky.feed.getTimeline"
            let response = try await client.query(nsid, parameters)
            return try Self.feedPage(response, from: client.host.url("/xrpc/" + nsid), limit: limit) { held($0, in: timeline) }
        case .notifications:
            let nsid = "app.bsky.notification.listNotifications"
            let response = try await client.query(nsid, parameters)
            var page = try Self.notificationPage(response, from: client.host.url("/xrpc/" + nsid), limit: limit) { held($0, in: timeline) }
            try await addSubjects(to: &page)
            return page
        }
    }

    /// The key of the source state that names the feed the home timeline was last read from.
    private var homeFeedKey: String { "home:" + account }

    /// When the home timeline is read from another feed than the last sync read it from
    /// (``Options/homeFeed``, issue 37), its positions and gaps describe the old feed: they are
    /// forgotten, and this sync starts the home as a first sync does. The posts stay, and so do
    /// the notifications' positions.
    private func restartHomeIfItsFeedChanged() throws(ServerError) {
        let feed = options.homeFeed ?? "following"
        let pager = pager
        var document = Array(#"{"feed":"#.utf8)
        JSONLineEncoder.appendString(feed, to: &document)
        document += Array("}".utf8)
        let json = String(decoding: document, as: UTF8.self)
        // Read first: a sync whose home is unchanged writes nothing (one sync at a time holds
        // the gate, so nothing changes it between the read and the write).
        let last = try pager.storeCall { () throws(TimelineStoreError) in try store.sourceStates(of: .bluesky)[homeFeedKey] }
        // Nothing written while the home is Following, as before issue 37.
        guard last != json, last != nil || feed != "following" else { return }
        try pager.write { transaction throws(TimelineStoreError) in
            try transaction.withSQLite { () throws(SQLiteError) in try pager.ledger(transaction.connection, .home).forget() }
            try transaction.setSourceState(json, of: .bluesky, key: homeFeedKey)
        }
    }

    /// One page of the custom feed read as the home timeline (`app.bsky.feed.getFeed`), read as
    /// a `getTimeline` page is; what the generator says of its items (`feedContext`, `reqId`)
    /// is kept in the store (`BlueskyFeedContexts`), so that actions on them are told back.
    private func fetchHomeFeed(_ feed: String, parameters: [(name: String, value: String)], limit: Int) async throws(ServerError) -> FetchedPage {
        let nsid = "app.bsky.feed.getFeed"
        let url = client.host.url("/xrpc/" + nsid)
        let response = try await client.query(nsid, [("feed", feed)] + parameters)
        let page = try Self.feedPage(response, from: url, limit: limit) { held($0, in: .home) }
        if let document = try? JSONFields.document(response.body),
           let answer = try? JSONObjectView(document, path: "", expected: "a feed answer"),
           (try? BlueskyFeedContexts.items(of: answer, limit: limit))?.isEmpty == false {
            let known = try? pager.storeCall { () throws(TimelineStoreError) in try store.sourceStates(of: .bluesky)[BlueskyFeedContexts.key(feed)] }
            // The generator is asked for once, when the store has no word of it yet.
            let generator = (known ?? nil) == nil ? (try? await generatorViews([feed]))?[feed] : nil
            try pager.write { transaction throws(TimelineStoreError) in
                try Self.keepContexts(of: answer, limit: limit, feed: feed, generator: generator, in: transaction)
            }
        }
        return page
    }

    /// The entries among `ids` that `timeline` already holds: where reading a page stops. None
    /// when the store cannot say; the page is then read whole, and storing it finds them.
    private func held(_ ids: [String], in timeline: SyncedTimeline) -> Set<String> {
        guard !ids.isEmpty else { return [] }
        let pager = pager
        let positions = try? pager.read { connection throws(SQLiteError) in try pager.ledger(connection, timeline).positions(of: ids) }
        return Set(positions?.keys ?? [:].keys)
    }

    /// Fetches the posts that the page's likes and reposts name and neither the page nor the
    /// store holds, and adds them to the page, read.
    private func addSubjects(to page: inout FetchedPage) async throws(ServerError) {
        var named: [String] = []
        for notification in page.notifications {
            guard let id = notification.messageID, page.timeline.message(id: id) == nil, !named.contains(id) else { continue }
            named.append(id)
        }
        guard !named.isEmpty else { return }
        // One read for the whole page, not one per notification.
        let stored = Set(try pager.storeCall { () throws(TimelineStoreError) in try store.messages(ids: named) }.map(\.id))
        let missing = named.filter { !stored.contains($0) }
        var fetched = DecodedTimeline()
        var start = 0
        while start < missing.count {
            let batch = missing[start ..< min(start + 25, missing.count)]
            start += 25
            let nsid = "app.bsky.feed.getPosts"
            let response = try await client.query(nsid, batch.map { (name: "uris", value: $0) })
            let url = client.host.url("/xrpc/" + nsid)
            fetched.add(contentsOf: try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) in
                var timeline = DecodedTimeline()
                try BlueskyDecoder(overlongText: .cut).decode(document: document, into: &timeline)
                return timeline
            })
        }
        page.timeline.add(contentsOf: fetched.markingRead { _ in true })
    }

    /// A page of `getTimeline`: its items' entry IDs newest first, what they hold, and the
    /// cursor of the next older page (none when the answer has none, or holds no item).
    ///
    /// No more than the `limit` items asked for are read (a server sending more is not
    /// followed: issue 24), so the requests a page causes stay bounded by the page size.
    ///
    /// Items are decoded down to the first one whose entry ID `held` names (the timeline holds
    /// it), not past it: `getTimeline` cannot be asked for what is newer than a post, so a page
    /// after a probe holds stored items below the new ones (issue 28). The ID is the feed item's,
    /// not the post's: a repost of a stored post is a new entry, and so are the items below it.
    static func feedPage(
        _ response: HTTPResponse, from url: String, limit: Int = .max, held: ([String]) -> Set<String> = { _ in [] }
    ) throws(ServerError) -> FetchedPage {
        let body = try ServerResponseReader.body(of: response, from: url)
        return try ServerResponseReader.read(body: body, from: url) { document throws(JSONLineFailure) in
            let object = try JSONObjectView(document, path: "", expected: "a feed page object")
            guard let items = try object.array("feed", expected: "an array of feed items") else { throw object.missing("feed") }
            var timeline = DecodedTimeline()
            var ids: [String] = []
            var skipped = PageSkips()
            let decoder = BlueskyDecoder(overlongText: .cut)
            let views = items.prefix(limit).enumerated().map { index, item in
                Result { () throws(JSONLineFailure) in try JSONObjectView(item, path: "feed[\(index)]", expected: "a feed item object") }
            }
            let itemIDs = views.map { view in (try? view.get()).flatMap(decoder.feedItemID) }
            let stored = held(itemIDs.compactMap { $0 })
            var reached: String?
            for (index, view) in views.enumerated() {
                if let id = itemIDs[index], stored.contains(id) {
                    reached = id
                    break
                }
                // One item that cannot be read is left out and counted, never the page.
                var entry = DecodedTimeline()
                do throws(JSONLineFailure) {
                    ids.append(try decoder.feedItem(try view.get(), into: &entry))
                    timeline.add(contentsOf: entry)
                } catch {
                    skipped.add(url: url, problem: ServerResponseReader.problem(error, in: body))
                }
            }
            let cursor = items.isEmpty ? nil : try object.string("cursor")
            return FetchedPage(entryIDs: ids, timeline: timeline, notifications: [], olderCursor: cursor, skipped: skipped,
                               answered: items.count, reachedHeldID: reached)
        }
    }

    /// A page of `listNotifications`: its first `limit` notifications at most, so that the
    /// posts fetched for them (`getPosts`, 25 a request) are bounded by the page size asked.
    /// Read, like a feed page, down to the first notification `held` names, not past it (and no
    /// posts are fetched for those below it).
    static func notificationPage(
        _ response: HTTPResponse, from url: String, limit: Int = .max, held: ([String]) -> Set<String> = { _ in [] }
    ) throws(ServerError) -> FetchedPage {
        let body = try ServerResponseReader.body(of: response, from: url)
        return try ServerResponseReader.read(body: body, from: url) { document throws(JSONLineFailure) in
            let object = try JSONObjectView(document, path: "", expected: "a notifications page object")
            guard let elements = try object.array("notifications", expected: "an array of notifications") else {
                throw object.missing("notifications")
            }
            var timeline = DecodedTimeline()
            var notifications: [DecodedNotification] = []
            var skipped = PageSkips()
            let decoder = BlueskyDecoder(overlongText: .cut)
            let views = elements.prefix(limit).enumerated().map { index, element in
                Result { () throws(JSONLineFailure) in
                    try JSONObjectView(element, path: "notifications[\(index)]", expected: "a notification object")
                }
            }
            let elementIDs = views.map { view in (try? view.get()).flatMap(BlueskyNotification.entryID) }
            let stored = held(elementIDs.compactMap { $0 })
            var reached: String?
            for (index, view) in views.enumerated() {
                if let id = elementIDs[index], stored.contains(id) {
                    reached = id
                    break
                }
                var entry = DecodedTimeline()
                do throws(JSONLineFailure) {
                    notifications.append(try BlueskyNotification.decode(try view.get(), into: &entry, decoder: decoder))
                    timeline.add(contentsOf: entry)
                } catch {
                    skipped.add(url: url, problem: ServerResponseReader.problem(error, in: body))
                }
            }
            let cursor = elements.isEmpty ? nil : try object.string("cursor")
            return FetchedPage(entryIDs: notifications.map(\.id), timeline: timeline, notifications: notifications,
                               olderCursor: cursor, skipped: skipped, answered: elements.count, reachedHeldID: reached)
        }
    }
}
