#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes Twitter API responses into users and messages.
///
/// ```swift
/// let timeline = try TwitterDecoder().decode(bytes, sourceName: "home.json")
/// try TimelineImporter(store: store).store(timeline, sourceName: "home.json")
/// ```
///
/// ## What it reads
///
/// - **v1.1**: an array of tweets with their `user` embedded (`statuses/home_timeline.json`,
///   `user_timeline.json`, `lists/statuses.json`; with `tweet_mode=extended` for whole texts), one
///   tweet (`statuses/show.json`), or search results (`{"statuses": […]}`). Old minimal tweets
///   with only `created_at`, `text`, `id` and `user` import too.
/// - **v2**: pages of `GET /2/users/:id/timelines/reverse_chronological`, `/2/tweets/search/…`
///   and friends: `data` (an array, or one tweet), `includes.users`, `includes.tweets`,
///   `includes.media`. Request `expansions=author_id,referenced_tweets.id,referenced_tweets.id.author_id,attachments.media_keys`
///   and `tweet.fields=created_at,public_metrics,referenced_tweets,in_reply_to_user_id,attachments`.
///   Collectors save one page per line: every document in the file is read.
/// - **Archive**: `tweets.js` from a Twitter archive (`window.YTD.tweets.part0 = [{"tweet": {…}}]`).
///   Archive tweets name no author; set `archiveOwner` (the importer reads it from the
///   archive's `account.js` beside `tweets.js`).
///
/// ## How a tweet maps to a message
///
/// v1.1: `id_str` (else `id`, its exact digits) is the ID; `full_text` (extended mode, or
/// `extended_tweet.full_text` from streaming) else `text` is the text, with its character
/// references (`&amp;`, `&lt;`, `&gt;`) decoded; `created_at` in Twitter's form
/// `Wed Oct 10 20:19:24 +0000 2018`; `in_reply_to_status_id_str`, `in_reply_to_user_id_str`;
/// `favorite_count`, `retweet_count` and `reply_count` when present; the media of
/// `extended_entities` (else `entities`) as attachments (`photo` is an image, `animated_gif` a
/// gifv) with `ext_alt_text`. The `user` becomes a user: `id_str`, `screen_name` as the handle,
/// `name`, and `https://twitter.com/<screen_name>` as its address.
///
/// v2: `id`, `text` (or `note_tweet.text` for long posts), `author_id` (looked up in
/// `includes.users`), `created_at` (RFC 3339), `in_reply_to_user_id`, `public_metrics`,
/// `attachments.media_keys` (looked up in `includes.media`), and `referenced_tweets`:
/// `replied_to` is the reply link, `quoted` the quote, `retweeted` makes a repost.
///
/// A retweet (`retweeted_status`, or a v2 `retweeted` reference) becomes a repost: the retweet's
/// own ID, author and time, empty text, `repostOfID`, and the original stored as a message of its
/// own with its author (in v2, when `includes` holds it and its author). A quoted tweet
/// (`quoted_status`, or a v2 `quoted` reference found in `includes.tweets`) is stored too.
/// Unknown fields are ignored; a known field with the wrong type is an error naming its JSON
/// path, line and column.
public struct TwitterDecoder: TimelineDecoder {
    /// The author of tweets that carry no `user`, as in a Twitter archive's `tweets.js`.
    public var archiveOwner: User?

    public init(archiveOwner: User? = nil) {
        self.archiveOwner = archiveOwner
    }

    /// The users and messages of the Twitter API JSON in `bytes` (UTF-8).
    ///
    /// - Throws: `ImportError` naming `sourceName`, the line, column and JSON path at fault.
    public func decode(_ bytes: [UInt8], sourceName: String = "<input>") throws(ImportError) -> DecodedTimeline {
        try decodeDocuments(bytes, sourceName: sourceName)
    }

    func decode(document: JSONNode, into timeline: inout DecodedTimeline) throws(JSONLineFailure) {
        if let elements = document.arrayValue {
            for (index, element) in elements.enumerated() {
                try decode(element: element, index: index, into: &timeline)
            }
            return
        }
        let object = try JSONObjectView(document, path: "", expected: "a tweet, a v2 page or an array of tweets")
        if object.has("data") || object.has("includes") || object.has("meta") {
            try page(object, into: &timeline)
        } else if let statuses = try object.array("statuses", expected: "an array of tweets") {
            for (index, element) in statuses.enumerated() {
                try tweet(try JSONObjectView(element, path: "statuses[\(index)]", expected: "a tweet object"), into: &timeline)
            }
        } else if let errors = try object.array("errors", expected: "an array of errors") {
            let message = errors.first.flatMap { $0["message"]?.stringValue ?? $0["detail"]?.stringValue } ?? "no message"
            throw object.unexpected("this is an error response from the Twitter API, not tweets: \(QuotedValue.quoted(message))")
        } else {
            try checkIsTweet(object)
            try tweet(object, into: &timeline)
        }
    }

    /// Element `index` of a document that is an array: a tweet, or an archive's `{"tweet": …}`.
    func decode(element: JSONNode, index: Int, into timeline: inout DecodedTimeline) throws(JSONLineFailure) {
        let view = try JSONObjectView(element, path: "[\(index)]", expected: "a tweet object")
        if let archived = try view.object("tweet", expected: "a tweet object") {
            try tweet(archived, into: &timeline)
        } else {
            try checkIsTweet(view)
            try tweet(view, into: &timeline)
        }
    }

    /// Refuses an object that is not a tweet, with a hint when it is recognisably something else.
    private func checkIsTweet(_ view: JSONObjectView) throws(JSONLineFailure) {
        guard !view.has("id_str"), !view.has("text"), !view.has("full_text") else { return }
        var text = "this is not a tweet (it has no `id_str`, `text` or `full_text` field)"
        if view.has("account") || view.has("acct") || view.has("content") {
            text += "; it looks like Mastodon: import it with --format mastodon"
        } else if let type = view.field("type")?.stringValue, type == "user" || type == "message" {
            text += "; it looks like a JSON Lines record: import it with --format jsonl"
        }
        throw view.unexpected(text)
    }

    // MARK: v1.1

    /// Decodes a v1.1 tweet and what it embeds into `timeline`; returns its ID.
    @discardableResult
    func tweet(_ view: JSONObjectView, into timeline: inout DecodedTimeline) throws(JSONLineFailure) -> String {
        var id = try view.id("id_str")
        if id == nil { id = try view.requiredID("id") }
        let author: User
        if let userView = try view.object("user", expected: "a user object") {
            author = try user(userView)
        } else if let archiveOwner {
            author = archiveOwner
        } else {
            throw view.unexpected("the tweet has no `user`, so its author is unknown (a Twitter archive's tweets.js names none: "
                + "import it from the archive's data directory, where account.js names the owner)")
        }
        guard let created = try view.time("created_at", expected: "a time like \"Wed Oct 10 20:19:24 +0000 2018\"", Self.parseTime) else {
            throw view.missing("created_at")
        }
        let createdAt = MillisecondTime.date(fromMilliseconds: created)
        let messageID = id ?? ""
        let url = "https://twitter.com/\(author.handle)/status/\(messageID)"

        if let retweeted = try view.object("retweeted_status", expected: "a tweet object or null") {
            let originalID = try tweet(retweeted, into: &timeline)
            timeline.add(author)
            timeline.add(Message(
                id: messageID, authorID: author.id, text: "", createdAt: createdAt, repostOfID: originalID, url: url,
                likeCount: try view.count("favorite_count"), repostCount: try view.count("retweet_count"),
                replyCount: try view.count("reply_count")))
            return messageID
        }

        var quoteOfID: String?
        if let quoted = try view.object("quoted_status", expected: "a tweet object or null") {
            quoteOfID = try tweet(quoted, into: &timeline)
        } else {
            quoteOfID = try view.id("quoted_status_id_str")
            if quoteOfID == nil { quoteOfID = try view.id("quoted_status_id") }
        }
        var replyToID = try view.id("in_reply_to_status_id_str")
        if replyToID == nil { replyToID = try view.id("in_reply_to_status_id") }
        var replyToUserID = try view.id("in_reply_to_user_id_str")
        if replyToUserID == nil { replyToUserID = try view.id("in_reply_to_user_id") }

        let extended = try view.object("extended_tweet", expected: "an object or null")
        var textKey = "text"
        var text = try extended?.string("full_text")
        if text != nil {
            textKey = "extended_tweet.full_text"
        } else if let full = try view.string("full_text") {
            text = full
            textKey = "full_text"
        } else {
            text = try view.string("text")
        }
        var media = try extended?.object("extended_entities", expected: "an object or null")
        if media == nil { media = try view.object("extended_entities", expected: "an object or null") }
        if media == nil { media = try view.object("entities", expected: "an object or null") }

        let message = Message(
            id: messageID,
            authorID: author.id,
            text: try view.checkedText(HTMLEntities.decode(text ?? ""), key: textKey),
            createdAt: createdAt,
            replyToID: replyToID,
            replyToUserID: replyToUserID,
            quoteOfID: quoteOfID,
            url: url,
            attachments: try media.map(attachments(of:)) ?? [],
            likeCount: try view.count("favorite_count"),
            repostCount: try view.count("retweet_count"),
            replyCount: try view.count("reply_count"))
        timeline.add(author)
        timeline.add(message)
        return messageID
    }

    /// v1.1 times are Twitter's own form; RFC 3339 is accepted too (some tools rewrite them).
    static func parseTime(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<Int64, RFC3339Time.Invalid> {
        let twitter = TwitterTime.milliseconds(parsing: String(decoding: bytes, as: UTF8.self))
        if case .success = twitter { return twitter }
        if case let .success(milliseconds) = RFC3339Time.parse(bytes) { return .success(milliseconds) }
        return twitter
    }

    private func attachments(of entities: JSONObjectView) throws(JSONLineFailure) -> [Attachment] {
        guard let elements = try entities.array("media", expected: "an array of media") else { return [] }
        var result: [Attachment] = []
        for (index, element) in elements.enumerated() {
            let media = try JSONObjectView(element, path: entities.path("media[\(index)]"), expected: "a media object")
            var url = try media.string("media_url_https")
            if url == nil { url = try media.string("media_url") }
            result.append(Attachment(kind: Self.kind(try media.string("type")), url: url, altText: try media.string("ext_alt_text")))
        }
        return result
    }

    /// Twitter's media types in Mastodon's names, which `Attachment.kind` uses.
    static func kind(_ type: String?) -> String {
        switch type {
        case "photo": "image"
        case "video": "video"
        case "animated_gif": "gifv"
        default: "unknown"
        }
    }

    /// The user a v1.1 user object describes.
    func user(_ view: JSONObjectView) throws(JSONLineFailure) -> User {
        var id = try view.id("id_str")
        if id == nil { id = try view.requiredID("id") }
        let handle = try view.requiredString("screen_name")
        let name = try view.string("name")
        return User(id: id ?? "", handle: handle, name: name?.isEmpty == false ? name! : handle,
                    url: "https://twitter.com/\(handle)")
    }

    // MARK: v2

    /// One v2 response page.
    private func page(_ object: JSONObjectView, into timeline: inout DecodedTimeline) throws(JSONLineFailure) {
        let includes = try object.object("includes", expected: "an object or null")
        var users: [String: User] = [:]
        for (index, element) in (try includes?.array("users", expected: "an array of users") ?? []).enumerated() {
            let view = try JSONObjectView(element, path: "includes.users[\(index)]", expected: "a user object")
            let handle = try view.requiredString("username")
            let name = try view.string("name")
            let user = User(id: try view.requiredID("id"), handle: handle, name: name?.isEmpty == false ? name! : handle,
                            url: "https://twitter.com/\(handle)")
            users[user.id] = user
        }
        var media: [String: Attachment] = [:]
        for (index, element) in (try includes?.array("media", expected: "an array of media") ?? []).enumerated() {
            let view = try JSONObjectView(element, path: "includes.media[\(index)]", expected: "a media object")
            var url = try view.string("url")
            if url == nil { url = try view.string("preview_image_url") }
            media[try view.requiredString("media_key")] =
                Attachment(kind: Self.kind(try view.string("type")), url: url, altText: try view.string("alt_text"))
        }
        var included: [String: JSONObjectView] = [:]
        for (index, element) in (try includes?.array("tweets", expected: "an array of tweets") ?? []).enumerated() {
            let view = try JSONObjectView(element, path: "includes.tweets[\(index)]", expected: "a tweet object")
            included[try view.requiredID("id")] = view
        }
        let context = PageContext(users: users, media: media, included: included)

        guard let data = object.field("data") else { return }
        if let elements = data.arrayValue {
            for (index, element) in elements.enumerated() {
                let view = try JSONObjectView(element, path: "data[\(index)]", expected: "a tweet object")
                try v2Tweet(view, context: context, into: &timeline)
            }
        } else {
            try v2Tweet(try JSONObjectView(data, path: "data", expected: "a tweet object or an array of them"), context: context, into: &timeline)
        }
    }

    private struct PageContext {
        var users: [String: User]
        var media: [String: Attachment]
        var included: [String: JSONObjectView]
    }

    /// Decodes a v2 tweet; returns its ID.
    @discardableResult
    private func v2Tweet(
        _ view: JSONObjectView, context: PageContext, isIncluded: Bool = false, into timeline: inout DecodedTimeline
    ) throws(JSONLineFailure) -> String {
        let id = try view.requiredID("id")
        let authorID = try view.requiredID("author_id")
        guard let author = context.users[authorID] else {
            throw JSONLineFailure(offset: view.field("author_id")?.offset, field: view.path("author_id"), problem: .unexpectedContent(
                "the author \(QuotedValue.quoted(authorID)) is not in `includes.users`; request the page with expansions=author_id"))
        }
        guard let created = try view.rfc3339Time("created_at") else { throw view.missing("created_at") }
        let createdAt = MillisecondTime.date(fromMilliseconds: created)
        let url = "https://twitter.com/\(author.handle)/status/\(id)"

        var replyToID: String?
        var quoteOfID: String?
        var repostOfID: String?
        for (index, element) in (try view.array("referenced_tweets", expected: "an array of references") ?? []).enumerated() {
            let reference = try JSONObjectView(element, path: view.path("referenced_tweets[\(index)]"), expected: "a reference object")
            let referencedID = try reference.requiredID("id")
            switch try reference.string("type") {
            case "replied_to": replyToID = referencedID
            case "quoted": quoteOfID = referencedID
            case "retweeted": repostOfID = referencedID
            default: continue  // unknown kinds of reference are ignored
            }
            // A retweeted or quoted tweet is stored when the page includes it and its author. Only
            // one level: included tweets referring to each other must not recurse without end.
            if !isIncluded, repostOfID == referencedID || quoteOfID == referencedID, let original = context.included[referencedID],
               let originalAuthor = try original.id("author_id"), context.users[originalAuthor] != nil {
                try v2Tweet(original, context: context, isIncluded: true, into: &timeline)
            }
        }
        let metrics = try view.object("public_metrics", expected: "an object or null")
        if let repostOfID {
            timeline.add(author)
            timeline.add(Message(id: id, authorID: author.id, text: "", createdAt: createdAt, repostOfID: repostOfID, url: url,
                                 likeCount: try metrics?.count("like_count") ?? 0,
                                 repostCount: try metrics?.count("retweet_count") ?? 0,
                                 replyCount: try metrics?.count("reply_count") ?? 0))
            return id
        }
        let note = try view.object("note_tweet", expected: "an object or null")
        var text = try note?.string("text")
        let textKey = text == nil ? "text" : "note_tweet.text"
        if text == nil { text = try view.string("text") }
        var attachments: [Attachment] = []
        if let attachmentsView = try view.object("attachments", expected: "an object or null") {
            for (index, key) in (try attachmentsView.array("media_keys", expected: "an array of media keys") ?? []).enumerated() {
                guard let mediaKey = key.stringValue else {
                    throw JSONLineFailure(offset: key.offset, field: attachmentsView.path("media_keys[\(index)]"),
                                          problem: .wrongType(expected: "a string", found: key.found))
                }
                attachments.append(context.media[mediaKey] ?? Attachment(kind: "unknown"))
            }
        }
        timeline.add(author)
        timeline.add(Message(
            id: id,
            authorID: author.id,
            text: try view.checkedText(HTMLEntities.decode(text ?? ""), key: textKey),
            createdAt: createdAt,
            replyToID: replyToID,
            replyToUserID: try view.id("in_reply_to_user_id"),
            quoteOfID: quoteOfID,
            url: url,
            attachments: attachments,
            likeCount: try metrics?.count("like_count") ?? 0,
            repostCount: try metrics?.count("retweet_count") ?? 0,
            replyCount: try metrics?.count("reply_count") ?? 0))
        return id
    }
}
