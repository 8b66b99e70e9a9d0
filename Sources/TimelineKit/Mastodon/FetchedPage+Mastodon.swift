/// The pages of a Mastodon-API server: its home timeline and its notifications, read from the
/// JSON arrays the server answers.
extension FetchedPage {
    /// A page of `GET /api/v1/timelines/home` (an array of statuses).
    ///
    /// Only the first `limit` entries (the page size asked) are read: a server that sends more
    /// cannot make a sync store, or fetch for, more than it asked (issue 24). The next page then
    /// starts below the last entry kept, not where the server's `Link` points.
    /// `filterContext` is the Mastodon filter context of the timeline (``MastodonDecoder/filterContext``).
    static func statuses(_ response: HTTPResponse, from url: String, namespace: MastodonNamespace, limit: Int = .max,
                         filterContext: String = "home") throws(ServerError) -> FetchedPage {
        let decoder = MastodonDecoder(overlongText: .cut, filterContext: filterContext)
        let (ids, timeline, skipped, answered) = try elements(of: response, from: url, expected: ("status", "statuses"), limit: limit) {
            view, timeline throws(JSONLineFailure) in try decoder.status(view, into: &timeline)
        }
        return FetchedPage(entryIDs: ids, timeline: namespace.apply(to: timeline), notifications: [],
                           olderCursor: answered > limit ? ids.last : olderCursor(response, url: url, lastEntry: ids.last),
                           skipped: skipped, answered: answered)
    }

    /// A page of `GET /api/v1/notifications` (an array of notifications).
    static func notifications(_ response: HTTPResponse, from url: String, namespace: MastodonNamespace, limit: Int = .max) throws(ServerError) -> FetchedPage {
        let (notifications, timeline, skipped, answered) = try elements(of: response, from: url, expected: ("notification", "notifications"), limit: limit) {
            view, timeline throws(JSONLineFailure) in try DecodedNotification(view, into: &timeline)
        }
        let ids = notifications.map(\.id)
        return FetchedPage(entryIDs: ids, timeline: namespace.apply(to: timeline),
                           notifications: notifications.map { $0.namespaced(namespace) },
                           olderCursor: answered > limit ? ids.last : olderCursor(response, url: url, lastEntry: ids.last),
                           skipped: skipped, answered: answered)
    }

    /// The elements of the JSON array `response` holds, each an object of the kind named
    /// (singular and plural, for errors), read by `read` into one timeline. An element that
    /// cannot be read is left out and counted (what it added is dropped with it); the page
    /// itself must be a JSON array. Also returns how many elements the array held, all of them.
    private static func elements<T>(
        of response: HTTPResponse, from url: String, expected kind: (one: String, many: String), limit: Int,
        _ read: (JSONObjectView, inout DecodedTimeline) throws(JSONLineFailure) -> T
    ) throws(ServerError) -> ([T], DecodedTimeline, PageSkips, answered: Int) {
        let body = try ServerResponseReader.body(of: response, from: url)
        return try ServerResponseReader.read(body: body, from: url) { document throws(JSONLineFailure) in
            let elements = try document.elements(expected: "an array of \(kind.many)")
            var timeline = DecodedTimeline()
            var values: [T] = []
            var skipped = PageSkips()
            for (index, element) in elements.prefix(limit).enumerated() {
                var entry = DecodedTimeline()
                do throws(JSONLineFailure) {
                    values.append(try read(try JSONObjectView(element, path: "[\(index)]", expected: "a \(kind.one) object"), &entry))
                    timeline.add(contentsOf: entry)
                } catch {
                    skipped.add(url: url, problem: ServerResponseReader.problem(error, in: body))
                }
            }
            return (values, timeline, skipped, elements.count)
        }
    }

    /// The cursor of the next older page, read from `Link` as RFC 8288 says.
    static func olderCursor(_ response: HTTPResponse, url: String, lastEntry: String?) -> String? {
        let fields = response.headers(named: "Link")
        guard !fields.isEmpty else { return lastEntry }
        let links = LinkHeader(fields: fields, base: url)
        guard let next = links.first(relation: "next") else { return nil }
        return ServerAddress.queryValue("max_id", in: next.target) ?? lastEntry
    }
}
