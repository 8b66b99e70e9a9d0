extension MastodonSync {
    /// The accounts whose notifications the server's filters hold back
    /// (`GET /api/v1/notifications/requests`, Mastodon 4.3), newest first, at most `limit`, paged
    /// and bounded as `accountPages(_:endpoint:feature:limit:_:)` pages. `truncated`: the
    /// server had more.
    ///
    /// - Throws: `.serverLacks` on a server without them (before 4.3, Takahē), the server's errors.
    public func notificationRequests(limit: Int) async throws(ServerError) -> (requests: [NotificationRequest], truncated: Bool) {
        let path = "/api/v1/notifications/requests"
        let feature = "filtered notification requests (Mastodon 4.3)"
        do {
            let (requests, truncated) = try await accountPages(accountPagesURL(path, limit: limit), endpoint: "GET " + path, feature: feature,
                                          limit: limit) { view throws(JSONLineFailure) in
                guard let account = try view.object("account", expected: "an account object") else { throw view.missing("account") }
                return NotificationRequest(account: try user(account), notifications: try view.count("notifications_count"),
                                           updatedAt: try Self.optionalTime("updated_at", in: view))
            }
            return (requests, truncated)
        } catch {
            // Before 4.3 (and on Takahē) the path falls to `notifications/:id`, a notification
            // named `requests` that does not exist: its 404 "Record not found" is the lack here.
            if case .rejected(_, 404, _) = error {
                throw .serverLacks(server: client.server.baseURL, feature: "\(feature) (`GET \(path)` answered status 404)")
            }
            throw error
        }
    }
}
