extension MastodonSync {
    /// `text` as a Mastodon list ID (letters, digits, `_` and `-`: Mastodon's are digits, other
    /// servers' opaque), or `nil`.
    public static func listID(_ text: String) -> String? {
        guard !text.isEmpty, text.utf8.count <= 100,
              text.utf8.allSatisfy({ HostName.isLetterOrDigit($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }) else { return nil }
        return text
    }

    /// The account's lists (`GET /api/v1/lists`): their IDs and titles, at most 1,000 read; a
    /// server without lists is `.serverLacks` naming the endpoint.
    public func lists() async throws(ServerError) -> [TimelineList] {
        let url = client.server.url("/api/v1/lists")
        let response = try await client.send(.get, url, feature: "lists", endpoint: "GET /api/v1/lists")
        return try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) -> [TimelineList] in
            let elements = try document.elements(expected: "an array of lists")
            var lists: [TimelineList] = []
            for (index, element) in elements.prefix(1_000).enumerated() {
                let view = try JSONObjectView(element, path: "[\(index)]", expected: "a list object")
                lists.append(TimelineList(id: try view.requiredID("id"), title: try view.string("title") ?? ""))
            }
            return lists
        }
    }

    /// The newest statuses of `source` (`GET /api/v1/timelines/tag/:tag` or
    /// `/timelines/list/:id`), pages of 40 below each page's `max_id`, at most `limit`, in at
    /// most `limit / 20 + 2` requests; each page stored as it comes (`TimelinePager.storeThread(_:entryIDs:markingRead:)`,
    /// unread). Answers their stored IDs, newest first. A server without the endpoint (Takahē has
    /// no list timelines) is `.serverLacks` naming it; an unknown list is `.rejected` (404).
    public func fetchTimeline(_ source: TimelineSource, limit: Int) async throws(ServerError) -> [String] {
        let path: String, feature: String, endpoint: String
        switch source {
        case let .tag(tag):
            (path, feature, endpoint) = ("/api/v1/timelines/tag/" + FormEncoding.escape(tag), "hashtag timelines", "GET /api/v1/timelines/tag/:tag")
        case let .list(id):
            (path, feature, endpoint) = ("/api/v1/timelines/list/" + FormEncoding.escape(id), "list timelines", "GET /api/v1/timelines/list/:id")
        }
        var ids: [String] = []
        var cursor: String?
        var requests = 0
        while ids.count < limit, requests < limit / 20 + 2 {
            requests += 1
            let wanted = min(40, limit - ids.count)
            var query = [(name: "limit", value: String(wanted))]
            if let cursor { query.append((name: "max_id", value: cursor)) }
            let url = client.server.url(path, query: query)
            let response = try await client.send(.get, url, feature: feature, endpoint: endpoint)
            // A tag timeline is Mastodon's `public` filter context; a list is `home`'s.
            let filterContext: String
            if case .tag = source { filterContext = "public" } else { filterContext = "home" }
            let page = try FetchedPage.statuses(response, from: url, namespace: namespace, limit: wanted, filterContext: filterContext)
            let stored = page.entryIDs.map(namespace.id)
            _ = try pager.storeThread(page.timeline, entryIDs: stored, markingRead: false)
            ids += stored
            // A page shorter than asked, and than every server gives, is the end.
            if TimelinePager.isShort(page, asked: wanted) { break }
            guard !page.isEmpty, let next = page.olderCursor, next != cursor else { break }
            cursor = next
        }
        return ids
    }
}
