extension DecodedNotification {
    /// Reads a Mastodon notification, adding its account and status to `timeline`.
    init(_ view: JSONObjectView, into timeline: inout DecodedTimeline) throws(JSONLineFailure) {
        let decoder = MastodonDecoder(overlongText: .cut, filterContext: "notifications")
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
