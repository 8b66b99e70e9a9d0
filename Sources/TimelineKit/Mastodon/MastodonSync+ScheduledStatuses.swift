#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Scheduled statuses (issue 36): a post with `scheduled_at` is answered with a scheduled
// status, not a status; they are listed with `GET /api/v1/scheduled_statuses` and cancelled
// with `DELETE /api/v1/scheduled_statuses/:id`.
extension MastodonSync {
    /// What `POST /api/v1/statuses` answered for a post with `scheduled_at`: the scheduled
    /// post, or, from a server that ignores `scheduled_at` and publishes at once (it answers a
    /// status), that status, stored.
    enum ScheduleAnswer {
        case scheduled(ScheduledPost)
        case published(Message)
    }

    /// Sends `post` (its ``MastodonPost/scheduledAt`` set) and reads the answer: a scheduled
    /// status (an object with `params` and `scheduled_at`), or a status the server published
    /// now. The post's `Idempotency-Key` goes with it, so a retry schedules it once (for an hour).
    ///
    /// A server without scheduled statuses is found first, by one `GET
    /// /api/v1/scheduled_statuses?limit=1`: Takahē takes `scheduled_at` in a post and ignores
    /// it, publishing at once, which is not what was asked. Its 404 refuses the post
    /// (``ServerError/serverLacks(server:feature:)``) before anything is published.
    func schedule(_ post: MastodonPost) async throws(ServerError) -> ScheduleAnswer {
        let probe = client.server.url("/api/v1/scheduled_statuses", query: [("limit", "1")])
        _ = try await client.send(.get, probe, feature: "scheduled posts (a post with scheduled_at would be published at once)",
                                  endpoint: "GET /api/v1/scheduled_statuses")
        let replyTo = try post.replyTo.map { id throws(ServerError) in try serverStatusID(replyingTo: id) }
        let quoted = try post.quoteOf.map { id throws(ServerError) in try serverStatusID(replyingTo: id) }
        let url = client.server.url("/api/v1/statuses")
        let response = try await client.send(.post, url, json: post.body(replyToServerID: replyTo, quotedServerID: quoted),
                                             headers: [HTTPHeader(name: "Idempotency-Key", value: post.idempotencyKey)])
        let body = try ServerResponseReader.body(of: response, from: url)
        let scheduled = try ServerResponseReader.read(body: body, from: url) { document throws(JSONLineFailure) -> ScheduledPost? in
            let view = try JSONObjectView(document, path: "", expected: "a scheduled status or a status object")
            guard view.has("params") else { return nil }
            return try Self.scheduledPost(view)
        }
        if let scheduled { return .scheduled(scheduled) }
        return .published(try storeOwn(try Self.status(inBody: body, from: url, namespace: namespace), from: url))
    }

    /// The account's scheduled posts, soonest first, at most `limit` (and at most
    /// ``ScheduledPost/listLimit``): pages of 40, each older than the last one's smallest ID.
    public func scheduledPosts(limit: Int) async throws(ServerError) -> [ScheduledPost] {
        let wanted = max(0, min(limit, ScheduledPost.listLimit))
        var posts: [ScheduledPost] = []
        var cursor: String?
        while posts.count < wanted {
            let asked = min(wanted - posts.count, 40)
            var query = [("limit", String(asked))]
            if let cursor { query.append(("max_id", cursor)) }
            let url = client.server.url("/api/v1/scheduled_statuses", query: query)
            let response = try await client.send(.get, url, feature: "scheduled posts", endpoint: "GET /api/v1/scheduled_statuses")
            let page = try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) -> [ScheduledPost] in
                let elements = try document.elements(expected: "an array of scheduled statuses")
                var page: [ScheduledPost] = []
                for (index, element) in elements.prefix(asked).enumerated() {
                    page.append(try Self.scheduledPost(JSONObjectView(element, path: "[\(index)]", expected: "a scheduled status object")))
                }
                return page
            }
            posts += page
            // A short page is the last; Mastodon's IDs are numbers, and the next page is below
            // the smallest of this one (a server that repeats a cursor is not asked again).
            guard page.count == asked, let smallest = page.map(\.id).min(by: { ($0.count, $0) < ($1.count, $1) }),
                  smallest != cursor else { break }
            cursor = smallest
        }
        return posts.sorted { ($0.scheduledAt, $0.id) < ($1.scheduledAt, $1.id) }
    }

    /// Cancels the scheduled post `id` (`DELETE /api/v1/scheduled_statuses/:id`).
    public func unschedule(_ id: String) async throws(ServerError) {
        let url = client.server.url("/api/v1/scheduled_statuses/" + FormEncoding.escape(id))
        _ = try await client.send(.delete, url, feature: "scheduled posts", endpoint: "DELETE /api/v1/scheduled_statuses/:id")
    }

    /// One scheduled status: `id`, `scheduled_at`, `params.text`, `params.poll.options`.
    static func scheduledPost(_ view: JSONObjectView) throws(JSONLineFailure) -> ScheduledPost {
        let id = try view.requiredID("id")
        guard let milliseconds = try view.rfc3339Time("scheduled_at") else { throw view.missing("scheduled_at") }
        let parameters = try view.object("params", expected: "the scheduled status's parameters")
        let text = try parameters?.string("text") ?? ""
        let options = try parameters?.object("poll", expected: "a poll's parameters")?.array("options", expected: "the poll's options")?.count ?? 0
        return ScheduledPost(id: id, scheduledAt: MillisecondTime.date(fromMilliseconds: milliseconds), text: text, pollOptions: options)
    }
}
