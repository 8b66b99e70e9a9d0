extension MastodonSync {
    typealias TimelineProgress = TimelinePager.Progress
    typealias PagePlace = TimelinePager.PagePlace

    /// The pager that stores this account's pages: home entries under the server's namespace,
    /// the account's own statuses read.
    var pager: TimelinePager {
        let namespace = namespace
        let sync = self
        let client = client
        return TimelinePager(store: store, account: account, server: namespace.authority, messageID: { namespace.id($0) },
                             prepare: { sync.markingOwnStatusesRead($0) },
                             received: { (client.requestsSent, client.bytesReceived) })
    }

    /// Syncs one timeline: the newest page, then the gaps, newest first, within
    /// `options.maximumPagesPerTimeline` requests. Pages are asked for with `max_id` (a gap's
    /// upper end) and `since_id` (its lower end); the newest page of a timeline already synced
    /// with `since_id` the stored newest entry, so that nothing new costs an empty array
    /// (`since_id`, not `min_id`: the newest entries come first, as everywhere else; see
    /// docs/network.md, "Paging").
    func sync(_ timeline: SyncedTimeline) async throws(ServerError) -> TimelineProgress {
        let depth = timeline == .home ? options.homeDepth : options.notificationDepth
        let bounds = TimelinePager.Bounds(depth: depth, pageSize: options.pageSize, maximumPages: options.maximumPagesPerTimeline,
                                          catchUp: .aboveTop)
        return try await pager.sync(timeline, bounds: bounds) { request throws(ServerError) in
            switch request {
            case let .newest(limit, above): try await fetch(timeline, maxID: nil, sinceID: above, limit: limit)
            case let .gap(gap, limit): try await fetch(timeline, maxID: gap.upperID, sinceID: gap.lowerID, limit: limit)
            }
        }
    }

    func ledger(_ connection: SQLiteConnection, _ timeline: SyncedTimeline) -> SyncLedger {
        pager.ledger(connection, timeline)
    }

    /// One page of `timeline`: below `maxID` and above `sinceID` when given.
    func fetch(_ timeline: SyncedTimeline, maxID: String?, sinceID: String?, limit: Int) async throws(ServerError) -> FetchedPage {
        if timeline == .notifications, options.groupsNotifications,
           let page = try await fetchGroupedNotifications(maxID: maxID, sinceID: sinceID, limit: limit) {
            return page
        }
        var query: [(name: String, value: String)] = [("limit", String(limit))]
        if let maxID { query.append(("max_id", maxID)) }
        if let sinceID { query.append(("since_id", sinceID)) }
        let url = client.server.url(timeline.mastodonPath, query: query)
        let response = try await client.send(.get, url)
        switch timeline {
        case .home: return try FetchedPage.statuses(response, from: url, namespace: namespace, limit: limit)
        case .notifications: return try FetchedPage.notifications(response, from: url, namespace: namespace, limit: limit)
        }
    }

    /// Stores a page and moves the sync position, in one transaction (`TimelinePager.store`).
    func store(
        _ page: FetchedPage, of timeline: SyncedTimeline, at place: PagePlace, depth: Int, refreshingSnapshot: Bool = false
    ) throws(ServerError) -> TimelineProgress {
        try pager.store(page, of: timeline, at: place, depth: depth, refreshingSnapshot: refreshingSnapshot)
    }
}

extension SyncedTimeline {
    /// The Mastodon API path that pages it.
    var mastodonPath: String {
        switch self {
        case .home: "/api/v1/timelines/home"
        case .notifications: "/api/v1/notifications"
        }
    }
}
