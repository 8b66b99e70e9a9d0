extension BlueskySync {
    /// `text` as a Bluesky list or feed generator to read (the AT URI of an
    /// `app.bsky.graph.list` or `app.bsky.feed.generator` record), or `nil`.
    public static func listID(_ text: String) -> String? {
        guard let uri = ATURI(text), uri.recordKey != nil,
              uri.collection == "app.bsky.graph.list" || uri.collection == "app.bsky.feed.generator" else { return nil }
        return text
    }

    /// The account's lists (`app.bsky.graph.getLists` of its DID, 100 at most): their AT URIs
    /// and names.
    public func lists() async throws(ServerError) -> [TimelineList] {
        guard let session = client.currentSession else { throw .unauthorized(server: client.service.baseURL) }
        let nsid = "app.bsky.graph.getLists"
        let response = try await client.query(nsid, [("actor", session.did), ("limit", "100")])
        return try ServerResponseReader.read(response, from: client.host.url("/xrpc/" + nsid)) { document throws(JSONLineFailure) -> [TimelineList] in
            let answer = try JSONObjectView(document, path: "", expected: "a lists answer")
            var lists: [TimelineList] = []
            for (index, node) in (try answer.array("lists", expected: "an array of lists") ?? []).prefix(100).enumerated() {
                let view = try JSONObjectView(node, path: "lists[\(index)]", expected: "a list view object")
                lists.append(TimelineList(id: try view.requiredString("uri"), title: try view.string("name") ?? ""))
            }
            return lists
        }
    }

    /// The newest posts of `source`, at most `limit`, by cursor in at most `limit / 25 + 2`
    /// requests, each page stored as it comes (unread): a tag through
    /// `app.bsky.feed.searchPosts` (`q` `#tag`, `tag`, `sort=latest`; Bluesky has no tag
    /// timeline), a list through `app.bsky.feed.getListFeed`, a feed generator through
    /// `app.bsky.feed.getFeed`. Answers their stored IDs (a repost's, for a feed's repost).
    ///
    /// A feed generator is described first, the first time only (`app.bsky.feed.getFeedGenerators`,
    /// one request; a server without it reads the feed all the same), and what its answers say of their
    /// items (`feedContext`, `reqId`) is kept with each page (`BlueskyFeedContexts`), so that
    /// a like, repost or reply is told back to it (``sendFeedInteraction(_:on:)``).
    public func fetchTimeline(_ source: TimelineSource, limit: Int) async throws(ServerError) -> [String] {
        let nsid: String
        var parameters: [(name: String, value: String)]
        let key: String
        switch source {
        case let .tag(tag):
            (nsid, key) = ("app.bsky.feed.searchPosts", "posts")
            parameters = [("q", "#" + tag), ("tag", tag), ("sort", "latest")]
        case let .list(uri):
            if ATURI(uri)?.collection == "app.bsky.feed.generator" {
                (nsid, key) = ("app.bsky.feed.getFeed", "feed")
                parameters = [("feed", uri)]
            } else {
                (nsid, key) = ("app.bsky.feed.getListFeed", "feed")
                parameters = [("list", uri)]
            }
        }
        let url = client.host.url("/xrpc/" + nsid)
        let decoder = BlueskyDecoder(overlongText: .cut)
        var feed: String?
        var generator: GeneratorView?
        if nsid == "app.bsky.feed.getFeed", case let .list(uri) = source {
            feed = uri
            // Asked for once, when the store has no word of the generator yet.
            let known = try? pager.storeCall { () throws(TimelineStoreError) in try store.sourceStates(of: .bluesky)[BlueskyFeedContexts.key(uri)] }
            if (known ?? nil) == nil { generator = (try? await generatorViews([uri]))?[uri] }
        }
        var ids: [String] = []
        var cursor: String?
        var requests = 0
        while ids.count < limit, requests < limit / 25 + 2 {
            requests += 1
            let wanted = min(100, limit - ids.count)
            var query = parameters + [(name: "limit", value: String(wanted))]
            if let cursor { query.append((name: "cursor", value: cursor)) }
            let response = try await client.query(nsid, query)
            let (page, timeline, next, answer) = try ServerResponseReader.read(response, from: url) {
                document throws(JSONLineFailure) -> ([String], DecodedTimeline, String?, JSONObjectView) in
                let answer = try JSONObjectView(document, path: "", expected: "a feed answer")
                var page: [String] = []
                var timeline = DecodedTimeline()
                let nodes = try answer.array(key, expected: "an array") ?? []
                for (index, node) in nodes.prefix(wanted).enumerated() {
                    let view = try JSONObjectView(node, path: "\(key)[\(index)]", expected: "an object")
                    var entry = DecodedTimeline()
                    // A post a stranger wrote that cannot be read is left out, as a sync leaves it.
                    do throws(JSONLineFailure) {
                        page.append(key == "posts" ? try decoder.postView(view, into: &entry) : try decoder.feedItem(view, into: &entry))
                        timeline.add(contentsOf: entry)
                    } catch {
                        continue
                    }
                }
                return (page, timeline, try answer.string("cursor"), answer)
            }
            _ = try pager.storeThread(timeline, entryIDs: page, markingRead: false) { transaction throws(TimelineStoreError) in
                if let feed { try Self.keepContexts(of: answer, limit: wanted, feed: feed, generator: generator, in: transaction) }
            }
            ids += page
            guard !page.isEmpty, let next, next != cursor else { break }
            cursor = next
        }
        return ids
    }
}
