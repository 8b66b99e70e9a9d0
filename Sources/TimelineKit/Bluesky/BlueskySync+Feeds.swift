#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension BlueskySync {
    /// Feed generators asked for in one `app.bsky.feed.getFeedGenerators` request.
    static let generatorsPerRequest = 25

    /// What a feed generator's view (`app.bsky.feed.defs#generatorView`) says of it.
    struct GeneratorView: Sendable, Hashable {
        var name: String?
        var did: String?
        var acceptsInteractions: Bool
    }

    /// The account's saved and pinned feeds (issue 37): its preferences' `#savedFeedsPrefV2`
    /// (`app.bsky.actor.getPreferences`, read by ``BlueskyPreferences``), pinned ones first in
    /// the order listed, then the others; each custom feed named by its generator's view
    /// (`app.bsky.feed.getFeedGenerators`, `generatorsPerRequest` a request, at most
    /// ``BlueskyPreferences/maximumSavedFeeds`` feeds). Nothing is stored.
    ///
    /// - Throws: `.notSupported` where the server lacks `getPreferences`; a server without
    ///   `getFeedGenerators` leaves the feeds unnamed.
    public func savedFeeds() async throws(ServerError) -> [SavedFeed] {
        let nsid = "app.bsky.actor.getPreferences"
        let response = try await client.query(nsid)
        let preferences = try ServerResponseReader.read(response, from: client.host.url("/xrpc/" + nsid)) { document throws(JSONLineFailure) in
            try BlueskyPreferences(document)
        }
        var feeds = preferences.savedFeeds.filter(\.pinned) + preferences.savedFeeds.filter { !$0.pinned }
        let views: [String: GeneratorView]
        do {
            views = try await generatorViews(feeds.filter { $0.kind == .feed }.map(\.value))
        } catch {
            if case let .rejected(_, status, _) = error, ServerError.missingEndpointStatuses.contains(status) { return feeds }
            throw error
        }
        for index in feeds.indices {
            guard let view = views[feeds[index].value] else { continue }
            feeds[index].name = view.name
            feeds[index].generatorDID = view.did
            feeds[index].acceptsInteractions = view.acceptsInteractions
        }
        return feeds
    }

    /// The views of the feed generators `uris`, by URI (`app.bsky.feed.getFeedGenerators`, in
    /// batches of `generatorsPerRequest`); a feed the server does not describe is left out.
    func generatorViews(_ uris: [String]) async throws(ServerError) -> [String: GeneratorView] {
        let nsid = "app.bsky.feed.getFeedGenerators"
        let url = client.host.url("/xrpc/" + nsid)
        var views: [String: GeneratorView] = [:]
        let wanted = Array(uris.prefix(BlueskyPreferences.maximumSavedFeeds))
        var start = 0
        while start < wanted.count {
            let batch = wanted[start ..< min(start + Self.generatorsPerRequest, wanted.count)]
            start += Self.generatorsPerRequest
            let response = try await client.query(nsid, batch.map { (name: "feeds", value: $0) })
            let page = try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) -> [String: GeneratorView] in
                let answer = try JSONObjectView(document, path: "", expected: "a feed generators answer")
                var page: [String: GeneratorView] = [:]
                // No more than were asked for: a server sending more is not followed.
                for (index, node) in (try answer.array("feeds", expected: "an array of generator views") ?? []).prefix(batch.count).enumerated() {
                    let view = try JSONObjectView(node, path: "feeds[\(index)]", expected: "a generator view object")
                    let did = try view.string("did").flatMap { BlueskyPreferences.isDID($0) ? $0 : nil }
                    var accepts = false
                    if case let .bool(value)? = node["acceptsInteractions"]?.value { accepts = value }
                    page[try view.requiredString("uri")] = GeneratorView(name: try view.string("displayName"), did: did, acceptsInteractions: accepts)
                }
                return page
            }
            views.merge(page) { first, _ in first }
        }
        return views
    }

    /// Keeps what `answer` (a `getFeed` page of `feed`) said of its first `limit` items, in
    /// `transaction`: the generator's `feedContext` and `reqId` (`BlueskyFeedContexts`).
    static func keepContexts(of answer: JSONObjectView, limit: Int, feed: String, generator: GeneratorView?,
                             in transaction: TimelineTransaction) throws(TimelineStoreError) {
        guard let found = try? BlueskyFeedContexts.items(of: answer, limit: limit), !found.isEmpty else { return }
        let key = BlueskyFeedContexts.key(feed)
        var contexts = try transaction.sourceStates(of: .bluesky)[key].flatMap { BlueskyFeedContexts(feed: feed, json: $0) }
            ?? BlueskyFeedContexts(feed: feed, generator: nil, accepts: false)
        if let generator {
            contexts.generator = generator.did
            contexts.accepts = generator.acceptsInteractions
        }
        // In the order the feed gave them, newest kept first.
        let ordered = ((try? answer.array("feed", expected: "")) ?? []).prefix(limit).compactMap { $0["post"]?["uri"]?.stringValue }
        var seen = Set<String>()
        contexts.add(ordered.compactMap { uri in seen.insert(uri).inserted ? found[uri] : nil })
        try transaction.setSourceState(contexts.json, of: .bluesky, key: key)
    }

    /// The lexicon's event of `interaction` (`app.bsky.feed.defs#interaction…`).
    static func event(_ interaction: FeedInteraction) -> String {
        switch interaction {
        case .like: "app.bsky.feed.defs#interactionLike"
        case .repost: "app.bsky.feed.defs#interactionRepost"
        case .reply: "app.bsky.feed.defs#interactionReply"
        case .quote: "app.bsky.feed.defs#interactionQuote"
        }
    }

    /// The body of `app.bsky.feed.sendInteractions` for `interaction` on `item` read in `feed`
    /// (its AT URI, which Bluesky's app names too, for a generator serving several feeds).
    static func interactionsBody(_ interaction: FeedInteraction, item: BlueskyFeedContexts.Item, feed: String) -> [UInt8] {
        var body = Array(#"{"feed":"#.utf8)
        JSONLineEncoder.appendString(feed, to: &body)
        body += Array(#","interactions":[{"item":"#.utf8)
        JSONLineEncoder.appendString(item.item, to: &body)
        body += Array(#","event":"#.utf8)
        JSONLineEncoder.appendString(event(interaction), to: &body)
        for (name, value) in [("feedContext", item.feedContext), ("reqId", item.reqId)] {
            guard let value else { continue }
            body += Array(",\"\(name)\":".utf8)
            JSONLineEncoder.appendString(value, to: &body)
        }
        body += Array("}]}".utf8)
        return body
    }

    /// Tells the generator of the feed `messageID` was read in of `interaction`, as Bluesky's
    /// app does: `app.bsky.feed.sendInteractions` naming the feed, with the item's
    /// `feedContext` and the answer's `reqId`, through the PDS to the generator (`atproto-proxy: <did>#bsky_fg`), only
    /// for a generator whose view accepts interactions. Best effort: a message read in no feed
    /// sends nothing, and a failure is dropped. Answers whether the generator took it.
    @discardableResult
    public func sendFeedInteraction(_ interaction: FeedInteraction, on messageID: String) async -> Bool {
        guard let states = try? store.sourceStates(of: .bluesky) else { return false }
        let stored = (try? store.message(id: messageID)) ?? nil
        let target = stored?.repostOfID ?? messageID
        for (key, json) in states where key.hasPrefix("feed:") {
            guard let contexts = BlueskyFeedContexts(feed: String(key.dropFirst(5)), json: json), contexts.accepts,
                  let generator = contexts.generator, let item = contexts.item(for: target) else { continue }
            let nsid = "app.bsky.feed.sendInteractions"
            guard let response = try? await client.procedure(nsid, json: Self.interactionsBody(interaction, item: item, feed: contexts.feed),
                                                             proxy: generator + "#bsky_fg") else { return false }
            return (200 ..< 300).contains(response.status)
        }
        return false
    }
}
