#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A post to publish to Bluesky: its text, the message it replies to, its languages.
///
/// Links (`https://…`, `example.com`), mentions (`@alice.bsky.social`), hashtags (`#swift`,
/// `＃日本語`) and cashtags (`$AAPL`) in the text become the record's facets, found exactly as the
/// official SDK finds them (`BlueskyRichText`), with byte offsets in UTF-8 as the lexicon
/// wants, so they show as links in every Bluesky app; a mention whose handle does not resolve
/// stays plain text.
///
/// A retry never publishes twice: the record key (a TID) is chosen once, when the post is made,
/// and a second `createRecord` with the same key is refused as a duplicate, which counts as
/// published.
public struct BlueskyPost: Sendable, Hashable {
    /// The text (Bluesky allows 300 characters; the server says so when it is longer).
    public var text: String
    /// The stored ID (AT URI) of the post this replies to.
    public var replyTo: String?
    /// The stored ID (AT URI) of the post this quotes: embedded as `app.bsky.embed.record`, or
    /// with ``pictures`` as `app.bsky.embed.recordWithMedia`.
    public var quoteOf: String?
    /// The text's languages (BCP 47, `en`, `pt-BR`), none when `[]`.
    public var languages: [String]
    /// The record key, a TID made from the time the post was made.
    public var recordKey: String

    // MARK: Post options (issue 36)

    /// The self-label it carries (`labels`, `com.atproto.label.defs#selfLabels`), `nil` for none.
    public var contentLabel: SelfLabel?
    /// Whether the text's first link gets its card (`app.bsky.embed.external`), built from
    /// the page when the post is sent; never for a quote, whose embed is the quoted post.
    public var linkCard = false

    // Pictures (issue 36).

    /// The uploaded pictures, in order: `app.bsky.embed.images`, or with a quote
    /// `app.bsky.embed.recordWithMedia`.
    public var pictures: [BlueskyPicture] = []

    public init(text: String, replyTo: String? = nil, quoteOf: String? = nil, languages: [String] = [],
                recordKey: String = BlueskyPost.newRecordKey()) {
        self.text = text
        self.replyTo = replyTo
        self.quoteOf = quoteOf
        self.languages = languages
        self.recordKey = recordKey
    }

    /// A TID (`3kxyz…`, 13 characters): 53 bits of microseconds since 1970 and 10 random bits
    /// of clock identifier, in base32-sortable, as the AT Protocol writes record keys.
    public static func newRecordKey(now: Date = Date()) -> String {
        let microseconds = UInt64(max(0, now.timeIntervalSince1970 * 1_000_000))
        let value = (microseconds & ((1 << 53) - 1)) << 10 | UInt64.random(in: 0 ..< 1024)
        let alphabet = Array("234567abcdefghijklmnopqrstuvwxyz".utf8)
        var bytes = [UInt8](repeating: 0, count: 13)
        var rest = value
        for index in stride(from: 12, through: 0, by: -1) {
            bytes[index] = alphabet[Int(rest & 31)]
            rest >>= 5
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension BlueskySync {
    /// Publishes `post` as the account (`com.atproto.repo.createRecord`) and stores it, read
    /// (the person wrote it). A reply names its parent and its thread's root, read from the
    /// parent (`app.bsky.feed.getPosts`); mentions are resolved to DIDs
    /// (`com.atproto.identity.resolveHandle`).
    ///
    /// - Throws: `ServerError.replyTargetElsewhere` when `replyTo` is not a Bluesky post,
    ///   `.rejected` with the server's reason for a refused post (too long, empty), `.store`.
    @discardableResult
    ///
    /// A post from the outbox sent again (`retrying`, issue 27) brings the record key chosen
    /// when it was queued: a server that answers the key is taken has it from the earlier try,
    /// whose answer was lost, and the post counts as published.
    public func post(_ post: BlueskyPost, retrying: Bool = false) async throws(ServerError) -> Message {
        guard let session = client.currentSession else { throw .unauthorized(server: client.service.baseURL) }
        var reply: (root: (uri: String, cid: String), parent: (uri: String, cid: String))?
        if let target = post.replyTo {
            reply = try await replyReferences(to: target)
        }
        // The quoted post's strong reference (URI and CID), read from the AppView; a repost
        // quotes the post it reposts.
        var quoted: ViewedPost?
        if let target = post.quoteOf {
            let original = try pager.storeCall { () throws(TimelineStoreError) in try store.message(id: target) }?.repostOfID ?? target
            guard ATURI(original)?.collection == "app.bsky.feed.post" else {
                throw .replyTargetElsewhere(messageID: target, server: "Bluesky")
            }
            quoted = try await view(of: original)
        }
        var mentions: [String: String] = [:]
        let facets = BlueskyRichText.detectFacets(in: post.text)
        for facet in facets {
            guard case let .mention(handle) = facet.feature, mentions[handle] == nil else { continue }
            if let did = try? await resolve(handle: handle) { mentions[handle] = did }
        }
        // The card of the first link (issue 36): built now, at send time, so a post that
        // waited offline gets the page as it is when it is published; its failure is said and
        // the post goes without it.
        var card: BlueskyLinkCard?
        // A quote's embed is the quoted post, pictures' the pictures: neither gets a card.
        if post.linkCard, quoted == nil, post.pictures.isEmpty, let link = facets.lazy.compactMap({ facet -> String? in
            if case let .link(uri) = facet.feature { return uri }
            return nil
        }).first {
            card = await linkCard(for: link)
        }
        let now = client.clock.now()
        var record: [UInt8] = Array(#"{"$type":"app.bsky.feed.post","text":"#.utf8)
        JSONLineEncoder.appendString(post.text, to: &record)
        record += Array(#","createdAt":"#.utf8)
        JSONLineEncoder.appendString(ServerError.timestamp(now), to: &record)
        if !post.languages.isEmpty {
            record += Array(#","langs":["#.utf8)
            for (index, language) in post.languages.enumerated() {
                if index > 0 { record.append(UInt8(ascii: ",")) }
                JSONLineEncoder.appendString(language, to: &record)
            }
            record.append(UInt8(ascii: "]"))
        }
        post.appendLabels(to: &record)
        var written: [String] = []
        for facet in facets {
            var feature: [UInt8]
            switch facet.feature {
            case let .link(uri):
                feature = Array(#"{"$type":"app.bsky.richtext.facet#link","uri":"#.utf8)
                JSONLineEncoder.appendString(uri, to: &feature)
            case let .mention(handle):
                guard let did = mentions[handle] else { continue }
                feature = Array(#"{"$type":"app.bsky.richtext.facet#mention","did":"#.utf8)
                JSONLineEncoder.appendString(did, to: &feature)
            case let .tag(tag):
                feature = Array(#"{"$type":"app.bsky.richtext.facet#tag","tag":"#.utf8)
                JSONLineEncoder.appendString(tag, to: &feature)
            }
            feature.append(UInt8(ascii: "}"))
            written.append(#"{"index":{"byteStart":\#(facet.start),"byteEnd":\#(facet.end)},"features":["# + String(decoding: feature, as: UTF8.self) + "]}")
        }
        if !written.isEmpty { record += Array((#","facets":["# + written.joined(separator: ",") + "]").utf8) }
        func reference(_ strong: (uri: String, cid: String)) -> [UInt8] {
            var bytes: [UInt8] = Array(#"{"uri":"#.utf8)
            JSONLineEncoder.appendString(strong.uri, to: &bytes)
            bytes += Array(#","cid":"#.utf8)
            JSONLineEncoder.appendString(strong.cid, to: &bytes)
            bytes.append(UInt8(ascii: "}"))
            return bytes
        }
        if let reply {
            record += Array(#","reply":{"root":"#.utf8) + reference(reply.root) + Array(#","parent":"#.utf8) + reference(reply.parent) + [UInt8(ascii: "}")]
        }
        if let quoted {
            let embedded = Array(#"{"$type":"app.bsky.embed.record","record":"#.utf8) + reference((quoted.uri, quoted.cid)) + [UInt8(ascii: "}")]
            if post.pictures.isEmpty {
                record += Array(#","embed":"#.utf8) + embedded
            } else {
                record += Array(#","embed":{"$type":"app.bsky.embed.recordWithMedia","record":"#.utf8) + embedded
                    + Array(#","media":"#.utf8) + BlueskyPicture.embedJSON(post.pictures) + [UInt8(ascii: "}")]
            }
        } else if !post.pictures.isEmpty {
            record += Array(#","embed":"#.utf8) + BlueskyPicture.embedJSON(post.pictures)
        } else if let card {
            record += Array(#","embed":"#.utf8) + card.embedJSON
        }
        record.append(UInt8(ascii: "}"))

        var body: [UInt8] = Array(#"{"repo":"#.utf8)
        JSONLineEncoder.appendString(session.did, to: &body)
        body += Array(#","collection":"app.bsky.feed.post","rkey":"#.utf8)
        JSONLineEncoder.appendString(post.recordKey, to: &body)
        body += Array(#","record":"#.utf8) + record + [UInt8(ascii: "}")]

        let uri = "at://\(session.did)/app.bsky.feed.post/\(post.recordKey)"
        let requestsBefore = client.requestsSent
        do {
            _ = try await client.procedure("com.atproto.repo.createRecord", json: body)
        } catch {
            // Sent again after a lost answer, the same record key is refused as taken: it was published.
            guard case let .rejected(_, 400, reason) = error, retrying || client.requestsSent - requestsBefore > 1,
                  reason?.lowercased().contains("exist") == true else { throw error }
        }
        let author = User(id: session.did, handle: session.handle, name: session.handle,
                          url: "https://bsky.app/profile/" + session.handle, isBot: false)
        let message = Message(id: uri, authorID: session.did, text: post.text, createdAt: now,
                              replyToID: reply?.parent.uri, replyToUserID: reply.flatMap { ATURI($0.parent.uri)?.did },
                              quoteOfID: quoted?.uri,
                              url: BlueskyDecoder.webURL(handle: session.handle, did: session.did, recordKey: post.recordKey),
                              isRead: true, source: .bluesky)
        try pager.storeCall { () throws(TimelineStoreError) in
            // The account's user as the AppView describes it (its display name) stays when known.
            let known = try !store.users(ids: [session.did]).isEmpty
            try store.storeWrite { transaction throws(TimelineStoreError) in
                if !known { try transaction.upsert(users: [author]) }
                try transaction.upsert(messages: [message])
            }
        }
        return message
    }

    /// The strong references a reply to `id` carries: its thread's root and the post itself.
    private func replyReferences(to id: String) async throws(ServerError) -> (root: (uri: String, cid: String), parent: (uri: String, cid: String)) {
        var target = id
        // A repost has no text of its own: replying to it answers the post it reposts.
        if let stored = try pager.storeCall({ () throws(TimelineStoreError) in try store.message(id: id) }), let original = stored.repostOfID {
            target = original
        }
        guard ATURI(target)?.collection == "app.bsky.feed.post" else {
            throw .replyTargetElsewhere(messageID: id, server: "Bluesky")
        }
        let nsid = "app.bsky.feed.getPosts"
        let response = try await client.query(nsid, [("uris", target)])
        let url = client.host.url("/xrpc/" + nsid)
        return try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) in
            let object = try JSONObjectView(document, path: "", expected: "a posts answer")
            guard let first = try object.array("posts", expected: "an array of post views")?.first else {
                throw object.unexpected("the post to reply to, \(QuotedValue.quoted(target)), was not found (deleted?)")
            }
            let view = try JSONObjectView(first, path: "posts[0]", expected: "a post view object")
            let parent = (uri: try view.requiredString("uri"), cid: try view.requiredString("cid"))
            if let record = try view.object("record", expected: "a post record"),
               let reply = try record.object("reply", expected: "a reply reference"),
               let root = try reply.object("root", expected: "a strong reference") {
                return (root: (uri: try root.requiredString("uri"), cid: try root.requiredString("cid")), parent: parent)
            }
            return (root: parent, parent: parent)
        }
    }

    /// The DID of `handle` (`com.atproto.identity.resolveHandle`).
    private func resolve(handle: String) async throws(ServerError) -> String {
        let nsid = "com.atproto.identity.resolveHandle"
        let response = try await client.query(nsid, [("handle", handle)])
        let url = client.host.url("/xrpc/" + nsid)
        return try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) in
            let did = try JSONObjectView(document, path: "", expected: "a DID answer").requiredString("did")
            guard did.hasPrefix("did:") else { throw JSONLineFailure(offset: document.offset, field: "did", problem: .unexpectedContent("not a DID")) }
            return did
        }
    }
}
