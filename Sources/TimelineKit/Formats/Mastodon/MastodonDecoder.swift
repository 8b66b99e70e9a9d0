#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes Mastodon API responses (Mastodon, and the Mastodon API of Pleroma, Akkoma, GoToSocial
/// and others) into users and messages.
///
/// ```swift
/// let timeline = try MastodonDecoder().decode(bytes, sourceName: "home.json")
/// try TimelineImporter(store: store).store(timeline, sourceName: "home.json")
/// ```
///
/// ## What it reads
///
/// - **Statuses**: an array (`GET /api/v1/timelines/home`, `…/public`, `…/tag/:hashtag`,
///   `…/list/:id`, `/api/v1/accounts/:id/statuses`, bookmarks, favourites), one status
///   (`GET /api/v1/statuses/:id`), a context (`{"ancestors": […], "descendants": […]}`), search
///   results (`{"accounts": […], "statuses": […]}`) and conversations (their `last_status`).
/// - **Accounts**: an array of accounts or one account (`/api/v1/accounts/search`,
///   followers) becomes users.
/// - **Notifications** (`GET /api/v1/notifications`): the statuses they carry are imported (a
///   mention, a boost or favourite of one's own post, a quote, a new post by someone followed, an
///   edit), with their authors; notifications that carry none (follows, reports, moderation) are
///   skipped. The notification itself is not a message: it has no text of its own.
/// - Several documents in one file, separated by whitespace (one page per line), are all read.
///
/// ## How a status maps to a message
///
/// The embedded `account` becomes a user: `acct` as the handle (`alice` on the same server,
/// `alice@example.social` elsewhere), `display_name` as the name (or `username` when it is
/// empty), `url`, `bot`. IDs are kept as strings whatever the server sends: digit strings, JSON
/// integers (Mastodon before 2.0; the exact digits), Pleroma and Akkoma's flake IDs
/// (`AQetOIEp6Z2GZ4UiI4`), GoToSocial's ULIDs, Mitra's UUIDs, Sharkey's aids. `content` goes
/// through `MastodonHTML`; `spoiler_text` becomes the content warning, through `MastodonHTML`
/// too (Mastodon 4.3 sends HTML in it); `in_reply_to_id`/`in_reply_to_account_id` the reply links; `edited_at`,
/// `favourites_count`, `reblogs_count` and `replies_count` are kept; each of
/// `media_attachments` becomes an `Attachment` (`type` as the kind, `unknown` for a type this
/// version does not know; `url`, else `remote_url`; `description` as the alt text); `url` (else
/// `uri`) is the message's address; `visibility` (`public`, `unlisted`, `private`, `direct`) is
/// kept, an unknown one (Pleroma's `local`, Akkoma's `list`) read as the nearest Mastodon knows
/// nothing of: left out, public as before.
///
/// A status's `filtered` results (Mastodon 4: the person's own filters it matched, each a
/// `FilterResult` with the `filter`'s `id`, `title`, `context` and `filter_action`) become the
/// message's ``ModerationFacts/filterMatches``, only those whose `context` holds `home` or the
/// context of the timeline the status was read from (``filterContext``: `home` for the home
/// timeline, a list and a file, `public` for a tag, `notifications`, `thread`). Mastodon applies
/// a filter only in the contexts it names; a message is stored once and hidden or not
/// everywhere, and the home timeline is what timeline paints at every start, so a filter of
/// `home` counts wherever the status was read (a thread read later does not unhide it), and a
/// filter of another context only for what was read there. A `filter_action` this version does not know, or none (servers before
/// Mastodon 4.0), is read as `warn`; a result without a filter title is left out.
///
/// A boost (`reblog`) becomes a repost: a message with the boost's own ID, author and time,
/// empty text and `repostOfID`, and the boosted status stored as a message of its own with its
/// author. A quote sets `quoteOfID` and stores the quoted status: Mastodon 4.4's
/// `quote: {"state": "accepted", "quoted_status": {…}}` (a quote in any other state — pending,
/// revoked, deleted — is not linked, as Mastodon does not show it), `quoted_status_id` when the
/// server sent only the ID, and the status embedded as `quote` with `quote_id` by Akkoma,
/// Pleroma and Fedibird.
///
/// Unknown fields and unknown values of known enumerations are ignored. A known field with the
/// wrong type is an error naming its JSON path (`[3].account.id`), line and column.
public struct MastodonDecoder: TimelineDecoder {
    /// What a status's text longer than timeline keeps becomes: an error (import), or cut with a
    /// mark (a server's answer: one post must not stop a sync).
    let overlongText: OverlongText
    /// The filter context of the timeline read (`home`, `notifications`, `public`, `thread`,
    /// `account`): a `filtered` result counts where its filter's `context` holds it or `home`.
    public let filterContext: String

    public init() {
        overlongText = .refuse
        filterContext = "home"
    }

    /// A decoder that handles over-long texts as `overlongText` says (`.cut` for what a
    /// server sends), for a timeline of the filter context `filterContext`.
    public init(overlongText: OverlongText, filterContext: String = "home") {
        self.overlongText = overlongText
        self.filterContext = filterContext
    }

    /// The users and messages of the Mastodon API JSON in `bytes` (UTF-8).
    ///
    /// - Throws: `ImportError` naming `sourceName`, the line, column and JSON path at fault.
    public func decode(_ bytes: [UInt8], sourceName: String = "<input>") throws(ImportError) -> DecodedTimeline {
        try decodeDocuments(bytes, sourceName: sourceName)
    }

    /// One document: an array of statuses, accounts or notifications, or one object.
    func decode(document: JSONNode, into timeline: inout DecodedTimeline) throws(JSONLineFailure) {
        if let elements = document.arrayValue {
            for (index, element) in elements.enumerated() {
                try decode(element: element, index: index, into: &timeline)
            }
            return
        }
        let object = try JSONObjectView(document, path: "", expected: "a Mastodon status, account or notification, or an array of them")
        if object.has("ancestors") || object.has("descendants") || object.has("statuses") || object.has("accounts") && !object.has("last_status") {
            // A status context, search results or grouped notifications: lists of statuses and accounts.
            for key in ["ancestors", "statuses", "descendants"] {
                for (index, element) in (try object.array(key, expected: "an array of statuses") ?? []).enumerated() {
                    let view = try JSONObjectView(element, path: "\(key)[\(index)]", expected: "a status object")
                    _ = try status(view, into: &timeline)
                }
            }
            for (index, element) in (try object.array("accounts", expected: "an array of accounts") ?? []).enumerated() {
                let view = try JSONObjectView(element, path: "accounts[\(index)]", expected: "an account object")
                timeline.add(try user(view))
            }
            return
        }
        try item(document, path: "", into: &timeline)
    }

    /// Element `index` of a document that is an array: a status, a notification, a
    /// conversation or an account.
    func decode(element: JSONNode, index: Int, into timeline: inout DecodedTimeline) throws(JSONLineFailure) {
        try item(element, path: "[\(index)]", into: &timeline)
    }

    /// A status, a notification, a conversation or an account.
    private func item(_ node: JSONNode, path: String, into timeline: inout DecodedTimeline) throws(JSONLineFailure) {
        let view = try JSONObjectView(node, path: path, expected: "a Mastodon status, account or notification (an object)")
        if view.has("type"), view.has("account") {
            // A notification. Unknown types are fine: only the status it may carry matters.
            if let carried = try view.object("status", expected: "a status object or null") {
                _ = try status(carried, into: &timeline)
            }
        } else if view.has("account") {
            _ = try status(view, into: &timeline)
        } else if view.has("last_status") {
            if let last = try view.object("last_status", expected: "a status object or null") {
                _ = try status(last, into: &timeline)
            }
        } else if view.has("acct") {
            timeline.add(try user(view))
        } else {
            throw view.unexpected(Self.notMastodon(view))
        }
    }

    /// Why an object is refused, with a hint when it is recognisably something else.
    static func notMastodon(_ view: JSONObjectView) -> String {
        var text = "this is not a Mastodon status, account or notification (it has no `account` and no `acct` field)"
        if view.has("user") || view.has("id_str") || view.has("tweet") || view.has("author_id") {
            text += "; it looks like a tweet: import it with --format twitter"
        } else if let type = view.field("type")?.stringValue, type == "user" || type == "message" {
            text += "; it looks like a JSON Lines record: import it with --format jsonl"
        }
        return text
    }

    /// Decodes a status and what it embeds into `timeline`; returns its ID.
    @discardableResult
    func status(_ view: JSONObjectView, into timeline: inout DecodedTimeline) throws(JSONLineFailure) -> String {
        guard let account = try view.object("account", expected: "an account object") else { throw view.missing("account") }
        let author = try user(account)
        let id = try view.requiredID("id")
        guard let created = try view.rfc3339Time("created_at") else { throw view.missing("created_at") }
        let createdAt = MillisecondTime.date(fromMilliseconds: created)
        var url = try view.string("url")
        if url == nil { url = try view.string("uri") }

        if let reblog = try view.object("reblog", expected: "a status object or null") {
            let originalID = try status(reblog, into: &timeline)
            timeline.add(author)
            timeline.add(Message(
                id: id, authorID: author.id, text: "", createdAt: createdAt, repostOfID: originalID, url: url,
                likeCount: try view.count("favourites_count"), repostCount: try view.count("reblogs_count"),
                replyCount: try view.count("replies_count"),
                visibility: (try? view.string("visibility")).flatMap { $0.flatMap(PostVisibility.init(rawValue:)) },
                source: .mastodon))
            return id
        }
        try interaction(of: view, id: id, into: &timeline)

        let quoteOfID = try quote(of: view, into: &timeline)
        // Mastodon 4.3 sends HTML in `spoiler_text` (entities, markup); plain text passes
        // through unchanged (a `<` that starts no tag, `<3`, is text).
        let spoiler = try view.string("spoiler_text").map(MastodonHTML.plainText)
        let (text, links) = try textAndLinks(of: view)
        let message = Message(
            id: id,
            authorID: author.id,
            text: text,
            createdAt: createdAt,
            editedAt: try view.rfc3339Time("edited_at").map(MillisecondTime.date(fromMilliseconds:)),
            replyToID: try view.id("in_reply_to_id"),
            replyToUserID: try view.id("in_reply_to_account_id"),
            quoteOfID: quoteOfID,
            contentWarning: spoiler?.isEmpty == false ? spoiler : nil,
            url: url,
            attachments: try attachments(of: view),
            likeCount: try view.count("favourites_count"),
            repostCount: try view.count("reblogs_count"),
            replyCount: try view.count("replies_count"),
            // An audience this library does not know (Pleroma's `local`) is left unknown: painted
            // as public, the widest, never as more private than it is.
            visibility: (try? view.string("visibility")).flatMap { $0.flatMap(PostVisibility.init(rawValue:)) },
            moderation: ModerationFacts(filterMatches: try filterMatches(of: view)),
            source: .mastodon,
            links: links)
        timeline.add(author)
        timeline.add(message)
        return id
    }

    /// The most `filtered` results read of one status: a status matches a filter once, and a
    /// person has tens of filters; a server sending more is not believed further.
    static let maximumFilterResults = 100

    /// The person's filters a status matched (`filtered`), in this decoder's context.
    private func filterMatches(of view: JSONObjectView) throws(JSONLineFailure) -> [FilterMatch] {
        guard let results = try view.array("filtered", expected: "an array of filter results") else { return [] }
        var matches: [FilterMatch] = []
        for (index, element) in results.prefix(Self.maximumFilterResults).enumerated() {
            let result = try JSONObjectView(element, path: view.path("filtered[\(index)]"), expected: "a filter result object")
            guard let filter = try result.object("filter", expected: "a filter object"),
                  let title = try filter.string("title") else { continue }
            let contexts = try filter.array("context", expected: "an array of filter contexts") ?? []
            guard contexts.contains(where: { $0.stringValue == filterContext || $0.stringValue == "home" }) else { continue }
            let action = try filter.string("filter_action").map { FilterAction(rawValue: $0) ?? .warn } ?? .warn
            matches.append(FilterMatch(title: String(title.prefix(MutedWord.maximumTitleLength)), action: action,
                                       filterID: try filter.id("id")))
        }
        return matches
    }

    /// The token's `favourited`, `reblogged` and `bookmarked` of a status, where the server
    /// sent them (a status fetched with a token; a file saved from elsewhere has none).
    private func interaction(of view: JSONObjectView, id: String, into timeline: inout DecodedTimeline) throws(JSONLineFailure) {
        let favourited = try view.bool("favourited"), reblogged = try view.bool("reblogged"), bookmarked = try view.bool("bookmarked")
        guard favourited != nil || reblogged != nil || bookmarked != nil else { return }
        timeline.add(MessageInteraction(messageID: id, favourited: favourited ?? false, boosted: reblogged ?? false,
                                        bookmarked: bookmarked ?? false))
    }

    /// A status's text: its content as plain text, then its poll. Within the limits, or cut
    /// with a mark when `overlongText` says so (the HTML first, then the text). With it, the
    /// links of its anchors (issue 37), which the text may not spell out.
    private func textAndLinks(of view: JSONObjectView) throws(JSONLineFailure) -> (String, [String]) {
        let html = try view.string("content") ?? ""
        let limit = MastodonHTML.maximumContentBytes
        let content = try overlongText.apply(html, limit: limit) { () throws(JSONLineFailure) in
            try view.checkedText(html, key: "content", limit: limit)
        }
        let (plain, links) = MastodonHTML.textAndLinks(content)
        let text = plain + (try pollText(of: view))
        return (try overlongText.apply(text, limit: MessageText.maximumBytes) { () throws(JSONLineFailure) in
            try view.checkedText(text, key: "content")
        }, links)
    }

    /// The ID of the status `view` quotes, storing the quoted status when it is embedded.
    private func quote(of view: JSONObjectView, into timeline: inout DecodedTimeline) throws(JSONLineFailure) -> String? {
        if let quote = try view.object("quote", expected: "a quote object, a status or null") {
            if quote.has("account") {
                // Akkoma, Pleroma and Fedibird embed the quoted status itself.
                return try status(quote, into: &timeline)
            }
            // Mastodon 4.4+: a Quote (with the status) or a ShallowQuote (with its ID only).
            let state = try quote.string("state")
            guard state == nil || state == "accepted" else { return nil }
            if let quoted = try quote.object("quoted_status", expected: "a status object or null") {
                return try status(quoted, into: &timeline)
            }
            if let quotedID = try quote.id("quoted_status_id") { return quotedID }
        }
        return try view.id("quote_id")
    }

    private static let knownMediaKinds: Set<String> = ["image", "gifv", "video", "audio"]

    /// A poll as lines under the status's text: its options with their votes, so the terminal
    /// shows what was asked and how it stands. The lines are part of the stored text (a message
    /// has no poll of its own): the counts are those of the last fetch, and a sync or a
    /// `status.update` that brings the status again brings them up to date, as for any edit.
    ///
    /// ```
    /// Poll, 123 votes, closed:
    /// - Tabs: 60 (49%)
    /// - Spaces: 63 (51%)
    /// ```
    private func pollText(of view: JSONObjectView) throws(JSONLineFailure) -> String {
        guard let poll = try view.object("poll", expected: "a poll object or null"),
              let options = try poll.array("options", expected: "an array of poll options"), !options.isEmpty else { return "" }
        let votes = try poll.count("votes_count")
        let closed = try poll.bool("expired") ?? false
        var text = "\n\nPoll, \(votes) vote\(votes == 1 ? "" : "s"), \(closed ? "closed" : "open"):"
        for (index, element) in options.enumerated() {
            let option = try JSONObjectView(element, path: poll.path("options[\(index)]"), expected: "a poll option object")
            let title = MastodonHTML.plainText(try option.string("title") ?? "")
            text += "\n- " + title
            // `null` while the results are hidden (until the poll ends, when its author asked).
            if option.field("votes_count") != nil {
                let count = try option.count("votes_count")
                text += ": \(count)"
                if votes > 0 { text += " (\(Int.percentage(count, of: votes))%)" }
            }
        }
        return text
    }

    private func attachments(of view: JSONObjectView) throws(JSONLineFailure) -> [Attachment] {
        guard let elements = try view.array("media_attachments", expected: "an array of media attachments") else { return [] }
        var result: [Attachment] = []
        for (index, element) in elements.enumerated() {
            let media = try JSONObjectView(element, path: view.path("media_attachments[\(index)]"), expected: "a media attachment object")
            let type = try media.string("type") ?? "unknown"
            let description = try media.string("description")
            var url = try media.string("url")
            if url == nil { url = try media.string("remote_url") }
            result.append(Attachment(
                kind: Self.knownMediaKinds.contains(type) ? type : "unknown",
                url: url,
                altText: description?.isEmpty == false ? description : nil))
        }
        return result
    }

    /// The user an account object describes.
    func user(_ account: JSONObjectView) throws(JSONLineFailure) -> User {
        let id = try account.requiredID("id")
        let username = try account.string("username")
        guard let handle = try account.string("acct") ?? username, !handle.isEmpty else { throw account.missing("acct") }
        let displayName = try account.string("display_name")
        return User(
            id: id,
            handle: handle,
            name: displayName?.isEmpty == false ? displayName! : (username ?? handle),
            url: try account.string("url"),
            isBot: try account.bool("bot") ?? false)
    }
}
