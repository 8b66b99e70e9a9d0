extension MastodonSync {
    /// How one timeline's sync went.
    struct TimelineProgress: Sendable {
        var newEntries = 0
        var markedRead = 0
        /// Gaps between fetched parts still to fill.
        var gapsLeft = 0

        mutating func add(_ other: TimelineProgress) {
            newEntries += other.newEntries
            markedRead += other.markedRead
        }
    }

    /// Where a fetched page belongs.
    enum PagePlace: Sendable {
        /// The newest page.
        case newest
        /// A page inside this gap, as it was stored when the page was asked for.
        case gap(SyncGap)
        /// One entry of the event stream; `previous` is the entry the same connection placed
        /// before it, if any.
        case streamed(previous: String?)
    }

    /// Syncs one timeline: the newest page, then the gaps, newest first, within
    /// `options.maximumPagesPerTimeline` requests.
    func sync(_ timeline: SyncedTimeline) async throws(ServerError) -> TimelineProgress {
        let authority = namespace.authority
        try write { transaction throws(TimelineStoreError) in
            try transaction.withSQLite { () throws(SQLiteError) in try ledger(transaction.connection, timeline).begin(server: authority) }
        }
        let depth = timeline == .home ? options.homeDepth : options.notificationDepth
        let cursor = try read { connection throws(SQLiteError) in try ledger(connection, timeline).cursor() }
        let firstLimit = cursor?.topID == nil ? min(options.pageSize, depth) : options.pageSize
        var progress = TimelineProgress()
        let newest = try await fetch(timeline, maxID: nil, sinceID: nil, limit: firstLimit)
        progress.add(try store(newest, of: timeline, at: .newest, depth: depth))
        var requests = 1
        while requests < options.maximumPagesPerTimeline,
              let gap = try read({ connection throws(SQLiteError) in try ledger(connection, timeline).gaps().first }) {
            let limit = gap.remaining.map { min(options.pageSize, max(1, $0)) } ?? options.pageSize
            let page = try await fetch(timeline, maxID: gap.upperID, sinceID: gap.lowerID, limit: limit)
            requests += 1
            progress.add(try store(page, of: timeline, at: .gap(gap), depth: depth))
        }
        progress.gapsLeft = try read { connection throws(SQLiteError) in
            try ledger(connection, timeline).gaps().count { $0.lowerID != nil }
        }
        return progress
    }

    func ledger(_ connection: SQLiteConnection, _ timeline: SyncedTimeline) -> SyncLedger {
        SyncLedger(connection: connection, account: account, timeline: timeline)
    }

    /// One page of `timeline`: below `maxID` and above `sinceID` when given.
    func fetch(_ timeline: SyncedTimeline, maxID: String?, sinceID: String?, limit: Int) async throws(ServerError) -> FetchedPage {
        var query: [(name: String, value: String)] = [("limit", String(limit))]
        if let maxID { query.append(("max_id", maxID)) }
        if let sinceID { query.append(("since_id", sinceID)) }
        let url = client.server.url(timeline.path, query: query)
        let response = try await client.send(.get, url)
        switch timeline {
        case .home: return try FetchedPage.statuses(response, from: url, namespace: namespace)
        case .notifications: return try FetchedPage.notifications(response, from: url, namespace: namespace)
        }
    }

    /// Stores a page and moves the sync position, in one transaction: the users and messages
    /// (every one of them, so edits and counts of entries already held are updated too), the
    /// new entries at their positions, the newest entry, the gaps, and, for the home timeline,
    /// the read state the server's marker gives the new entries.
    func store(
        _ page: FetchedPage, of timeline: SyncedTimeline, at place: PagePlace, depth: Int, refreshingSnapshot: Bool = false
    ) throws(ServerError) -> TimelineProgress {
        let namespace = namespace
        return try write(refreshingSnapshot: refreshingSnapshot) { transaction throws(TimelineStoreError) -> TimelineProgress in
            try transaction.upsert(users: page.timeline.users)
            try transaction.upsert(messages: markingOwnStatusesRead(page.timeline).messages)
            return try transaction.withSQLite { () throws(SQLiteError) -> TimelineProgress in
                let ledger = ledger(transaction.connection, timeline)
                let known = try ledger.positions(of: page.entryIDs)
                let cursor = try ledger.cursor()
                let top = cursor.flatMap { cursor in
                    cursor.topID.flatMap { id in cursor.topPosition.map { (id: id, position: $0) } }
                }
                let plan: PagePlan
                switch place {
                case .newest:
                    plan = PagePlan.forNewest(ids: page.entryIDs, known: known, top: top, olderCursor: page.olderCursor, depth: depth)
                case let .streamed(previous):
                    guard let id = page.entryIDs.first else { return TimelineProgress() }
                    plan = PagePlan.forStreamed(id: id, known: known, top: top,
                                                continuesConnection: previous != nil && previous == top?.id, depth: depth)
                case let .gap(gap):
                    // Another sync of the same account may have moved the gap meanwhile: then
                    // this page is stored as content only, and the gap's new state stands.
                    guard try ledger.gaps().contains(gap) else { return TimelineProgress() }
                    plan = PagePlan.forGap(gap, ids: page.entryIDs, known: known, olderCursor: page.olderCursor)
                }
                for placement in plan.placements {
                    let id = page.entryIDs[placement.index]
                    switch timeline {
                    case .home:
                        try ledger.insertHomeEntry(position: placement.position, statusID: id, messageID: namespace.id(id))
                    case .notifications:
                        try ledger.insertNotification(position: placement.position, page.notifications[placement.index])
                    }
                }
                if let top = plan.newTop { try ledger.setTop(id: top.id, position: top.position) }
                if let removed = plan.removedGap { try ledger.deleteGap(upperPosition: removed) }
                if let added = plan.addedGap { try ledger.insert(added) }
                var progress = TimelineProgress(newEntries: plan.placements.count)
                if timeline == .home {
                    progress.markedRead = try applyMarker(to: plan.placements.map { (position: $0.position, id: page.entryIDs[$0.index]) }, ledger)
                }
                return progress
            }
        }
    }

    /// Gives newly stored home entries the read state of the server's marker: read when at or
    /// below it. When the marker's own status is among them, it is placed, and everything at or
    /// below it is marked read. Returns how many messages were marked read.
    private func applyMarker(to entries: [(position: Int64, id: String)], _ ledger: SyncLedger) throws(SQLiteError) -> Int {
        guard let lowest = entries.map(\.position).min(), let highest = entries.map(\.position).max(),
              let cursor = try ledger.cursor(), let markerID = cursor.markerID else { return 0 }
        if cursor.markerPosition == nil {
            guard let placed = entries.first(where: { $0.id == markerID }) else { return 0 }
            try ledger.setMarker(id: markerID, position: placed.position)
            return try ledger.markHomeRead(from: .min, through: placed.position)
        }
        guard let marker = cursor.markerPosition, lowest <= marker else { return 0 }
        return try ledger.markHomeRead(from: lowest, through: min(highest, marker))
    }
}
