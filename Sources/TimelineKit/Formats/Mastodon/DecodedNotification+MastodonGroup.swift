extension DecodedNotification {
    /// Reads one of Mastodon 4.3's notification groups (`GET /api/v2/notifications`'s
    /// `notification_groups`) as one notification: its newest notification's ID, its kind, when
    /// its newest notification on the page came, the first of its sample accounts as the one who
    /// acted, its status, and its key and count (`Alice and 12 others liked your post`).
    /// `statuses` are the page's statuses by ID, read into `timeline` when a group names one;
    /// the page's accounts are read by the caller.
    init(group view: JSONObjectView, statuses: [String: JSONObjectView], into timeline: inout DecodedTimeline) throws(JSONLineFailure) {
        let decoder = MastodonDecoder(overlongText: .cut, filterContext: "notifications")
        id = try view.requiredID("most_recent_notification_id")
        kind = NotificationKind(rawValue: try view.requiredString("type"))
        guard let created = try view.rfc3339Time("latest_page_notification_at") else { throw view.missing("latest_page_notification_at") }
        createdAt = created
        groupKey = try view.requiredString("group_key")
        // At least one: a group is made of its notifications (a count of 0 is the server's slip).
        groupCount = max(1, try view.count("notifications_count"))
        // The first sample account names the group; the others are only counted, so a server's
        // sample list (8 at most in Mastodon) adds nothing a page stores.
        if let first = try view.array("sample_account_ids", expected: "an array of account IDs")?.first {
            actorID = try first.requiredID(at: view.path("sample_account_ids") + "[0]")
        }
        if let statusID = try view.id("status_id") {
            guard let status = statuses[statusID] else { throw view.unexpected("status_id \(QuotedValue.quoted(statusID)) is not among the page's statuses") }
            let stored = try decoder.status(status, into: &timeline)
            messageID = stored
            if kind.isAboutOwnPost, var message = timeline.message(id: stored) {
                // Favourites and boosts are of the person's own posts, which they have read.
                message.isRead = true
                timeline.add(message)
            }
        }
    }
}
