/// A page of Mastodon 4.3's grouped notifications.
extension FetchedPage {
    /// The most accounts and statuses of one `GET /api/v2/notifications` answer read: a page of
    /// `limit` groups names at most 8 sample accounts and one status each, so a server that
    /// sends more cannot make a page cost more than a page of the v1 list could.
    static let groupedPageObjectsRead = 8 * 80

    /// A page of `GET /api/v2/notifications` (`{accounts, statuses, notification_groups}`): each
    /// group one entry under its newest notification's ID, with its key and count, its first
    /// sample account as the one who acted, its status stored as a message. Only the first
    /// `limit` groups are read, as a v1 page's first `limit` notifications are; a group that
    /// cannot be read is left out and counted, as a v1 notification is.
    static func groupedNotifications(
        _ response: HTTPResponse, from url: String, namespace: MastodonNamespace, limit: Int = .max
    ) throws(ServerError) -> FetchedPage {
        let body = try ServerResponseReader.body(of: response, from: url)
        let (notifications, timeline, skipped, answered, lastPageMinID) = try ServerResponseReader.read(body: body, from: url) {
            document throws(JSONLineFailure) in
            let page = try JSONObjectView(document, path: "", expected: "a grouped notifications object")
            guard let groups = try page.array("notification_groups", expected: "an array of notification groups") else {
                throw page.missing("notification_groups")
            }
            let decoder = MastodonDecoder(overlongText: .cut, filterContext: "notifications")
            var timeline = DecodedTimeline()
            var skipped = PageSkips()
            for (index, account) in (try page.array("accounts", expected: "an array of accounts") ?? []).prefix(groupedPageObjectsRead).enumerated() {
                do throws(JSONLineFailure) {
                    timeline.add(try decoder.user(try JSONObjectView(account, path: "accounts[\(index)]", expected: "an account object")))
                } catch {
                    skipped.add(url: url, problem: ServerResponseReader.problem(error, in: body))
                }
            }
            var statuses: [String: JSONObjectView] = [:]
            for (index, status) in (try page.array("statuses", expected: "an array of statuses") ?? []).prefix(groupedPageObjectsRead).enumerated() {
                let view = try JSONObjectView(status, path: "statuses[\(index)]", expected: "a status object")
                if let id = try view.id("id") { statuses[id] = view }
            }
            var notifications: [DecodedNotification] = []
            var lastPageMinID: String?
            for (index, element) in groups.prefix(limit).enumerated() {
                var entry = DecodedTimeline()
                do throws(JSONLineFailure) {
                    let view = try JSONObjectView(element, path: "notification_groups[\(index)]", expected: "a notification group object")
                    notifications.append(try DecodedNotification(group: view, statuses: statuses, into: &entry))
                    timeline.add(contentsOf: entry)
                    lastPageMinID = try view.id("page_min_id") ?? notifications.last?.id
                } catch {
                    skipped.add(url: url, problem: ServerResponseReader.problem(error, in: body))
                }
            }
            return (notifications, timeline, skipped, groups.count, lastPageMinID)
        }
        let ids = notifications.map(\.id)
        // The next page starts below the oldest notification of the last group read (its
        // `page_min_id`), not below its newest: the rest of that group is on this page.
        return FetchedPage(entryIDs: ids, timeline: namespace.apply(to: timeline),
                           notifications: notifications.map { $0.namespaced(namespace) },
                           olderCursor: answered > limit ? lastPageMinID : olderCursor(response, url: url, lastEntry: lastPageMinID),
                           skipped: skipped, answered: answered)
    }
}
