extension BlueskySync {
    /// How far `app.bsky.feed.getPostThread` is asked to go: replies this many levels down…
    static let threadDepth = 10
    /// …and this many parents up (the API's default).
    static let threadParentHeight = 80

    /// What a walk through a thread answer gathered.
    private struct ThreadWalk {
        var ids: [String] = []
        var timeline = DecodedTimeline()
        var skipped = 0
        var isCut = false
        let limit: Int
        let decoder = BlueskyDecoder(overlongText: .cut)

        /// Stores the post of a `threadViewPost` node (a `notFoundPost` or `blockedPost` has
        /// none and is passed over); answers whether there was one.
        mutating func take(_ node: JSONObjectView, counted: Bool) throws(JSONLineFailure) -> Bool {
            guard let post = try node.object("post", expected: "a post view object") else { return false }
            if counted, ids.count >= limit {
                isCut = true
                return false
            }
            var entry = DecodedTimeline()
            do throws(JSONLineFailure) {
                let id = try decoder.postView(post, into: &entry)
                timeline.add(contentsOf: entry)
                if counted { ids.append(id) }
            } catch {
                skipped += 1
            }
            return true
        }

        /// The replies below `node`, depth first as they are shown, at most `levels` further down
        /// (a server that nests deeper than it was asked is not followed past that).
        mutating func replies(of node: JSONObjectView, levels: Int) throws(JSONLineFailure) {
            guard levels > 0, let replies = try node.array("replies", expected: "an array of thread nodes") else { return }
            for (index, reply) in replies.enumerated() {
                guard !isCut else { return }
                let view = try JSONObjectView(reply, path: node.path("replies") + "[\(index)]", expected: "a thread node object")
                if try take(view, counted: true) { try self.replies(of: view, levels: levels - 1) }
            }
        }
    }

    /// Fetches the conversation around the stored post `id` (a repost's through the post it
    /// reposts): `app.bsky.feed.getPostThread` with `depth` `threadDepth` and `parentHeight`
    /// `threadParentHeight`; its parents (up to the root) and replies are stored
    /// (`TimelinePager.storeThread(_:entryIDs:)`), at most `limit` of them (parents first),
    /// and the post itself with its counts as they now are. Posts not found or blocked are
    /// passed over.
    ///
    /// - Throws: `.replyTargetElsewhere` when `id` is not a Bluesky post, `.rejected` when the
    ///   AppView does not have it (`NotFound`), the client's errors, `.store`.
    public func fetchThread(around id: String, limit: Int) async throws(ServerError) -> ThreadFetch {
        let stored = try pager.storeCall { () throws(TimelineStoreError) in try store.message(id: id) }
        let target = stored?.repostOfID ?? id
        guard ATURI(target)?.collection == "app.bsky.feed.post" else {
            throw .replyTargetElsewhere(messageID: id, server: "Bluesky")
        }
        let nsid = "app.bsky.feed.getPostThread"
        let response = try await client.query(nsid, [("uri", target), ("depth", String(Self.threadDepth)),
                                                     ("parentHeight", String(Self.threadParentHeight))])
        let url = client.host.url("/xrpc/" + nsid)
        let walk = try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) -> ThreadWalk in
            let answer = try JSONObjectView(document, path: "", expected: "a post thread answer")
            guard let thread = try answer.object("thread", expected: "a thread node object") else { throw answer.missing("thread") }
            var walk = ThreadWalk(limit: max(0, min(limit, ThreadFetch.maximumPosts)))
            _ = try walk.take(thread, counted: false)
            // The parents, nearest first, as far as the server went (and no further than asked).
            var parent = try thread.object("parent", expected: "a thread node object")
            var levels = Self.threadParentHeight
            while let node = parent, levels > 0, !walk.isCut {
                guard try walk.take(node, counted: true) else { break }
                parent = try node.object("parent", expected: "a thread node object")
                levels -= 1
            }
            try walk.replies(of: thread, levels: Self.threadDepth)
            return walk
        }
        var fetched = try pager.storeThread(walk.timeline, entryIDs: walk.ids)
        fetched.isCut = walk.isCut
        fetched.skipped = walk.skipped
        return fetched
    }
}
