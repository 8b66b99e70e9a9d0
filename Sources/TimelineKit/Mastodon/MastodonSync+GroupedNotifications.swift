extension MastodonSync {
    /// The kinds asked for grouped: those Mastodon 4.3 groups (`favourite`, `reblog`, `follow`);
    /// the others come one by one as in the v1 list.
    static let groupedTypes = ["favourite", "reblog", "follow"]

    /// One page of `GET /api/v2/notifications` (Mastodon 4.3), or `nil` when the server has no
    /// grouped notifications: a 404 (or the like) is remembered in the notifications' sync state
    /// for ``ServerFeature/recheckInterval``, and the v1 list is read meanwhile without asking.
    func fetchGroupedNotifications(maxID: String?, sinceID: String?, limit: Int) async throws(ServerError) -> FetchedPage? {
        let now = MillisecondTime.milliseconds(from: client.clock.now())
        let (lackingSince, recent) = try lack(of: .groupedNotifications, at: now, in: .notifications)
        if recent { return nil }
        var query: [(name: String, value: String)] = [("limit", String(limit))]
        query += Self.groupedTypes.map { ("grouped_types[]", $0) }
        if let maxID { query.append(("max_id", maxID)) }
        if let sinceID { query.append(("since_id", sinceID)) }
        let url = client.server.url("/api/v2/notifications", query: query)
        let response: HTTPResponse
        do {
            response = try await client.sendOptional(.get, url)
        } catch {
            guard case .notSupported = error else { throw error }
            try recordLack(of: .groupedNotifications, at: now, in: .notifications)
            return nil
        }
        if lackingSince != nil { try recordLack(of: .groupedNotifications, at: nil, in: .notifications) }
        return try FetchedPage.groupedNotifications(response, from: url, namespace: namespace, limit: limit)
    }

    /// Counts the notifications the server's filters hold back (`GET /api/v1/notifications/policy`,
    /// Mastodon 4.3: `summary.pending_requests_count`, `pending_notifications_count`), kept in the
    /// notifications' sync state for `show --notifications` to say. Asked only of a server that
    /// has grouped notifications (the same version); a server that lacks it, or answers
    /// something else, leaves the last count as it was: the count is a note, not the sync's work.
    func countHeldBackNotifications() async throws(ServerError) {
        let now = MillisecondTime.milliseconds(from: client.clock.now())
        guard try lack(of: .groupedNotifications, at: now, in: .notifications).since == nil else { return }
        let url = client.server.url("/api/v1/notifications/policy")
        let counts: (requests: Int, notifications: Int)
        do {
            let response = try await client.sendOptional(.get, url)
            counts = try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) in
                let policy = try JSONObjectView(document, path: "", expected: "a notification policy object")
                guard let summary = try policy.object("summary", expected: "a summary object") else { throw policy.missing("summary") }
                return (try summary.count("pending_requests_count"), try summary.count("pending_notifications_count"))
            }
        } catch {
            switch error {
            case .notSupported, .invalidResponse, .rejected: return
            default: throw error
            }
        }
        try write { transaction throws(TimelineStoreError) in
            try transaction.withSQLite { () throws(SQLiteError) in
                try ledger(transaction.connection, .notifications).setHeldBack(requests: counts.requests, notifications: counts.notifications)
            }
        }
    }
}
