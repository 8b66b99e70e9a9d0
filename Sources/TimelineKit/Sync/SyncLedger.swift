/// The timelines a sync follows for an account: the account's home timeline, its notifications.
enum SyncedTimeline: String, Sendable, CaseIterable {
    case home
    case notifications
}

/// Where an account's sync of one timeline stands: its newest entry and read marker.
struct SyncCursor: Sendable, Hashable {
    var server: String
    var topID: String?
    var topPosition: Int64?
    var markerID: String?
    var markerPosition: Int64?
}

/// A part of a timeline not fetched yet (see `state.gaps` of the `synced_timelines` table).
struct SyncGap: Sendable, Hashable {
    /// Fetch below this server ID (`max_id`)…
    var upperID: String
    /// …whose entry sits at this position (new entries go below it).
    var upperPosition: Int64
    /// …down to this one (`since_id`), or, when `nil`, `remaining` more entries.
    var lowerID: String?
    var lowerPosition: Int64?
    var remaining: Int?
}

/// The SQL of the sync's bookkeeping — which entries an account's timelines hold, where each
/// sync stands, the gaps — on the connection of a transaction (or a read): the one place that
/// knows the `synced_entries` and `synced_timelines` tables of migration 8.
struct SyncLedger {
    let connection: SQLiteConnection
    let account: String
    let timeline: SyncedTimeline

    /// The cursor, or `nil` before the account's first sync of this timeline.
    func cursor() throws(SQLiteError) -> SyncCursor? {
        let statement = try connection.statement("""
            SELECT json_extract(state, '$.server'), json_extract(state, '$.top_id'), json_extract(state, '$.top_position'),
                   json_extract(state, '$.marker_id'), json_extract(state, '$.marker_position')
            FROM synced_timelines WHERE account = ?1 AND timeline = ?2
            """)
        defer { statement.reset() }
        try bindKey(statement)
        guard try statement.step() else { return nil }
        return SyncCursor(server: statement.text(at: 0), topID: statement.optionalText(at: 1),
                          topPosition: statement.optionalInt64(at: 2), markerID: statement.optionalText(at: 3),
                          markerPosition: statement.optionalInt64(at: 4))
    }

    /// Creates the cursor for `server` when there is none. When the account's name now points
    /// at another server, what was synced for it under the old one no longer describes it: its
    /// entries, gaps and notifications are forgotten (the messages stay).
    func begin(server: String) throws(SQLiteError) {
        if let existing = try cursor(), existing.server == server { return }
        if try cursor() != nil { try Self.forget(account: account, on: connection) }
        let insert = try connection.statement("""
            INSERT INTO synced_timelines (account, timeline, state) VALUES (?1, ?2, json_object('server', ?3, 'gaps', json('[]')))
            """)
        try bindKey(insert)
        try insert.bind(server, at: 3)
        try insert.run()
    }

    /// Everything synced for `account` (its timelines' entries, gaps, notifications and
    /// cursors); the messages and users stay.
    static func forget(account: String, on connection: SQLiteConnection) throws(SQLiteError) {
        for table in ["synced_entries", "synced_timelines"] {
            let statement = try connection.statement("DELETE FROM \(table) WHERE account = ?1")
            try statement.bind(account, at: 1)
            try statement.run()
        }
    }

    /// This timeline's entries, gaps and cursor forgotten, the account's other timelines kept
    /// (the messages stay): its next sync starts as a first one. For a home timeline read from
    /// another feed than before (issue 37), whose positions describe the old one.
    func forget() throws(SQLiteError) {
        for table in ["synced_entries", "synced_timelines"] {
            let statement = try connection.statement("DELETE FROM \(table) WHERE account = ?1 AND timeline = ?2")
            try bindKey(statement)
            try statement.run()
        }
    }

    func setTop(id: String, position: Int64) throws(SQLiteError) {
        try update("json_set(state, '$.top_id', ?3, '$.top_position', ?4)") { statement throws(SQLiteError) in
            try statement.bind(id, at: 3)
            try statement.bind(position, at: 4)
        }
    }

    func setSynced(at milliseconds: Int64) throws(SQLiteError) {
        try update("json_set(state, '$.synced_at', ?3)") { statement throws(SQLiteError) in try statement.bind(milliseconds, at: 3) }
    }

    /// When the account's server was last found lacking `feature` (milliseconds since 1970),
    /// kept in this timeline's state (the home timeline's, by convention); `nil` when it never
    /// was, or has been found to have it since.
    func lackingSince(_ feature: ServerFeature) throws(SQLiteError) -> Int64? {
        let statement = try connection.statement("""
            SELECT json_extract(state, '$.lacking.' || ?3) FROM synced_timelines WHERE account = ?1 AND timeline = ?2
            """)
        defer { statement.reset() }
        try bindKey(statement)
        try statement.bind(feature.rawValue, at: 3)
        guard try statement.step() else { return nil }
        return statement.optionalInt64(at: 0)
    }

    /// The features the account's server was found lacking, in name order.
    func lackingFeatures() throws(SQLiteError) -> [ServerFeature] {
        var found: [ServerFeature] = []
        for feature in ServerFeature.allCases where try lackingSince(feature) != nil { found.append(feature) }
        return found
    }

    /// Records how many notifications the server's filters hold back for the account (Mastodon
    /// 4.3's notification policy summary), read back by `TimelineStore.heldBackNotifications()`.
    func setHeldBack(requests: Int, notifications: Int) throws(SQLiteError) {
        try update("json_set(state, '$.held_back', json_object('requests', ?3, 'notifications', ?4))") { statement throws(SQLiteError) in
            try statement.bind(requests, at: 3)
            try statement.bind(notifications, at: 4)
        }
    }

    /// Records that the server lacks `feature` as of `milliseconds`, or (`nil`) that it has it.
    func setLacking(_ feature: ServerFeature, at milliseconds: Int64?) throws(SQLiteError) {
        if let milliseconds {
            try update("json_set(state, '$.lacking.' || ?3, ?4)") { statement throws(SQLiteError) in
                try statement.bind(feature.rawValue, at: 3)
                try statement.bind(milliseconds, at: 4)
            }
        } else {
            try update("json_remove(state, '$.lacking.' || ?3)") { statement throws(SQLiteError) in
                try statement.bind(feature.rawValue, at: 3)
            }
        }
    }

    /// The positions of the entries among `ids` (server IDs) that this timeline already holds.
    func positions(of ids: [String]) throws(SQLiteError) -> [String: Int64] {
        guard !ids.isEmpty else { return [:] }
        let statement = try connection.statement("""
            SELECT id, position FROM synced_entries
            WHERE account = ?1 AND timeline = ?2 AND id IN (SELECT value FROM json_each(?3))
            """)
        defer { statement.reset() }
        try bindKey(statement)
        try statement.bind(SQLiteJSONArray(ids), at: 3)
        var result: [String: Int64] = [:]
        while try statement.step() { result[statement.text(at: 0)] = statement.int64(at: 1) }
        return result
    }

    /// Records that the home timeline holds the status `statusID` (stored as `messageID`) at
    /// `position`.
    func insertHomeEntry(position: Int64, statusID: String, messageID: String) throws(SQLiteError) {
        let statement = try connection.statement("""
            INSERT INTO synced_entries (account, timeline, position, id, message_id) VALUES (?1, 'home', ?2, ?3, ?4)
            """)
        try statement.bind(account, at: 1)
        try statement.bind(position, at: 2)
        try statement.bind(statusID, at: 3)
        try statement.bind(messageID, at: 4)
        try statement.run()
    }

    /// Forgets the home entry of a status the server deleted. (An entry whose message is gone
    /// otherwise, deleted here or by another program, stays harmless until `prune`.)
    func removeHomeEntry(statusID: String) throws(SQLiteError) {
        let statement = try connection.statement("DELETE FROM synced_entries WHERE account = ?1 AND timeline = 'home' AND id = ?2")
        try statement.bind(account, at: 1)
        try statement.bind(statusID, at: 2)
        try statement.run()
    }

    /// Stores a notification at `position`. A group's entry (Mastodon 4.3) replaces the entry
    /// its group had before: a group that grew comes back under its newest notification's ID.
    func insertNotification(position: Int64, _ notification: DecodedNotification) throws(SQLiteError) {
        if let key = notification.groupKey {
            let replaced = try connection.statement("""
                DELETE FROM synced_entries WHERE account = ?1 AND timeline = 'notifications' AND group_key = ?2 AND id != ?3
                """)
            try replaced.bind(account, at: 1)
            try replaced.bind(key, at: 2)
            try replaced.bind(notification.id, at: 3)
            try replaced.run()
        }
        let statement = try connection.statement("""
            INSERT INTO synced_entries (account, timeline, position, id, type, created_at, actor_id, message_id, group_key, group_count)
            VALUES (?1, 'notifications', ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
            """)
        try statement.bind(account, at: 1)
        try statement.bind(position, at: 2)
        try statement.bind(notification.id, at: 3)
        try statement.bind(notification.kind.rawValue, at: 4)
        try statement.bind(notification.createdAt, at: 5)
        try statement.bind(notification.actorID, at: 6)
        try statement.bind(notification.messageID, at: 7)
        try statement.bind(notification.groupKey, at: 8)
        try statement.bind(notification.groupKey == nil ? nil : Int64(notification.groupCount), at: 9)
        try statement.run()
    }

    // MARK: Gaps

    /// The gaps, the newest (highest) first: the part of the timeline a person sees first.
    func gaps() throws(SQLiteError) -> [SyncGap] {
        let statement = try connection.statement("""
            SELECT json_extract(gap.value, '$.upper_id'), json_extract(gap.value, '$.upper_position'),
                   json_extract(gap.value, '$.lower_id'), json_extract(gap.value, '$.lower_position'),
                   json_extract(gap.value, '$.remaining')
            FROM synced_timelines, json_each(state, '$.gaps') AS gap
            WHERE account = ?1 AND timeline = ?2 ORDER BY json_extract(gap.value, '$.upper_position') DESC
            """)
        defer { statement.reset() }
        try bindKey(statement)
        var result: [SyncGap] = []
        while try statement.step() {
            result.append(SyncGap(upperID: statement.text(at: 0), upperPosition: statement.int64(at: 1),
                                  lowerID: statement.optionalText(at: 2), lowerPosition: statement.optionalInt64(at: 3),
                                  remaining: statement.optionalInt64(at: 4).map { Int($0) }))
        }
        return result
    }

    func insert(_ gap: SyncGap) throws(SQLiteError) {
        try update("""
            json_insert(state, '$.gaps[#]', json_object('upper_id', ?3, 'upper_position', ?4, 'lower_id', ?5,
                                                        'lower_position', ?6, 'remaining', ?7))
            """) { statement throws(SQLiteError) in
            try statement.bind(gap.upperID, at: 3)
            try statement.bind(gap.upperPosition, at: 4)
            try statement.bind(gap.lowerID, at: 5)
            try statement.bind(gap.lowerPosition, at: 6)
            try statement.bind(gap.remaining.map(Int64.init), at: 7)
        }
    }

    /// Removes the gap whose upper end is at `upperPosition`.
    func deleteGap(upperPosition: Int64) throws(SQLiteError) {
        try update("""
            coalesce(json_remove(state, (SELECT gap.fullkey FROM json_each(state, '$.gaps') AS gap
                                         WHERE json_extract(gap.value, '$.upper_position') = ?3)), state)
            """) { statement throws(SQLiteError) in try statement.bind(upperPosition, at: 3) }
    }

    // MARK: Read marker (home)

    /// Records the server's read marker; `position` is its place in the home timeline when
    /// stored, else `nil` (it is placed when its status arrives).
    func setMarker(id: String, position: Int64?) throws(SQLiteError) {
        try update("json_set(state, '$.marker_id', ?3, '$.marker_position', ?4)") { statement throws(SQLiteError) in
            try statement.bind(id, at: 3)
            try statement.bind(position, at: 4)
        }
    }

    /// Marks read the home entries from `lowest` up to `highest` (positions, both included) and
    /// the messages they boost or quote, which show inside them. Returns how many changed.
    func markHomeRead(from lowest: Int64, through highest: Int64) throws(SQLiteError) -> Int {
        let statement = try connection.statement("""
            DELETE FROM unread_messages WHERE seq IN (
                SELECT shown.seq FROM synced_entries AS entry JOIN messages AS shown ON shown.id = entry.message_id
                WHERE entry.account = ?1 AND entry.timeline = 'home' AND entry.position BETWEEN ?2 AND ?3
                UNION ALL
                SELECT original.seq FROM synced_entries AS entry
                    JOIN messages AS shown ON shown.id = entry.message_id
                    JOIN messages AS original ON original.id IN (shown.repost_of_id, shown.quote_of_id)
                WHERE entry.account = ?1 AND entry.timeline = 'home' AND entry.position BETWEEN ?2 AND ?3)
            """)
        try statement.bind(account, at: 1)
        try statement.bind(lowest, at: 2)
        try statement.bind(highest, at: 3)
        try statement.run()
        return connection.changes
    }

    /// The entry the read marker should point at by local read state: the newest home entry
    /// such that it and every entry below it are read, and that is not above a part of the
    /// timeline still unfetched (a gap's contents are unknown, so not read). `nil` when the
    /// lowest entry is unread. An entry whose message is gone counts as read.
    func readThrough() throws(SQLiteError) -> (statusID: String, position: Int64)? {
        let statement = try connection.statement("""
            SELECT id, position FROM synced_entries
            WHERE account = ?1 AND timeline = 'home'
              AND position < coalesce((SELECT min(entry.position) FROM synced_entries AS entry
                                       JOIN messages AS shown ON shown.id = entry.message_id
                                       JOIN unread_messages AS unread ON unread.seq = shown.seq
                                       WHERE entry.account = ?1 AND entry.timeline = 'home'), 9223372036854775807)
              AND position <= coalesce((SELECT min(json_extract(gap.value, '$.lower_position'))
                                        FROM synced_timelines, json_each(state, '$.gaps') AS gap
                                        WHERE account = ?1 AND timeline = 'home'), 9223372036854775807)
            ORDER BY position DESC LIMIT 1
            """)
        defer { statement.reset() }
        try statement.bind(account, at: 1)
        guard try statement.step() else { return nil }
        return (statement.text(at: 0), statement.int64(at: 1))
    }

    /// Whether a part of the timeline between two fetched parts is still missing.
    func hasBoundedGaps() throws(SQLiteError) -> Bool {
        let statement = try connection.statement("""
            SELECT 1 FROM synced_timelines, json_each(state, '$.gaps') AS gap
            WHERE account = ?1 AND timeline = ?2 AND json_extract(gap.value, '$.lower_id') IS NOT NULL LIMIT 1
            """)
        defer { statement.reset() }
        try bindKey(statement)
        return try statement.step()
    }

    /// Sets this timeline's `state` to `expression` (SQL over `state`, whose parameters from
    /// `?3` on `bind` binds).
    private func update(
        _ expression: String, bind: (SQLiteStatement) throws(SQLiteError) -> Void
    ) throws(SQLiteError) {
        let statement = try connection.statement("UPDATE synced_timelines SET state = \(expression) WHERE account = ?1 AND timeline = ?2")
        try bindKey(statement)
        try bind(statement)
        try statement.run()
    }

    private func bindKey(_ statement: SQLiteStatement) throws(SQLiteError) {
        try statement.bind(account, at: 1)
        try statement.bind(timeline.rawValue, at: 2)
    }
}
