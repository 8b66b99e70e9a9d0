extension MastodonSync {
    /// How many times a marker that keeps conflicting (409) is read again and set again.
    static let markerAttempts = 3

    /// Brings the home read position into step with the server, both ways (part of `run()`;
    /// call it alone right after a local mark-read when online):
    ///
    /// 1. **From the server**: when the home marker moved since it was last seen, every home
    ///    entry at or below it (by the server's order, see `MastodonSync`) is marked read, with
    ///    what it boosts or quotes. A marker whose status is not stored yet is kept and applied
    ///    when the status arrives, and older entries stored later arrive read.
    /// 2. **To the server**: the newest home entry such that it and every entry below it are
    ///    read locally, and no unfetched gap lies below it, becomes the marker, when it is past
    ///    the server's. The marker never moves back: when the server's marker is not among the
    ///    stored entries, the server is asked whether it is older (one request) first.
    ///
    /// A server without markers (``ServerFeature/markers``: 404 and the like) is not a failure:
    /// the result says so (`serverLacksMarkers`), the account remembers it, and for
    /// ``ServerFeature/recheckInterval`` no request is sent for markers at all.
    ///
    /// - Throws: `ServerError.markerConflict` when the marker kept changing (409) for
    ///   `markerAttempts` rounds, and the client's errors.
    @discardableResult
    public func syncReadMarker() async throws(ServerError) -> ReadMarkerSync {
        let now = MillisecondTime.milliseconds(from: client.clock.now())
        let (lackingSince, recent) = try lack(of: .markers, at: now)
        if recent { return ReadMarkerSync(serverLacksMarkers: true) }
        do {
            let result = try await exchangeMarkers()
            if lackingSince != nil { try recordLack(of: .markers, at: nil) }
            return result
        } catch {
            guard case .notSupported = error else { throw error }
            try recordLack(of: .markers, at: now)
            return ReadMarkerSync(serverLacksMarkers: true, lackNoticedNow: lackingSince == nil)
        }
    }

    /// Since when the account's server is known to lack `feature` (`nil`: it is not), and whether
    /// that was found within ``ServerFeature/recheckInterval`` of `now`, so that it is not asked
    /// again yet.
    /// A feature whose lack the person is not told (``ServerFeature/groupedNotifications``) is kept
    /// in the state of the `timeline` it concerns.
    func lack(of feature: ServerFeature, at now: Int64, in timeline: SyncedTimeline = .home) throws(ServerError) -> (since: Int64?, isRecent: Bool) {
        let authority = namespace.authority
        let since = try write { transaction throws(TimelineStoreError) -> Int64? in
            try transaction.withSQLite { () throws(SQLiteError) -> Int64? in
                let ledger = ledger(transaction.connection, timeline)
                try ledger.begin(server: authority)
                return try ledger.lackingSince(feature)
            }
        }
        guard let since else { return (nil, false) }
        return (since, now.saturatingSubtracting(since) < Int64(ServerFeature.recheckInterval.components.seconds) * 1000)
    }

    /// Records in the account's sync state that its server lacks `feature` (as of `milliseconds`),
    /// or (`nil`) that it has it after all.
    func recordLack(of feature: ServerFeature, at milliseconds: Int64?, in timeline: SyncedTimeline = .home) throws(ServerError) {
        try write { transaction throws(TimelineStoreError) in
            try transaction.withSQLite { () throws(SQLiteError) in
                try ledger(transaction.connection, timeline).setLacking(feature, at: milliseconds)
            }
        }
    }

    /// Reads the server's marker and sets it, both ways, as `syncReadMarker()` describes.
    private func exchangeMarkers() async throws(ServerError) -> ReadMarkerSync {
        var result = ReadMarkerSync()
        for attempt in 1 ... Self.markerAttempts {
            let marker = try await client.homeMarker()
            result.markedRead += try applyServerMarker(marker)
            guard let target = try await markerTarget() else { return result }
            do {
                try await client.setHomeMarker(lastReadID: target.statusID)
            } catch {
                if case .rejected(_, 409, _) = error {
                    if attempt < Self.markerAttempts { continue }
                    throw .markerConflict(url: client.server.url("/api/v1/markers"), attempts: attempt)
                }
                throw error
            }
            try write { transaction throws(TimelineStoreError) in
                try transaction.withSQLite { () throws(SQLiteError) in
                    try ledger(transaction.connection, .home).setMarker(id: target.statusID, position: target.position)
                }
            }
            result.markerSet = target.statusID
            return result
        }
        return result
    }

    /// Records the server's marker and, when it moved, marks read what is at or below it.
    private func applyServerMarker(_ marker: MastodonMarker?) throws(ServerError) -> Int {
        guard let marker else { return 0 }
        return try write { transaction throws(TimelineStoreError) -> Int in
            try transaction.withSQLite { () throws(SQLiteError) -> Int in
                let ledger = ledger(transaction.connection, .home)
                guard let cursor = try ledger.cursor(), cursor.markerID != marker.lastReadID else { return 0 }
                let position = try ledger.positions(of: [marker.lastReadID])[marker.lastReadID]
                try ledger.setMarker(id: marker.lastReadID, position: position)
                guard let position else { return 0 }
                return try ledger.markHomeRead(from: .min, through: position)
            }
        }
    }

    /// The home entry the marker should move to, when it should move.
    private func markerTarget() async throws(ServerError) -> (statusID: String, position: Int64)? {
        let (cursor, through, hasGaps) = try read { connection throws(SQLiteError) in
            let ledger = ledger(connection, .home)
            return (try ledger.cursor(), try ledger.readThrough(), try ledger.hasBoundedGaps())
        }
        guard let through, let cursor, through.statusID != cursor.markerID else { return nil }
        guard let markerID = cursor.markerID else { return through }
        if let markerPosition = cursor.markerPosition { return through.position > markerPosition ? through : nil }
        // The server's marker is on a status not stored here: older than what was synced (the
        // usual case), deleted, or in a gap. Only the server can order it against `through`:
        // a status below `through` and above the marker exists only when the marker is older.
        guard !hasGaps else { return nil }
        let between = try await fetch(.home, maxID: through.statusID, sinceID: markerID, limit: 1)
        return between.isEmpty ? nil : through
    }
}
