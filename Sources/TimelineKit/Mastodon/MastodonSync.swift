#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Keeps one Mastodon-API account's home timeline, notifications and read position in a
/// `TimelineStore`: what `timeline sync` does for each account.
///
/// ```swift
/// let sync = try MastodonSync(store: store, server: "https://mastodon.social", token: token,
///                             account: "alice@mastodon.social", transport: transport)
/// let summary = try await sync.run()   // pages, notifications, read marker; one snapshot write
/// print(summary.newStatuses, summary.requests)
/// ```
///
/// **Paging.** The first sync of an account stores the newest `Options.homeDepth` statuses
/// (200), newest page first, following each page's `Link: <…>; rel="next"`. Every later sync
/// asks for the newest page and stores what is above the newest status it already has: one
/// request when less than a page is new. When more is new, the part between is recorded as a
/// gap (`gaps` of table `synced_timelines`) and filled at once, newest first, down to the status it already
/// had, within `Options.maximumPagesPerTimeline` requests; what is left stays recorded and a
/// later sync fills it, so nothing is silently lost and the newest statuses always come first.
/// IDs are opaque strings: they are compared for equality, never ordered; the order is the
/// server's (the `Link` headers, `max_id` and `since_id`). An edited status (`edited_at`)
/// updates its message in place whenever it is fetched again; deletions arrive through the
/// event stream (`follow`).
///
/// **Nothing lost, nothing repeated.** Each page is stored in one transaction together with the
/// sync position it moves, so a sync killed at any moment leaves the database at the end of a
/// page, and the next run goes on from there. The snapshot is rewritten once, at the end.
///
/// **Where messages come from.** IDs are namespaced by the server (`MastodonNamespace`:
/// `mastodon.social/109876543210`), so accounts on two servers never collide and a status
/// synced twice, or by two accounts of one server, is one message. Which messages came from
/// which account's home timeline, in the server's order, is kept in `synced_entries`: markers and
/// gaps are decided by that order.
///
/// **Read position** (`syncReadMarker()`, part of `run()`): the home marker
/// (`GET /api/v1/markers`) marks read every home entry at or below it, once each time it moves;
/// the other way, the newest home entry such that it and every entry below it are read (and no
/// unfetched gap lies below it) becomes the marker (`POST /api/v1/markers`) when it is past the
/// server's. A marker never moves back; 409 Conflict reads the marker again and retries. A
/// server without markers (Takahē; ``ServerFeature``) is synced without them, successfully.
///
/// **Notifications** are synced the same way into `synced_entries`, with the user who
/// acted and the status they are about; read them with `TimelineStore.notifications(account:limit:)`
/// and say them with `NotificationRenderer`.
public struct MastodonSync: Sendable {
    /// What a sync fetches, and how much.
    public struct Options: Sendable, Hashable {
        /// How many of the newest home statuses the first sync of an account stores.
        public var homeDepth: Int
        /// How many of the newest notifications the first sync stores.
        public var notificationDepth: Int
        /// Entries asked for per request (Mastodon gives at most 40 statuses, 80 notifications).
        public var pageSize: Int
        /// The most requests for one timeline in one sync; what is left is a gap that the next
        /// sync fills.
        public var maximumPagesPerTimeline: Int
        /// Whether `run()` syncs notifications.
        public var syncsNotifications: Bool
        /// Whether `run()` reads and sets the home read marker.
        public var syncsReadMarker: Bool
        /// Whether `run()` reads the person's filters (``MastodonSync/syncFilters()``).
        public var syncsFilters: Bool
        /// Whether notifications are asked for grouped (Mastodon 4.3's `GET /api/v2/notifications`:
        /// "Alice and 12 others liked your post"), falling back to the v1 list on a server
        /// without them (remembered for ``ServerFeature/recheckInterval``), and the notifications
        /// the server's filters held back counted. Off by default: the fallback costs a first
        /// sync one request on a server before 4.3. The timeline tool's sessions ask for it.
        public var groupsNotifications: Bool
        /// Retries, back-off and the rate limit.
        public var policy: RequestPolicy
        /// How long `run()` may take in all (``RequestPolicy/defaultSyncTimeLimit``); `nil`: as
        /// long as its requests take.
        public var timeLimit: Duration?

        public init(
            homeDepth: Int = 200, notificationDepth: Int = 80, pageSize: Int = 40, maximumPagesPerTimeline: Int = 25,
            syncsNotifications: Bool = true, syncsReadMarker: Bool = true, syncsFilters: Bool = true,
            groupsNotifications: Bool = false,
            policy: RequestPolicy = RequestPolicy(), timeLimit: Duration? = RequestPolicy.defaultSyncTimeLimit
        ) {
            self.syncsFilters = syncsFilters
            self.groupsNotifications = groupsNotifications
            self.timeLimit = timeLimit
            self.homeDepth = max(1, homeDepth)
            self.notificationDepth = max(1, notificationDepth)
            self.pageSize = max(1, pageSize)
            self.maximumPagesPerTimeline = max(1, maximumPagesPerTimeline)
            self.syncsNotifications = syncsNotifications
            self.syncsReadMarker = syncsReadMarker
            self.policy = policy
        }
    }

    /// The store that receives what is synced.
    public let store: TimelineStore
    /// The account's name (`alice@mastodon.social`), which keys its sync state.
    public let account: String
    /// The requests, their limits and faults.
    public let client: MastodonClient
    /// How IDs of this server are stored.
    public let namespace: MastodonNamespace
    /// What is fetched, and how much.
    public let options: Options
    /// The stored user ID of the account itself (`authority/id`), when known: its own statuses
    /// arriving through the home timeline or the stream are stored read (you wrote them).
    public let ownUserID: String?

    /// Prepares to sync `account` of the server at `server` (`https://mastodon.social`, or
    /// `http://127.0.0.1:PORT` for a local test server) with the access token `token`.
    ///
    /// - Throws: `ServerError.invalidServer` when `server` is not a usable address,
    ///   `.invalidToken` when `token` cannot be one (it is never sent then).
    /// `accountID` is the account's own ID on the server (`verify_credentials`' `id`), whose
    /// statuses are stored read; `nil` when unknown.
    public init(
        store: TimelineStore, server: String, token: String, account: String, accountID: String? = nil,
        transport: any HTTPTransport, options: Options = Options(), clock: SyncClock = .system
    ) throws(ServerError) {
        let server = try ServerAddress(server)
        guard let token = AccessToken(token) else { throw .invalidToken }
        self.store = store
        self.account = account
        self.options = options
        self.namespace = MastodonNamespace(server: server)
        self.ownUserID = accountID.map(namespace.id)
        self.client = MastodonClient(server: server, token: token, transport: transport, policy: options.policy, clock: clock)
    }

    /// Prepares to sync an account `timeline login` stored (see ``AccountStore``), with its
    /// token (``Account/accessToken()``).
    public init(
        store: TimelineStore, account: Account, token: AccessToken, transport: any HTTPTransport,
        options: Options = Options(), clock: SyncClock = .system
    ) throws(ServerError) {
        try self.init(store: store, server: account.server, token: token.value, account: account.name,
                      accountID: account.accountID, transport: transport, options: options, clock: clock)
    }

    /// `timeline` with the account's own statuses read: what the person wrote, they have read.
    func markingOwnStatusesRead(_ timeline: DecodedTimeline) -> DecodedTimeline {
        guard let ownUserID else { return timeline }
        return timeline.markingRead { $0.authorID == ownUserID }
    }

    /// Reads the person's filters (``syncFilters()``), syncs the home timeline, then
    /// notifications, then the read marker (as `options` say), and rewrites the snapshot once
    /// at the end (also after a failure, when something was stored before it).
    ///
    /// - Throws: `ServerError`; what was stored before the failure stays, and the next run
    ///   goes on from it.
    @discardableResult
    public func run() async throws(ServerError) -> SyncSummary {
        try await pager.run(clock: client.clock, requestsSent: { client.requestsSent }, secrets: { client.secrets },
                            within: (client.requester, options.timeLimit)) {
            summary throws(ServerError) in
            if options.syncsFilters, try await syncFilters().lackNoticedNow { summary.newlyLacking.append(.filters) }
            let home = try await sync(.home)
            summary.newStatuses = home.newEntries
            summary.gapsLeft = home.gapsLeft
            summary.homeTraffic = home.traffic
            summary.noteSkipped(home.skipped)
            if options.syncsNotifications {
                let notifications = try await sync(.notifications)
                if options.groupsNotifications { try await countHeldBackNotifications() }
                summary.newNotifications = notifications.newEntries
                summary.notificationTraffic = notifications.traffic
                summary.noteSkipped(notifications.skipped)
            }
            if options.syncsReadMarker {
                let marker = try await syncReadMarker()
                summary.markedRead = home.markedRead + marker.markedRead
                summary.markerSet = marker.markerSet
                if marker.lackNoticedNow { summary.newlyLacking.append(.markers) }
            } else {
                summary.markedRead = home.markedRead
            }
            summary.serverLacks = try read { connection throws(SQLiteError) in try ledger(connection, .home).lackingFeatures() }
        }
    }

    // MARK: Store access

    /// One write transaction, without a snapshot rewrite unless asked: a sync rewrites it once.
    func write<T: Sendable>(
        refreshingSnapshot: Bool = false, _ body: (TimelineTransaction) throws(TimelineStoreError) -> T
    ) throws(ServerError) -> T {
        try pager.write(refreshingSnapshot: refreshingSnapshot, body)
    }

    /// One read transaction.
    func read<T: Sendable>(_ body: (SQLiteConnection) throws(SQLiteError) -> T) throws(ServerError) -> T {
        try pager.read(body)
    }

    func storeCall<T>(_ body: () throws(TimelineStoreError) -> T) throws(ServerError) -> T {
        try pager.storeCall(body)
    }
}
