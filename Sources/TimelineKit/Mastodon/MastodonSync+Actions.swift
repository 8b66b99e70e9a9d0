extension MastodonSync {
    /// Favourites, reblogs or bookmarks the status `id` (a stored, namespaced ID; a reblog is
    /// acted on through its original), or undoes it:
    /// `POST /api/v1/statuses/:id/favourite|unfavourite|reblog|unreblog|bookmark|unbookmark`.
    /// The server answers with the status as it now is (for a reblog, the new reblog wrapping
    /// it): the status and its author are stored with their new counts, and the account's
    /// `favourited`, `reblogged` and `bookmarked` flags as the answer says them, in one
    /// transaction, which also takes the queued action `completing` out
    /// (``TimelineStore/removePendingAction(_:)``). The reblog itself is not stored: it is the
    /// account's own boost, which the home timeline brings on its next sync. Mastodon answers an
    /// action already done with the status as it is, so doing it twice is harmless.
    ///
    /// A queued action is sent with its key as `Idempotency-Key` (Mastodon honours it where it
    /// matters, on the POST that publishes a status; on these it costs nothing). `checkingFirst`
    /// (a retry of a try whose answer was lost) reads the status first
    /// (`GET /api/v1/statuses/:id`) and sends nothing when its flag is already as asked: the
    /// lost try was done.
    ///
    /// - Throws: `.replyTargetElsewhere` when `id` is not a status of this server, the client's
    ///   errors (`.rejected` with status 404 for a status that is gone), `.store`.
    public func act(_ action: MessageAction, on id: String, idempotencyKey: String? = nil, checkingFirst: Bool = false,
                    completing sequence: Int64? = nil) async throws(ServerError) -> MessageActionOutcome {
        let stored = try storeCall { () throws(TimelineStoreError) in try store.message(id: id) }
        let target = stored?.repostOfID ?? id
        guard let serverID = namespace.serverID(of: target) else {
            throw .replyTargetElsewhere(messageID: id, server: client.server.baseURL)
        }
        if checkingFirst {
            let url = client.server.url("/api/v1/statuses/" + FormEncoding.escape(serverID))
            let body = try ServerResponseReader.body(of: try await client.send(.get, url), from: url)
            let flags = try Self.flags(inBody: body, from: url)
            let current = switch action.kind {
            case .favourite: flags.favourited
            case .boost: flags.reblogged
            case .bookmark: flags.bookmarked
            }
            if current == action.sets {
                return try store(body, from: url, action: action, target: target, completing: sequence)
            }
        }
        let url = client.server.url("/api/v1/statuses/" + FormEncoding.escape(serverID) + "/" + Self.endpoint(of: action))
        let headers = idempotencyKey.map { [HTTPHeader(name: "Idempotency-Key", value: $0)] } ?? []
        let response = try await client.send(.post, url, headers: headers)
        return try store(try ServerResponseReader.body(of: response, from: url), from: url, action: action, target: target,
                         completing: sequence)
    }

    /// The account's flags in a status answer; a reblog's answer wraps the status acted on in
    /// `reblog`.
    static func flags(inBody body: [UInt8], from url: String) throws(ServerError) -> (favourited: Bool?, reblogged: Bool?, bookmarked: Bool?) {
        try ServerResponseReader.read(body: body, from: url) { document throws(JSONLineFailure) in
            var view = try JSONObjectView(document, path: "", expected: "a status object")
            if let original = try view.object("reblog", expected: "a status object") { view = original }
            return (favourited: try view.bool("favourited"), reblogged: try view.bool("reblogged"),
                    bookmarked: try view.bool("bookmarked"))
        }
    }

    /// Stores the status answer `body` to `action` on `target`, and the account's flags, and
    /// takes the queued action `sequence` out, in one transaction.
    private func store(_ body: [UInt8], from url: String, action: MessageAction, target: String,
                       completing sequence: Int64?) throws(ServerError) -> MessageActionOutcome {
        let (answeredID, timeline) = try Self.status(inBody: body, from: url, namespace: namespace)
        let flags = try Self.flags(inBody: body, from: url)
        // A reblog answers with the account's new reblog, which is not stored (see above).
        let wrapperID = timeline.message(id: answeredID)?.repostOfID == nil ? nil : answeredID
        var interaction = MessageInteraction(messageID: target)
        try storeCall { () throws(TimelineStoreError) in
            try store.storeWrite { transaction throws(TimelineStoreError) in
                try transaction.upsert(users: timeline.users)
                try transaction.upsert(messages: timeline.messages.filter { $0.id != wrapperID })
                var current = try transaction.interaction(account: account, messageID: target).0
                // What the server said, and where it said nothing (a server that leaves a flag
                // out), what the action did.
                current[action.kind] = action.sets
                if let value = flags.favourited { current.favourited = value }
                if let value = flags.reblogged { current.boosted = value }
                if let value = flags.bookmarked { current.bookmarked = value }
                for kind in MessageInteraction.Kind.allCases {
                    try transaction.setInteraction(account: account, messageID: target, kind, on: current[kind])
                }
                if let sequence { try transaction.removePendingAction(sequence) }
                interaction = current
            }
        }
        return MessageActionOutcome(action: action, messageID: target, interaction: interaction)
    }

    /// The last path component of `action`'s endpoint.
    static func endpoint(of action: MessageAction) -> String {
        switch action {
        case .favourite: "favourite"
        case .unfavourite: "unfavourite"
        case .boost: "reblog"
        case .unboost: "unreblog"
        case .bookmark: "bookmark"
        case .unbookmark: "unbookmark"
        }
    }

    /// The account's bookmarks (`GET /api/v1/bookmarks`), newest first, up to `limit` (pages
    /// of at most 40, the next one below the `max_id` of the answer's `Link` header), stored
    /// with their bookmark set. A status the server's page could not be read is left out.
    public func bookmarks(limit: Int) async throws(ServerError) -> [String] {
        var ids: [String] = []
        var cursor: String?
        while ids.count < limit {
            var url = client.server.url("/api/v1/bookmarks?limit=\(min(limit - ids.count, 40))")
            if let cursor { url += "&max_id=" + FormEncoding.escape(cursor) }
            let response = try await client.send(.get, url)
            let page = try FetchedPage.statuses(response, from: url, namespace: namespace, limit: limit - ids.count)
            let stored = page.entryIDs.map(namespace.id)
            try storeCall { () throws(TimelineStoreError) in
                try store.storeWrite { transaction throws(TimelineStoreError) in
                    try transaction.upsert(users: page.timeline.users)
                    try transaction.upsert(messages: page.timeline.messages)
                    for id in stored {
                        try transaction.setInteraction(account: account, messageID: id, .bookmark, on: true)
                    }
                }
            }
            ids += stored
            guard !page.isEmpty, let next = page.olderCursor, next != cursor else { break }
            cursor = next
        }
        return ids
    }
}
