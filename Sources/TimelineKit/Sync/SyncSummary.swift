/// What one sync of an account (`MastodonSync.run()`, `BlueskySync.run()`) did, for a summary
/// line or `--json`.
public struct SyncSummary: Sendable, Equatable {
    /// The account synced.
    public var account: String
    /// Home statuses stored that the account's home timeline did not hold before.
    public var newStatuses = 0
    /// Notifications stored that were not stored before.
    public var newNotifications = 0
    /// Messages marked read because of the server's read marker.
    public var markedRead = 0
    /// The server's status ID the read marker was set to, when local reading moved it
    /// (Mastodon; Bluesky has no read position of the home timeline).
    public var markerSet: String?
    /// Parts of the home timeline between fetched parts that are still to fetch (the request
    /// bound was reached); the next sync goes on with them. 0 means caught up.
    public var gapsLeft = 0
    /// What the account's server was found to lack (``ServerFeature``), as far as known; the
    /// sync succeeded without it.
    public var serverLacks: [ServerFeature] = []
    /// Those of `serverLacks` found in this sync for the first time: worth telling the person
    /// (once, not at every sync).
    public var newlyLacking: [ServerFeature] = []
    /// Entries of the server's pages left out because they could not be read (the page's other
    /// entries are stored): one author's broken post never stops the account's sync.
    public var skippedEntries = 0
    /// Where and why the first of them was left out (its URL and place in the body), to be said
    /// once.
    public var firstSkipReason: String?
    /// Requests sent, retries included.
    public var requests = 0
    /// Body bytes of every answer the sync received (both timelines, the read marker, a
    /// session refresh), headers not counted.
    public var bytesReceived = 0
    /// What the home timeline's sync received.
    public var homeTraffic = TimelineTraffic()
    /// What the notifications' sync received (nothing when they are not synced).
    public var notificationTraffic = TimelineTraffic()
    /// What happened to the snapshot at the end.
    public var snapshot: TimelineStore.SnapshotWrite?

    public init(account: String) {
        self.account = account
    }

    /// Whether the home timeline is complete from the newest status down.
    public var isCaughtUp: Bool { gapsLeft == 0 }

    mutating func noteSkipped(_ skipped: PageSkips) {
        skippedEntries += skipped.count
        if firstSkipReason == nil { firstSkipReason = skipped.firstReason }
    }
}
