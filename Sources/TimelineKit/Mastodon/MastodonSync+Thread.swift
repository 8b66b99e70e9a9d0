extension MastodonSync {
    /// Fetches the conversation around the stored status `id` (a reblog's through its original):
    /// `GET /api/v1/statuses/:id/context`, whose `ancestors` (root first) and `descendants` are
    /// stored (`TimelinePager.storeThread(_:entryIDs:)`), at most `limit` of them (ancestors
    /// first: the way up matters most), and the status itself is not asked again. A status the
    /// answer holds that cannot be read is left out and counted, as a sync does.
    ///
    /// - Throws: `.replyTargetElsewhere` when `id` is not a status of this server,
    ///   `.serverLacks` naming the endpoint when the server lacks it, `.rejected` (a JSON 404:
    ///   the status is gone).
    public func fetchThread(around id: String, limit: Int) async throws(ServerError) -> ThreadFetch {
        let stored = try storeCall { () throws(TimelineStoreError) in try store.message(id: id) }
        let target = stored?.repostOfID ?? id
        guard let serverID = namespace.serverID(of: target) else {
            throw .replyTargetElsewhere(messageID: id, server: client.server.baseURL)
        }
        let url = client.server.url("/api/v1/statuses/" + FormEncoding.escape(serverID) + "/context")
        let response = try await client.send(.get, url, feature: "conversations", endpoint: "GET /api/v1/statuses/:id/context")
        let body = try ServerResponseReader.body(of: response, from: url)
        let limit = max(0, min(limit, ThreadFetch.maximumPosts))
        let decoder = MastodonDecoder(overlongText: .cut, filterContext: "thread")
        let (ids, timeline, skipped, isCut) = try ServerResponseReader.read(body: body, from: url) {
            document throws(JSONLineFailure) -> ([String], DecodedTimeline, Int, Bool) in
            let context = try JSONObjectView(document, path: "", expected: "a context object")
            var ids: [String] = []
            var timeline = DecodedTimeline()
            var skipped = 0
            var isCut = false
            for key in ["ancestors", "descendants"] {
                let statuses = try context.array(key, expected: "an array of statuses") ?? []
                for (index, element) in statuses.enumerated() {
                    guard ids.count < limit else {
                        isCut = true
                        break
                    }
                    var entry = DecodedTimeline()
                    do throws(JSONLineFailure) {
                        ids.append(try decoder.status(try JSONObjectView(element, path: "\(key)[\(index)]", expected: "a status object"), into: &entry))
                        timeline.add(contentsOf: entry)
                    } catch {
                        skipped += 1
                    }
                }
            }
            return (ids, timeline, skipped, isCut)
        }
        var fetched = try pager.storeThread(namespace.apply(to: timeline), entryIDs: ids.map(namespace.id))
        fetched.isCut = isCut
        fetched.skipped = skipped
        return fetched
    }
}
