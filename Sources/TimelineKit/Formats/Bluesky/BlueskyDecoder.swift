/// Reads the JSON of Bluesky's AppView (`app.bsky.*` answers) into users and messages: the feed
/// items of `app.bsky.feed.getTimeline` (and `getAuthorFeed`, `getListFeed`), the posts of
/// `getPosts`, and the posts that notifications carry.
///
/// - A post is stored under its AT URI (`at://did:plc:…/app.bsky.feed.post/3k…`), its author
///   under the DID (see `ATURI`): global IDs, so a post seen by two accounts is one message.
/// - A feed item with `reason` `#reasonRepost` is a repost by the reason's `by`, stored under
///   the repost record's URI (or, from an AppView that omits it, the post's URI and the
///   reposter's DID), at the time the repost was indexed. `#reasonPin` and unknown reasons are
///   ignored: the item is the post.
/// - Replies keep their parent (`replyToID`, and its author from the parent's URI); the
///   parent and root that the item carries are stored too, so `timeline thread` finds them.
/// - Quotes (`app.bsky.embed.record#view`, `recordWithMedia#view`) become `quoteOfID`, with the
///   quoted post stored when the answer holds it (not when it is missing, blocked or detached).
/// - Images and videos become attachments with their alt text; a link card's URL is added to
///   the text when the text does not hold it; facets are written out (`BlueskyFacets`).
/// - A post's time is the earlier of its `createdAt` and `indexedAt`, as Bluesky's own
///   timeline orders it: an author's clock (or a post dated next year) cannot pin a post above
///   the others. A `createdAt` that is not a valid time falls back to `indexedAt`.
/// - Moderation labels become the message's ``ModerationFacts/labels``, for the person's rules
///   to decide on (``LabelPreferences``): the post view's `labels` (a labeler's, and the
///   author's self-labels the AppView repeats), the record's self-labels (`labels.values`,
///   from the author), and the author's account labels (those of the profile record,
///   `…/app.bsky.actor.profile/self`, are about the profile, not the posts, and are left out,
///   as `moderatePost` leaves them out of a post's decision). A label with `neg: true` takes
///   back the same label from the same labeler. Labels are not a content warning: a post has
///   none of its own.
/// - The web URL of a post is `https://bsky.app/profile/HANDLE/post/RKEY` (the DID when the
///   handle is not valid), as the Bluesky app copies it.
///
/// What the server decides (URIs, DIDs, handles) is required, and an answer without it is an
/// error naming the field; what an author wrote (the record's text, facets, dates, embeds) is
/// read leniently, since a stranger's record must not stop a sync.
public struct BlueskyDecoder: TimelineDecoder {
    /// What a post's text longer than timeline keeps (facets written out) becomes: an error
    /// (import), or cut with a mark (a server's answer: one post must not stop a sync).
    let overlongText: OverlongText

    public init() {
        overlongText = .refuse
    }

    /// A decoder that handles over-long texts as `overlongText` says (`.cut` for what a
    /// server sends).
    public init(overlongText: OverlongText) {
        self.overlongText = overlongText
    }

    /// The users and messages of a saved Bluesky answer in `bytes` (UTF-8): a page of a feed
    /// (`{"feed": […]}`), of posts (`{"posts": […]}`) or of notifications
    /// (`{"notifications": […]}`).
    ///
    /// - Throws: `ImportError` naming `sourceName`, the line, column and JSON path at fault.
    public func decode(_ bytes: [UInt8], sourceName: String = "<input>") throws(ImportError) -> DecodedTimeline {
        try decodeDocuments(bytes, sourceName: sourceName)
    }

    func decode(document: JSONNode, into timeline: inout DecodedTimeline) throws(JSONLineFailure) {
        let object = try JSONObjectView(document, path: "", expected: "a Bluesky answer (an object with `feed`, `posts` or `notifications`)")
        if let items = try object.array("feed", expected: "an array of feed items") {
            for (index, item) in items.enumerated() {
                _ = try feedItem(try JSONObjectView(item, path: "feed[\(index)]", expected: "a feed item object"), into: &timeline)
            }
        } else if let posts = try object.array("posts", expected: "an array of post views") {
            for (index, post) in posts.enumerated() {
                _ = try postView(try JSONObjectView(post, path: "posts[\(index)]", expected: "a post view object"), into: &timeline)
            }
        } else if let notifications = try object.array("notifications", expected: "an array of notifications") {
            for (index, element) in notifications.enumerated() {
                _ = try BlueskyNotification.decode(
                    try JSONObjectView(element, path: "notifications[\(index)]", expected: "a notification object"),
                    into: &timeline, decoder: self)
            }
        } else {
            throw object.unexpected("this is not a Bluesky feed, posts or notifications answer (it has no `feed`, `posts` or `notifications` array)")
        }
    }

    /// Element `index` of a document that is an array: a feed item (a `feed` saved on its own).
    func decode(element: JSONNode, index: Int, into timeline: inout DecodedTimeline) throws(JSONLineFailure) {
        _ = try feedItem(try JSONObjectView(element, path: "[\(index)]", expected: "a Bluesky feed item"), into: &timeline)
    }

    /// One item of a feed: stores it and what it carries; returns its entry ID (the repost's
    /// ID for a repost, else the post's URI).
    func feedItem(_ item: JSONObjectView, into timeline: inout DecodedTimeline) throws(JSONLineFailure) -> String {
        guard let post = try item.object("post", expected: "a post view object") else { throw item.missing("post") }
        let postID = try postView(post, into: &timeline)
        if let reply = try item.object("reply", expected: "a reply reference object") {
            for key in ["root", "parent"] {
                if let view = try reply.object(key, expected: "a post view object"), view.has("author"), view.has("record") {
                    _ = try postView(view, into: &timeline)
                }
            }
        }
        guard let reason = try item.object("reason", expected: "a reason object"),
              try reason.string("$type") == "app.bsky.feed.defs#reasonRepost" else { return postID }
        guard let by = try reason.object("by", expected: "a profile object") else { throw reason.missing("by") }
        let reposter = try user(by)
        let indexed = try reason.rfc3339Time("indexedAt") ?? timeline.message(id: postID).map { MillisecondTime.milliseconds(from: $0.createdAt) } ?? 0
        let id = Self.repostEntryID(recordURI: try reason.string("uri"), postID: postID, reposterID: reposter.id)
        timeline.add(reposter)
        timeline.add(Message(id: id, authorID: reposter.id, text: "", createdAt: MillisecondTime.date(fromMilliseconds: indexed),
                             repostOfID: postID, url: timeline.message(id: postID)?.url, source: .bluesky))
        return id
    }

    /// The entry ID ``feedItem(_:into:)`` gives `item`, read without decoding the item: what a
    /// sync compares with the entries it holds before it decodes one (issue 28). `nil` when the
    /// item is not well formed enough to tell; `feedItem` then says what is wrong with it.
    func feedItemID(_ item: JSONObjectView) -> String? {
        // The same reads as `feedItem`'s, in the same order, so that an item it refuses has no ID.
        func read() throws(JSONLineFailure) -> String {
            guard let post = try item.object("post", expected: "a post view object") else { throw item.missing("post") }
            let postID = try post.requiredString("uri")
            guard ATURI(postID) != nil else { throw post.unexpected("`uri` is not an at:// URI") }
            guard let reason = try item.object("reason", expected: "a reason object"),
                  try reason.string("$type") == "app.bsky.feed.defs#reasonRepost" else { return postID }
            guard let by = try reason.object("by", expected: "a profile object") else { throw reason.missing("by") }
            return Self.repostEntryID(recordURI: try reason.string("uri"), postID: postID, reposterID: try user(by).id)
        }
        return try? read()
    }

    /// A repost's entry ID: the repost record's URI, when it is one (an ID of another form could
    /// name anything stored), else the post's URI and the reposter's DID.
    static func repostEntryID(recordURI: String?, postID: String, reposterID: String) -> String {
        recordURI.flatMap { ATURI($0) == nil ? nil : $0 } ?? postID + "#repost:" + reposterID
    }

    /// A post view (`app.bsky.feed.defs#postView`): stores it and what it quotes; returns its URI.
    @discardableResult
    func postView(_ view: JSONObjectView, into timeline: inout DecodedTimeline) throws(JSONLineFailure) -> String {
        guard let record = try view.object("record", expected: "a post record object") else { throw view.missing("record") }
        return try post(view, record: record, embed: try view.object("embed", expected: "an embed view object"), into: &timeline)
    }

    /// A post from its view (a post view, a quoted `viewRecord`, a notification) and its
    /// record; `embed` is the view's embed, when it has one.
    func post(
        _ view: JSONObjectView, record: JSONObjectView, embed: JSONObjectView?, into timeline: inout DecodedTimeline
    ) throws(JSONLineFailure) -> String {
        let uri = try view.requiredString("uri")
        guard let parsed = ATURI(uri) else { throw view.unexpected("`uri` is not an at:// URI: \(QuotedValue.quoted(uri))") }
        guard let authorView = try view.object("author", expected: "a profile object") else { throw view.missing("author") }
        let author = try user(authorView)
        let indexed = try view.rfc3339Time("indexedAt")
        let written = try? record.rfc3339Time("createdAt")
        let time = [indexed, written ?? nil].compactMap { $0 }.min() ?? 0

        var text = (try? record.string("text")) ?? ""
        let facetLinks = links(of: record)
        text = BlueskyFacets.expanding(text, links: facetLinks)
        // Issue 37: the links the post makes, its facets' in the text's order, then its card's.
        var webLinks = facetLinks.sorted { $0.start < $1.start }.map(\.uri)
        var attachments: [Attachment] = []
        var quoteOfID: String?
        if let embed {
            quoteOfID = try self.embed(embed, text: &text, attachments: &attachments, links: &webLinks, into: &timeline)
        } else {
            quoteOfID = Self.quotedURI(inRecordEmbedOf: record)
        }
        var replyToID: String?
        if let reply = try? record.object("reply", expected: "a reply reference"),
           let parent = try? reply.object("parent", expected: "a strong reference"),
           let parentURI = try? parent.string("uri"), ATURI(parentURI) != nil {
            replyToID = parentURI
        }
        let labels = Self.labels(of: view, record: record, author: authorView, authorID: author.id)
        timeline.add(author)
        timeline.add(Message(
            id: uri,
            authorID: author.id,
            text: try overlongText.apply(text, limit: MessageText.maximumBytes) { () throws(JSONLineFailure) in
                try view.checkedText(text, key: "record")
            },
            createdAt: MillisecondTime.date(fromMilliseconds: time),
            replyToID: replyToID,
            replyToUserID: replyToID.flatMap { ATURI($0)?.did },
            quoteOfID: quoteOfID,
            url: Self.webURL(handle: author.handle, did: author.id, recordKey: parsed.recordKey),
            attachments: attachments,
            likeCount: try view.count("likeCount"),
            repostCount: try view.count("repostCount"),
            replyCount: try view.count("replyCount"),
            moderation: ModerationFacts(labels: labels),
            source: .bluesky,
            links: MessageLinks.kept(webLinks)))
        // The account's like and repost, as the AppView tells the account that asked.
        if let viewer = try? view.object("viewer", expected: "a viewer state object") {
            timeline.add(MessageInteraction(messageID: uri, favourited: (try? viewer.string("like")) != nil,
                                            boosted: (try? viewer.string("repost")) != nil))
        }
        return uri
    }

    /// What an embed view adds: attachments, a link card's URL (to the text and the links), a
    /// quoted post. Returns the quoted post's URI.
    private func embed(
        _ embed: JSONObjectView, text: inout String, attachments: inout [Attachment], links: inout [String],
        into timeline: inout DecodedTimeline
    ) throws(JSONLineFailure) -> String? {
        switch try embed.string("$type") {
        case "app.bsky.embed.images#view":
            for (index, element) in (try embed.array("images", expected: "an array of images") ?? []).enumerated() {
                let image = try JSONObjectView(element, path: embed.path("images[\(index)]"), expected: "an image object")
                let alt = try image.string("alt")
                attachments.append(Attachment(kind: "image", url: try image.string("fullsize"), altText: alt?.isEmpty == false ? alt : nil))
            }
        case "app.bsky.embed.video#view":
            let alt = try embed.string("alt")
            attachments.append(Attachment(kind: "video", url: try embed.string("playlist"), altText: alt?.isEmpty == false ? alt : nil))
        case "app.bsky.embed.external#view":
            if let external = try embed.object("external", expected: "a link card object"),
               let uri = try external.string("uri"), !uri.isEmpty {
                links.append(uri)
                if !text.contains(uri) { text += text.isEmpty ? uri : "\n\n" + uri }
            }
        case "app.bsky.embed.record#view":
            guard let record = try embed.object("record", expected: "an embedded record object") else { return nil }
            return try quoted(record, into: &timeline)
        case "app.bsky.embed.recordWithMedia#view":
            if let media = try embed.object("media", expected: "an embed view object") {
                _ = try self.embed(media, text: &text, attachments: &attachments, links: &links, into: &timeline)
            }
            guard let outer = try embed.object("record", expected: "an embedded record object"),
                  let record = try outer.object("record", expected: "an embedded record object") else { return nil }
            return try quoted(record, into: &timeline)
        default:
            break
        }
        return nil
    }

    /// The quoted record of a record embed: a post (stored, its URI returned), or one that is
    /// missing, blocked or detached (its URI returned, nothing stored), or something that is
    /// not a post (a feed, a list: nothing).
    private func quoted(_ record: JSONObjectView, into timeline: inout DecodedTimeline) throws(JSONLineFailure) -> String? {
        switch try record.string("$type") {
        case "app.bsky.embed.record#viewRecord":
            guard let value = try record.object("value", expected: "a post record object") else { throw record.missing("value") }
            // A quoted post's own embed (images, a link, the post it quotes in turn) is its first.
            let embed = try record.array("embeds", expected: "an array of embed views")?.first.map { element throws(JSONLineFailure) in
                try JSONObjectView(element, path: record.path("embeds[0]"), expected: "an embed view object")
            }
            return try post(record, record: value, embed: embed, into: &timeline)
        case "app.bsky.embed.record#viewNotFound", "app.bsky.embed.record#viewBlocked", "app.bsky.embed.record#viewDetached":
            return try record.string("uri").flatMap { ATURI($0) == nil ? nil : $0 }
        default:
            return nil
        }
    }

    /// The URI a record quotes, read from the record itself (`app.bsky.embed.record`,
    /// `recordWithMedia`): what a notification, which carries no embed view, says of it.
    private static func quotedURI(inRecordEmbedOf record: JSONObjectView) -> String? {
        guard let embed = record.field("embed"), embed.isObject, let type = embed["$type"]?.stringValue else { return nil }
        var reference = embed["record"]
        if type == "app.bsky.embed.recordWithMedia" { reference = reference?["record"] }
        guard type == "app.bsky.embed.record" || type == "app.bsky.embed.recordWithMedia",
              let uri = reference?["uri"]?.stringValue, ATURI(uri) != nil else { return nil }
        return uri
    }

    /// The link facets of a post record; anything malformed is left out.
    private func links(of record: JSONObjectView) -> [BlueskyFacets.Link] {
        guard let facets = try? record.array("facets", expected: "an array of facets") else { return [] }
        var links: [BlueskyFacets.Link] = []
        for (index, element) in facets.enumerated() {
            guard let facet = try? JSONObjectView(element, path: record.path("facets[\(index)]"), expected: "a facet"),
                  let range = try? facet.object("index", expected: "a byte slice"),
                  range.field("byteStart") != nil, range.field("byteEnd") != nil,
                  let start = try? range.count("byteStart"), let end = try? range.count("byteEnd"),
                  let features = try? facet.array("features", expected: "an array of features") else { continue }
            for feature in features {
                guard feature.isObject, feature["$type"]?.stringValue == "app.bsky.richtext.facet#link",
                      let uri = feature["uri"]?.stringValue else { continue }
                links.append(BlueskyFacets.Link(start: start, end: end, uri: uri))
                break
            }
        }
        return links
    }

    /// The most labels kept of one post with its author: a post carries a few; an AppView
    /// sending more is not believed further.
    static let maximumLabels = 64
    /// The longest label value kept, in bytes (`com.atproto.label.defs#label`'s `val` is at most
    /// 128): a longer one is no label and is left out, whatever its length.
    static let maximumLabelValueBytes = 128

    /// The labels of a post and of its author's account, negations applied (see the type's
    /// description). Read leniently: a malformed label is left out, not an error.
    static func labels(of view: JSONObjectView, record: JSONObjectView, author: JSONObjectView, authorID: String) -> [ContentLabel] {
        var labels: [ContentLabel] = [], taken: Set<ContentLabel> = [], negated: Set<ContentLabel> = []
        func add(_ element: JSONNode, source: String?, onAuthor: Bool) {
            guard labels.count < maximumLabels, element.isObject,
                  let value = element["val"]?.stringValue, !value.isEmpty, value.utf8.count <= maximumLabelValueBytes,
                  let source = source ?? element["src"]?.stringValue, source.hasPrefix("did:"), source.utf8.count <= 2048 else { return }
            if onAuthor, element["uri"]?.stringValue?.hasSuffix("/app.bsky.actor.profile/self") == true { return }
            let label = ContentLabel(source: source, value: value, isOnAuthor: onAuthor)
            if case .bool(true)? = element["neg"]?.value {
                negated.insert(label)
            } else if taken.insert(label).inserted {
                labels.append(label)
            }
        }
        for element in view.field("labels")?.arrayValue ?? [] {
            add(element, source: nil, onAuthor: false)
        }
        if let selfLabels = try? record.object("labels", expected: "self-labels"),
           let values = try? selfLabels.array("values", expected: "an array of self-labels") {
            for element in values { add(element, source: authorID, onAuthor: false) }
        }
        for element in author.field("labels")?.arrayValue ?? [] {
            add(element, source: nil, onAuthor: true)
        }
        return negated.isEmpty ? labels : labels.filter { !negated.contains($0) }
    }

    /// The user a profile view describes (`profileViewBasic`, `profileView`).
    func user(_ profile: JSONObjectView) throws(JSONLineFailure) -> User {
        let did = try profile.requiredString("did")
        guard did.hasPrefix("did:") else { throw profile.unexpected("`did` is not a DID: \(QuotedValue.quoted(did))") }
        let handle = try profile.requiredString("handle")
        let displayName = try? profile.string("displayName")
        return User(
            id: did,
            handle: handle,
            name: displayName?.isEmpty == false ? displayName! : handle,
            url: "https://bsky.app/profile/" + (Self.isUsableHandle(handle) ? handle : did),
            isBot: false)
    }

    /// The web address of a post, as the Bluesky app copies it.
    static func webURL(handle: String, did: String, recordKey: String?) -> String? {
        guard let recordKey else { return nil }
        return "https://bsky.app/profile/" + (isUsableHandle(handle) ? handle : did) + "/post/" + recordKey
    }

    /// Whether `handle` can stand in a web address: a domain name (letters, digits, `-` and
    /// `.`), not the `handle.invalid` the AppView shows for a handle it could not verify.
    static func isUsableHandle(_ handle: String) -> Bool {
        !handle.isEmpty && handle != "handle.invalid" && handle.utf8.count <= 253
            && handle.utf8.allSatisfy { byte in
                (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2E
            }
    }
}
