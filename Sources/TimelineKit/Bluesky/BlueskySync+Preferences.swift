extension BlueskySync {
    /// The most follows read for muted words that exclude followed accounts (`exclude-following`):
    /// 50 requests of 100. An account following more has its words applied to the rest.
    public static let maximumFollowsRead = 5_000

    /// Reads the account's preferences (`app.bsky.actor.getPreferences`, ``BlueskyPreferences``)
    /// into its rules (``TimelineTransaction/updateModerationRules(account:now:_:)``), which re-decides
    /// what is stored, and names the labelers it subscribes to in every later call
    /// (`atproto-accept-labelers`), so that the timeline read next carries their labels. When
    /// one of its muted words excludes followed accounts, whom it follows is read too
    /// (`app.bsky.graph.getFollows`, at most ``maximumFollowsRead``) into the rules'
    /// ``ModerationRules/following``. Part of `run()`, before the timelines.
    ///
    /// A server without the endpoint (404, 405, 410, 501: a PDS of another make, a test server)
    /// is synced without it: the rules stored from before stay, and `nil` is returned.
    @discardableResult
    public func syncPreferences() async throws(ServerError) -> BlueskyPreferences? {
        let nsid = "app.bsky.actor.getPreferences"
        let response: HTTPResponse
        do {
            response = try await client.query(nsid)
        } catch {
            if case let .rejected(_, status, _) = error, ServerError.missingEndpointStatuses.contains(status) { return nil }
            throw error
        }
        let preferences = try ServerResponseReader.read(response, from: client.host.url("/xrpc/" + nsid)) { document throws(JSONLineFailure) in
            try BlueskyPreferences(document)
        }
        client.acceptLabelers(preferences.labelers)
        var followed: Set<String> = []
        if preferences.mutedWords.contains(where: \.excludesFollowing) {
            followed = Set(try await followedUsers(limit: Self.maximumFollowsRead).map(\.id))
        }
        let now = client.clock.now()
        try pager.write { transaction throws(TimelineStoreError) in
            _ = try transaction.updateModerationRules(account: account, now: now) { rules in
                preferences.apply(to: &rules)
                rules.following = followed
            }
        }
        return preferences
    }
}
