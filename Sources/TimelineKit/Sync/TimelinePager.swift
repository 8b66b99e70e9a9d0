/// Stores the pages of one account's timeline on a server (home, notifications) and moves its
/// sync position, for every network: `MastodonSync` and `BlueskySync` fetch pages their own way
/// and hand them here, where where they go (`PagePlan`), the gaps and the read marker are
/// decided once (`SyncLedger`).
///
/// Each page is stored in one transaction with the position it moves, so a sync killed at any
/// moment leaves the database at the end of a page, and the next run goes on from there.
struct TimelinePager: Sendable {
    /// How one timeline's sync went.
    struct Progress: Sendable {
        var newEntries = 0
        var markedRead = 0
        /// Gaps between fetched parts still to fill.
        var gapsLeft = 0
        /// Entries of the pages left out because they could not be read.
        var skipped = PageSkips()
        /// What the timeline's sync received.
        var traffic = TimelineTraffic()

        mutating func add(_ other: Progress) {
            newEntries += other.newEntries
            markedRead += other.markedRead
            skipped.add(other.skipped)
        }
    }

    /// Where a fetched page belongs.
    enum PagePlace: Sendable {
        /// The newest page; `reachesTop` when it was asked for above the stored newest entry
        /// and came back shorter than asked, so that nothing lies between it and that entry.
        case newest(reachesTop: Bool = false)
        /// A page inside this gap, as it was stored when the page was asked for;
        /// `reachesLower` when it was asked for above the gap's lower entry (`since_id`) and came
        /// back shorter than asked, so that it fills the gap.
        case gap(SyncGap, reachesLower: Bool = false)
        /// One entry of the event stream; `previous` is the entry the same connection placed
        /// before it, if any.
        case streamed(previous: String?)
    }

    /// Which page to fetch: the newest (no cursor), or one inside a gap, below its upper
    /// cursor (and above its lower entry, where the server can be told).
    enum PageRequest: Sendable {
        /// The newest `limit` entries; with `above` (the server ID of the stored newest entry,
        /// for a network whose ``CatchUp`` is `.aboveTop`), only those newer than it.
        case newest(limit: Int, above: String?)
        case gap(SyncGap, limit: Int)
    }

    /// How a timeline already synced is brought up to date, as the network's API allows, so
    /// that a sync with nothing new receives next to nothing (issue 28).
    enum CatchUp: Sendable, Hashable {
        /// The newest page is asked for above the stored newest entry (Mastodon's `since_id`):
        /// a page shorter than asked reaches it; a full one leaves a gap below it, filled as
        /// every gap is. A server that ignores the bound answers the plain newest page, which
        /// is read as before (what it holds of the stored entries places it).
        case aboveTop
        /// The API cannot start above an entry (Bluesky's cursors only go down): the newest
        /// `limit` entries are asked for first, a small probe that ends the sync when it
        /// reaches a stored entry; when it does not, the gap below it is asked for in pages ten
        /// times larger each time, up to the page size, so a few new entries cost a few.
        case probe(limit: Int)
    }

    /// How much one timeline's sync fetches.
    struct Bounds: Sendable {
        /// Entries a first sync keeps.
        var depth: Int
        /// Entries asked for per request.
        var pageSize: Int
        /// Requests for this timeline in one sync at most; what is left stays a gap.
        var maximumPages: Int
        /// How a timeline already synced is brought up to date.
        var catchUp: CatchUp
    }

    let store: TimelineStore
    /// The account's name, which keys its sync state.
    let account: String
    /// The server the account's state records (`SyncLedger.begin(server:)`).
    let server: String
    /// The stored message ID of a home entry's ID on the server.
    let messageID: @Sendable (String) -> String
    /// What is done to a page's content before it is stored (the account's own posts read).
    let prepare: @Sendable (DecodedTimeline) -> DecodedTimeline
    /// The requests sent and the body bytes received so far by the account's client, to
    /// measure each timeline's ``TimelineTraffic``.
    let received: @Sendable () -> (requests: Int, bytes: Int)

    /// Syncs one timeline: the newest page, then the gaps, newest first, within
    /// `bounds.maximumPages` requests, each page fetched by `fetch`.
    func sync(
        _ timeline: SyncedTimeline, bounds: Bounds, fetch: (PageRequest) async throws(ServerError) -> FetchedPage
    ) async throws(ServerError) -> Progress {
        let server = server
        try write { transaction throws(TimelineStoreError) in
            try transaction.withSQLite { () throws(SQLiteError) in try ledger(transaction.connection, timeline).begin(server: server) }
        }
        let start = received()
        let cursor = try read { connection throws(SQLiteError) in try ledger(connection, timeline).cursor() }
        let top = cursor?.topID
        var progress = Progress()
        let newest: FetchedPage
        let place: PagePlace
        // The probe's gap grows tenfold a request, from the probe's size up to the page size.
        // The probe and those smaller pages are not counted against `maximumPages` (they are
        // a few, at most one per power of ten below the page size), so a sync reaches as far
        // back as it did before it probed.
        var probeGrowth: Int?
        var requests = 1
        switch (top, bounds.catchUp) {
        case (nil, _):
            newest = try await fetch(.newest(limit: min(bounds.pageSize, bounds.depth), above: nil))
            place = .newest()
        case let (top?, .aboveTop):
            newest = try await fetch(.newest(limit: bounds.pageSize, above: top))
            // Fewer than asked, none cut: the server had no more above the stored top.
            place = .newest(reachesTop: Self.isShort(newest, asked: bounds.pageSize))
        case let (_?, .probe(limit)):
            let limit = min(bounds.pageSize, max(1, limit))
            newest = try await fetch(.newest(limit: limit, above: nil))
            place = .newest()
            probeGrowth = limit
            if limit < bounds.pageSize { requests = 0 }
        }
        progress.note(newest)
        progress.add(try store(newest, of: timeline, at: place, depth: bounds.depth))
        while requests < bounds.maximumPages,
              let gap = try read({ connection throws(SQLiteError) in try ledger(connection, timeline).gaps().first }) {
            var limit = gap.remaining.map { min(bounds.pageSize, max(1, $0)) } ?? bounds.pageSize
            var growing = false
            if let growth = probeGrowth, gap.lowerID != nil, gap.lowerID == top {
                let grown = min(bounds.pageSize, growth.multipliedReportingOverflow(by: 10).partialValue)
                probeGrowth = grown
                growing = grown < bounds.pageSize
                limit = min(limit, grown)
            }
            let page = try await fetch(.gap(gap, limit: limit))
            progress.note(page)
            if !growing { requests += 1 }
            let reachesLower = bounds.catchUp == .aboveTop && gap.lowerID != nil && Self.isShort(page, asked: limit)
            progress.add(try store(page, of: timeline, at: .gap(gap, reachesLower: reachesLower), depth: bounds.depth))
        }
        progress.gapsLeft = try read { connection throws(SQLiteError) in
            try ledger(connection, timeline).gaps().count { $0.lowerID != nil }
        }
        let end = received()
        progress.traffic.bodyBytes = end.bytes - start.bytes
        progress.traffic.requests = end.requests - start.requests
        return progress
    }

    /// Runs one account's sync, `body`, and ends it as every sync ends: each timeline marked
    /// synced now, the snapshot rewritten once (also after a failure, when something was stored
    /// before it), the requests counted.
    /// `within` bounds the whole of it: the requester's requests end by `timeLimit` from now.
    func run(
        clock: SyncClock, requestsSent: () -> Int, secrets: () -> Secrets,
        within limit: (requester: ServerRequester, timeLimit: Duration?),
        _ body: (inout SyncSummary) async throws(ServerError) -> Void
    ) async throws(ServerError) -> SyncSummary {
        do {
            return try await limit.requester.within(limit.timeLimit) { () async throws(ServerError) -> SyncSummary in
                try await runHidingNothing(clock: clock, requestsSent: requestsSent, body)
            }
        } catch {
            // Whatever a page, a field or a refusal quoted, a sync's error never shows a token.
            throw error.hiding(secrets())
        }
    }

    private func runHidingNothing(
        clock: SyncClock, requestsSent: () -> Int, _ body: (inout SyncSummary) async throws(ServerError) -> Void
    ) async throws(ServerError) -> SyncSummary {
        var summary = SyncSummary(account: account)
        let requestsBefore = requestsSent()
        let bytesBefore = received().bytes
        let generation = try storeCall { () throws(TimelineStoreError) in try store.state().generation }
        do throws(ServerError) {
            try await body(&summary)
            let now = MillisecondTime.milliseconds(from: clock.now())
            try write { transaction throws(TimelineStoreError) in
                try transaction.withSQLite { () throws(SQLiteError) in
                    for timeline in SyncedTimeline.allCases {
                        try SyncLedger(connection: transaction.connection, account: account, timeline: timeline).setSynced(at: now)
                    }
                }
            }
        } catch {
            if (try? store.state().generation) != generation { _ = try? store.writeSnapshot() }
            throw error
        }
        summary.snapshot = try storeCall { () throws(TimelineStoreError) in try store.writeSnapshot() }
        summary.requests = requestsSent() - requestsBefore
        summary.bytesReceived = received().bytes - bytesBefore
        return summary
    }

    func ledger(_ connection: SQLiteConnection, _ timeline: SyncedTimeline) -> SyncLedger {
        SyncLedger(connection: connection, account: account, timeline: timeline)
    }

    /// Stores a page and moves the sync position, in one transaction: the users and messages
    /// (every one of them, so edits and counts of entries already held are updated too), the
    /// new entries at their positions, the newest entry, the gaps, and, for the home timeline,
    /// the read state the server's marker gives the new entries.
    func store(
        _ page: FetchedPage, of timeline: SyncedTimeline, at place: PagePlace, depth: Int, refreshingSnapshot: Bool = false
    ) throws(ServerError) -> Progress {
        let messageID = messageID
        let prepared = prepare(page.timeline)
        return try write(refreshingSnapshot: refreshingSnapshot) { transaction throws(TimelineStoreError) -> Progress in
            try transaction.upsert(users: prepared.users)
            try transaction.upsert(messages: prepared.messages)
            for interaction in prepared.interactions {
                try transaction.replaceInteraction(account: account, interaction)
            }
            return try transaction.withSQLite { () throws(SQLiteError) -> Progress in
                let ledger = ledger(transaction.connection, timeline)
                // A page read down to an entry held when it was read ends there, even if another
                // process removed that entry since: what lies below it was not read.
                let ids = page.entryIDs + (page.reachedHeldID.map { [$0] } ?? [])
                var known = try ledger.positions(of: ids)
                if let held = page.reachedHeldID, known[held] == nil { known[held] = .min }
                let cursor = try ledger.cursor()
                let top = cursor.flatMap { cursor in
                    cursor.topID.flatMap { id in cursor.topPosition.map { (id: id, position: $0) } }
                }
                let plan: PagePlan
                switch place {
                case let .newest(reachesTop):
                    plan = PagePlan.forNewest(ids: ids, known: known, top: top, olderCursor: page.olderCursor, depth: depth,
                                              reachesTop: reachesTop)
                case let .streamed(previous):
                    guard let id = page.entryIDs.first else { return Progress() }
                    plan = PagePlan.forStreamed(id: id, known: known, top: top,
                                                continuesConnection: previous != nil && previous == top?.id, depth: depth)
                case let .gap(gap, reachesLower):
                    // Another sync of the same account may have moved the gap meanwhile: then
                    // this page is stored as content only, and the gap's new state stands.
                    guard try ledger.gaps().contains(gap) else { return Progress() }
                    plan = PagePlan.forGap(gap, ids: ids, known: known, olderCursor: page.olderCursor,
                                           reachesLower: reachesLower)
                }
                for placement in plan.placements {
                    let id = page.entryIDs[placement.index]
                    switch timeline {
                    case .home:
                        try ledger.insertHomeEntry(position: placement.position, statusID: id, messageID: messageID(id))
                    case .notifications:
                        try ledger.insertNotification(position: placement.position, page.notifications[placement.index])
                    }
                }
                if let top = plan.newTop { try ledger.setTop(id: top.id, position: top.position) }
                if let removed = plan.removedGap { try ledger.deleteGap(upperPosition: removed) }
                if let added = plan.addedGap { try ledger.insert(added) }
                var progress = Progress(newEntries: plan.placements.count)
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

    /// The page size every server speaking the Mastodon API gives when asked for more: the
    /// API's default `limit`. A server may cap `limit` below what was asked (Mastodon's cap is
    /// 40; others choose their own), so a page of 20 to 39 answered to `limit=40` may be a
    /// capped page with more below it, not the end.
    static let pageEveryServerGives = 20

    /// Whether `page`, asked for with `limit` = `asked` above an entry the server was told
    /// (`since_id`), holds everything above it: fewer entries than asked *and* fewer than
    /// ``pageEveryServerGives``, so a server capping pages below the size asked is never taken
    /// to have had no more (that would place the page right above the stored entry and lose what
    /// lies between). A page of 20 to 39 new entries costs one request more, an empty page.
    static func isShort(_ page: FetchedPage, asked: Int) -> Bool {
        page.answered.map { $0 < min(asked, pageEveryServerGives) } ?? false
    }

    // MARK: Store access

    /// One write transaction, without a snapshot rewrite unless asked: a sync rewrites it once.
    func write<T: Sendable>(
        refreshingSnapshot: Bool = false, _ body: (TimelineTransaction) throws(TimelineStoreError) -> T
    ) throws(ServerError) -> T {
        try storeCall { () throws(TimelineStoreError) in try store.storeWrite(refreshingSnapshot: refreshingSnapshot, body) }
    }

    /// One read transaction.
    func read<T: Sendable>(_ body: (SQLiteConnection) throws(SQLiteError) -> T) throws(ServerError) -> T {
        try storeCall { () throws(TimelineStoreError) in
            try store.read { reader throws(SQLiteError) in try body(reader.connection) }
        }
    }

    func storeCall<T>(_ body: () throws(TimelineStoreError) -> T) throws(ServerError) -> T {
        do {
            return try body()
        } catch {
            throw .store(error)
        }
    }
}

extension TimelinePager.Progress {
    /// Counts a fetched page: its skipped entries, and every entry decoded.
    mutating func note(_ page: FetchedPage) {
        skipped.add(page.skipped)
        traffic.entriesDecoded += page.entryIDs.count + page.skipped.count
    }
}
