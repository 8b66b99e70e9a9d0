/// One page of a server's timeline (the home timeline, or notifications) as it arrived: the
/// entries' server IDs newest first, what they hold, and where the next older page starts.
struct FetchedPage: Sendable {
    /// The server's IDs of the entries, newest first: status IDs for the home timeline,
    /// notification IDs for notifications. Opaque: compared for equality only, never ordered.
    var entryIDs: [String]
    /// The users and messages the page holds, their IDs in the server's namespace.
    var timeline: DecodedTimeline
    /// The notifications, one per entry, for a notifications page.
    var notifications: [DecodedNotification]
    /// The `max_id` that asks for the next older page, taken from the `Link` header's
    /// `rel="next"` (else the last entry's ID when the server sent no `Link` at all); `nil` when
    /// the server says there is nothing older.
    var olderCursor: String?
    /// Entries of the page left out because they could not be read (an ID of the wrong type,
    /// a missing author): one bad entry costs that entry, never the page (issue 24).
    var skipped = PageSkips()

    var isEmpty: Bool { entryIDs.isEmpty }

    /// A page of `GET /api/v1/timelines/home` (an array of statuses).
    ///
    /// Only the first `limit` entries (the page size asked) are read: a server that sends more
    /// cannot make a sync store, or fetch for, more than it asked (issue 24). The next page then
    /// starts below the last entry kept, not where the server's `Link` points.
    static func statuses(_ response: HTTPResponse, from url: String, namespace: MastodonNamespace, limit: Int = .max) throws(ServerError) -> FetchedPage {
        let decoder = MastodonDecoder(overlongText: .cut)
        let (ids, timeline, skipped, cut) = try elements(of: response, from: url, expected: ("status", "statuses"), limit: limit) {
            view, timeline throws(JSONLineFailure) in try decoder.status(view, into: &timeline)
        }
        return FetchedPage(entryIDs: ids, timeline: namespace.apply(to: timeline), notifications: [],
                           olderCursor: cut ? ids.last : olderCursor(response, url: url, lastEntry: ids.last), skipped: skipped)
    }

    /// A page of `GET /api/v1/notifications` (an array of notifications).
    static func notifications(_ response: HTTPResponse, from url: String, namespace: MastodonNamespace, limit: Int = .max) throws(ServerError) -> FetchedPage {
        let (notifications, timeline, skipped, cut) = try elements(of: response, from: url, expected: ("notification", "notifications"), limit: limit) {
            view, timeline throws(JSONLineFailure) in try DecodedNotification(view, into: &timeline)
        }
        let ids = notifications.map(\.id)
        return FetchedPage(entryIDs: ids, timeline: namespace.apply(to: timeline),
                           notifications: notifications.map { $0.namespaced(namespace) },
                           olderCursor: cut ? ids.last : olderCursor(response, url: url, lastEntry: ids.last), skipped: skipped)
    }

    /// The elements of the JSON array `response` holds, each an object of the kind named
    /// (singular and plural, for errors), read by `read` into one timeline. An element that
    /// cannot be read is left out and counted (what it added is dropped with it); the page
    /// itself must be a JSON array.
    private static func elements<T>(
        of response: HTTPResponse, from url: String, expected kind: (one: String, many: String), limit: Int,
        _ read: (JSONObjectView, inout DecodedTimeline) throws(JSONLineFailure) -> T
    ) throws(ServerError) -> ([T], DecodedTimeline, PageSkips, cut: Bool) {
        let body = try ServerResponseReader.body(of: response, from: url)
        return try ServerResponseReader.read(body: body, from: url) { document throws(JSONLineFailure) in
            guard let elements = document.arrayValue else {
                throw JSONLineFailure(offset: document.offset, field: nil,
                                      problem: .wrongType(expected: "an array of \(kind.many)", found: document.found))
            }
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
            return (values, timeline, skipped, elements.count > limit)
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

/// One notification of a page, its IDs already in the server's namespace after
/// `namespaced(_:)`.
struct DecodedNotification: Sendable, Hashable {
    /// The server's notification ID (not namespaced: it is stored with its account).
    var id: String
    var kind: NotificationKind
    var createdAt: Int64
    /// The account that acted (who favourited, followed, mentioned).
    var actorID: String?
    /// The status it is about, when it has one.
    var messageID: String?

    init(id: String, kind: NotificationKind, createdAt: Int64, actorID: String?, messageID: String?) {
        self.id = id
        self.kind = kind
        self.createdAt = createdAt
        self.actorID = actorID
        self.messageID = messageID
    }

    /// Reads a Mastodon notification, adding its account and status to `timeline`.
    init(_ view: JSONObjectView, into timeline: inout DecodedTimeline) throws(JSONLineFailure) {
        let decoder = MastodonDecoder(overlongText: .cut)
        id = try view.requiredID("id")
        kind = NotificationKind(rawValue: try view.requiredString("type"))
        guard let created = try view.rfc3339Time("created_at") else { throw view.missing("created_at") }
        createdAt = created
        if let account = try view.object("account", expected: "an account object") {
            let user = try decoder.user(account)
            timeline.add(user)
            actorID = user.id
        }
        if let status = try view.object("status", expected: "a status object or null") {
            let statusID = try decoder.status(status, into: &timeline)
            messageID = statusID
            if kind.isAboutOwnPost, var message = timeline.message(id: statusID) {
                // Favourites and boosts are of the person's own posts, which they have read.
                message.isRead = true
                timeline.add(message)
            }
        }
    }

    func namespaced(_ namespace: MastodonNamespace) -> DecodedNotification {
        var copy = self
        copy.actorID = actorID.map(namespace.id)
        copy.messageID = messageID.map(namespace.id)
        return copy
    }
}
