/// Reads one notification of `app.bsky.notification.listNotifications` into the form every
/// synced notification is stored in (`DecodedNotification`), adding who acted, and the post
/// when the notification is one (a mention, a reply, a quote), to the timeline.
///
/// Bluesky's reasons become the kinds `show --notifications` says: `like` → `favourite`,
/// `repost` → `reblog`, `follow`, `mention`, `reply`, `quote`; others (`like-via-repost`,
/// `starterpack-joined`, `verified`, …) keep their name and are said generally. A like or a
/// repost names the post in `reasonSubject`, which the answer does not carry: the sync fetches
/// the ones it does not hold (`app.bsky.feed.getPosts`).
enum BlueskyNotification {
    /// Kinds whose post is the notification's own record.
    private static let carriesPost: Set<String> = ["mention", "reply", "quote", "subscribed-post"]

    static func kind(of reason: String) -> NotificationKind {
        switch reason {
        case "like": .favourite
        case "repost": .reblog
        case "follow": .follow
        case "mention": .mention
        case "reply": .reply
        case "quote": .quote
        case "subscribed-post": .status
        default: NotificationKind(rawValue: reason)
        }
    }

    /// The ID ``decode(_:into:decoder:)`` gives `view` (its AT URI), read without decoding it;
    /// `nil` when it has none that `decode` would take.
    static func entryID(_ view: JSONObjectView) -> String? {
        guard let uri = try? view.requiredString("uri"), ATURI(uri) != nil else { return nil }
        return uri
    }

    /// Decodes `view` into `timeline`; see the type's comment.
    static func decode(
        _ view: JSONObjectView, into timeline: inout DecodedTimeline, decoder: BlueskyDecoder = BlueskyDecoder()
    ) throws(JSONLineFailure) -> DecodedNotification {
        let uri = try view.requiredString("uri")
        // Stored as the notification's ID in the account's ledger: an AT URI, nothing else.
        guard ATURI(uri) != nil else { throw view.unexpected("`uri` is not an at:// URI: \(QuotedValue.quoted(uri))") }
        let reason = try view.requiredString("reason")
        guard let indexed = try view.rfc3339Time("indexedAt") else { throw view.missing("indexedAt") }
        guard let authorView = try view.object("author", expected: "a profile object") else { throw view.missing("author") }
        let actor = try decoder.user(authorView)
        timeline.add(actor)
        var messageID: String?
        if carriesPost.contains(reason), let record = try view.object("record", expected: "a post record object") {
            messageID = try decoder.post(view, record: record, embed: nil, into: &timeline)
        } else if let subject = try view.string("reasonSubject"), ATURI(subject)?.collection == "app.bsky.feed.post" {
            messageID = subject
        }
        return DecodedNotification(id: uri, kind: kind(of: reason), createdAt: indexed, actorID: actor.id, messageID: messageID)
    }
}
