#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a custom feed's generator said of the posts it served (issue 37), kept beside them in
/// the store they were fetched into, so that a like, repost or reply later can be told back to
/// the generator as Bluesky's app tells it (`app.bsky.feed.sendInteractions`).
///
/// A feed answer (`app.bsky.feed.getFeed`) carries a `reqId` for the request and a
/// `feedContext` per item, both opaque to the reader and meant to be sent back with the
/// interaction. They are kept as one source-state document per feed
/// (``TimelineTransaction/setSourceState(_:of:key:)``, source `bluesky`, key `feed:` and the
/// feed's AT URI), the newest ``maximumItems`` items, written in the transaction that stores the
/// page: no table of its own, and nothing `show` reads.
///
/// ```json
/// {"generator": "did:web:feeds.example", "accepts": true,
///  "items": [{"item": "at://…/app.bsky.feed.post/3k", "feedContext": "t-1", "reqId": "r-9"}]}
/// ```
struct BlueskyFeedContexts: Sendable, Hashable {
    /// One item as the feed served it.
    struct Item: Sendable, Hashable {
        /// The post's AT URI: what an interaction names (a reposted post's, for a repost).
        var item: String
        /// What the generator said of the item, to be sent back as it came.
        var feedContext: String?
        /// The request's ID the generator gave the answer that served it.
        var reqId: String?
    }

    /// The feed's AT URI.
    var feed: String
    /// The DID of the service generating it, to which interactions are sent
    /// (`atproto-proxy: <did>#bsky_fg`); `nil` when the server did not say.
    var generator: String?
    /// Whether the generator takes interactions (`acceptsInteractions` of its view): Bluesky's
    /// app sends them only then.
    var accepts: Bool
    /// Newest first, at most ``maximumItems``.
    var items: [Item]

    /// The most items kept per feed: what a few `feed` reads hold; older ones are dropped.
    static let maximumItems = 1_000
    /// The longest `feedContext` kept (the lexicon's bound), and `reqId`.
    static let maximumContextBytes = 2_000
    static let maximumRequestIDBytes = 100

    /// The key of `feed`'s document among the `bluesky` source's states.
    static func key(_ feed: String) -> String { "feed:" + feed }

    /// `newer` put in front of what is kept, each post once, within ``maximumItems``.
    mutating func add(_ newer: [Item]) {
        let posts = Set(newer.map(\.item))
        items = Array((newer + items.filter { !posts.contains($0.item) }).prefix(Self.maximumItems))
    }

    /// The item kept for the post `uri`.
    func item(for uri: String) -> Item? {
        items.first { $0.item == uri }
    }

    /// The items of a feed answer's first `limit` entries that carry something to send back,
    /// by their posts' URIs.
    static func items(of answer: JSONObjectView, limit: Int) throws(JSONLineFailure) -> [String: Item] {
        let reqId = try answer.string("reqId").flatMap { $0.utf8.count <= maximumRequestIDBytes ? $0 : nil }
        var found: [String: Item] = [:]
        for node in (try answer.array("feed", expected: "an array of feed items") ?? []).prefix(limit) where node.isObject {
            guard let post = node["post"], let uri = post["uri"]?.stringValue else { continue }
            let context = node["feedContext"]?.stringValue.flatMap { $0.utf8.count <= maximumContextBytes ? $0 : nil }
            guard context != nil || reqId != nil else { continue }
            found[uri] = Item(item: uri, feedContext: context, reqId: reqId)
        }
        return found
    }

    /// The document `json` of `feed` read back; `nil` when it is not one this type wrote.
    init?(feed: String, json: String) {
        guard let document = try? JSONFields.document(Array(json.utf8)), document.isObject else { return nil }
        self.feed = feed
        generator = document["generator"]?.stringValue
        if case let .bool(accepts)? = document["accepts"]?.value { self.accepts = accepts } else { accepts = false }
        items = (document["items"]?.arrayValue ?? []).prefix(Self.maximumItems).compactMap { node in
            guard node.isObject, let item = node["item"]?.stringValue else { return nil }
            return Item(item: item, feedContext: node["feedContext"]?.stringValue, reqId: node["reqId"]?.stringValue)
        }
    }

    /// A feed's contexts with every part given.
    init(feed: String, generator: String?, accepts: Bool, items: [Item] = []) {
        self.feed = feed
        self.generator = generator
        self.accepts = accepts
        self.items = items
    }

    /// The document as stored.
    var json: String {
        var bytes = Array(#"{"generator":"#.utf8)
        if let generator { JSONLineEncoder.appendString(generator, to: &bytes) } else { bytes += Array("null".utf8) }
        bytes += Array(#","accepts":"#.utf8) + Array((accepts ? "true" : "false").utf8)
        bytes += Array(#","items":["#.utf8)
        for (index, item) in items.enumerated() {
            bytes += Array((index == 0 ? #"{"item":"# : #",{"item":"#).utf8)
            JSONLineEncoder.appendString(item.item, to: &bytes)
            for (name, value) in [("feedContext", item.feedContext), ("reqId", item.reqId)] {
                guard let value else { continue }
                bytes += Array(",\"\(name)\":".utf8)
                JSONLineEncoder.appendString(value, to: &bytes)
            }
            bytes += Array("}".utf8)
        }
        bytes += Array("]}".utf8)
        return String(decoding: bytes, as: UTF8.self)
    }
}
