import Foundation
import Testing
@testable import TimelineKit

/// Saved feeds (issue 37): `#savedFeedsPrefV2` read in the lexicon's shape (`app.bsky.actor.defs`),
/// a feed found by the name a person types, what a feed's generator said kept within bounds,
/// the interactions sent back in the SDK's shape, and the home feed kept with the account.
@Suite struct SavedFeedTests {
    static let discover = "at://did:plc:z72i7hdynmk6r22z27h6tvur/app.bsky.feed.generator/whats-hot"
    static let cats = "at://did:plc:catsandmore4567890abcdef/app.bsky.feed.generator/cats"
    static let list = "at://did:plc:kxcwo4hvymg66waeustcupu4/app.bsky.graph.list/3kfriends"

    /// As Bluesky's app writes it, then items it would not write: a feed whose value is a list,
    /// a timeline that is not `following`, one without `pinned`, one of an unknown type.
    static var items: [[String: Any]] { [
        ["id": "3l6ovcmm2vg2j", "type": "timeline", "value": "following", "pinned": true],
        ["id": "3l6ovcmm2vg2k", "type": "feed", "value": discover, "pinned": true],
        ["id": "3l6ovcmm2vg2l", "type": "feed", "value": cats, "pinned": false],
        ["id": "3l6ovcmm2vg2m", "type": "list", "value": list, "pinned": false],
    ] }
    static var refused: [[String: Any]] { [
        ["id": "a", "type": "feed", "value": list, "pinned": true],
        ["id": "b", "type": "timeline", "value": "everything", "pinned": true],
        ["id": "c", "type": "feed", "value": cats],
        ["id": "d", "type": "starterpack", "value": cats, "pinned": false],
    ] }

    static func preferences(_ items: [[String: Any]]) throws -> JSONNode {
        let data = try JSONSerialization.data(withJSONObject: ["preferences": [["$type": "app.bsky.actor.defs#savedFeedsPrefV2", "items": items]]])
        return try JSONFields.document(Array(data))
    }

    @Test func savedFeedsAreReadInTheirOrderAndItemsOfTheWrongShapeAreLeftOut() throws {
        let read = try BlueskyPreferences(Self.preferences(Self.items + Self.refused))
        #expect(read.savedFeeds == [
            SavedFeed(id: "3l6ovcmm2vg2j", kind: .timeline, value: "following", pinned: true),
            SavedFeed(id: "3l6ovcmm2vg2k", kind: .feed, value: Self.discover, pinned: true),
            SavedFeed(id: "3l6ovcmm2vg2l", kind: .feed, value: Self.cats, pinned: false),
            SavedFeed(id: "3l6ovcmm2vg2m", kind: .list, value: Self.list, pinned: false),
        ])
        #expect(read.savedFeeds.map(\.shortName) == ["following", "whats-hot", "cats", "3kfriends"])
    }

    @Test func savedFeedsPastTheLimitAreCountedAndLeftOut() throws {
        let many = (0 ..< BlueskyPreferences.maximumSavedFeeds + 5).map { number -> [String: Any] in
            ["id": "\(number)", "type": "feed", "value": "at://did:plc:abc/app.bsky.feed.generator/f\(number)", "pinned": false]
        }
        let read = try BlueskyPreferences(Self.preferences(many))
        #expect(read.savedFeeds.count == BlueskyPreferences.maximumSavedFeeds)
        #expect(read.leftOut == 5)
    }

    @Test func theSavedFeedsTheTestsUseAreTheSDKsAndTheRefusedOnesAreNot() throws {
        let verdicts = try #require(try AtprotoSDK.json("models", input: [
            ["model": "AppBskyActorDefs.SavedFeedsPrefV2", "value": ["$type": "app.bsky.actor.defs#savedFeedsPrefV2", "items": Self.items]],
            ["model": "AppBskyActorDefs.SavedFeed", "value": Self.refused[2]],
        ]) as? [Any])
        #expect(verdicts.first is NSNull, "\(verdicts)")
        #expect(!(verdicts.last is NSNull), "\(verdicts)")
    }

    @Test func theInteractionSentBackIsTheSDKsSendInteractionsInput() throws {
        var bodies: [Any] = []
        for interaction in FeedInteraction.allCases {
            let item = BlueskyFeedContexts.Item(item: "at://did:plc:abc/app.bsky.feed.post/3k", feedContext: "t-1|x", reqId: "r-9")
            bodies.append(try JSONSerialization.jsonObject(with: Data(BlueskySync.interactionsBody(interaction, item: item, feed: Self.discover))))
        }
        let bare = BlueskyFeedContexts.Item(item: "at://did:plc:abc/app.bsky.feed.post/3k")
        bodies.append(try JSONSerialization.jsonObject(with: Data(BlueskySync.interactionsBody(.like, item: bare, feed: Self.discover))))
        let verdicts = try #require(try AtprotoSDK.json("models", input: bodies.map { ["model": "AppBskyFeedSendInteractions.Data", "value": $0] }) as? [Any])
        #expect(verdicts.count == 5)
        #expect(verdicts.allSatisfy { $0 is NSNull }, "\(verdicts)")
        #expect((bodies[0] as? [String: Any])?["feed"] as? String == Self.discover)
        let like = try #require(((bodies[0] as? [String: Any])?["interactions"] as? [[String: Any]])?.first)
        #expect(like["event"] as? String == "app.bsky.feed.defs#interactionLike" && like["feedContext"] as? String == "t-1|x" && like["reqId"] as? String == "r-9")
    }

    @Test func aFeedIsFoundByItsURIShortNameOrNameAndANameOfTwoFindsNone() {
        let feeds = [
            SavedFeed(id: "1", kind: .timeline, value: "following", pinned: true),
            SavedFeed(id: "2", kind: .feed, value: Self.discover, pinned: true, name: "Discover"),
            SavedFeed(id: "3", kind: .feed, value: Self.cats, pinned: false, name: "Pets"),
            SavedFeed(id: "4", kind: .feed, value: "at://did:plc:other/app.bsky.feed.generator/dogs", pinned: false, name: "Pets"),
        ]
        #expect(SavedFeed.named(Self.discover, in: feeds)?.id == "2")
        #expect(SavedFeed.named("whats-hot", in: feeds)?.id == "2")
        #expect(SavedFeed.named("discover", in: feeds)?.id == "2")
        #expect(SavedFeed.named("Following", in: feeds)?.id == "1")
        #expect(SavedFeed.named("Pets", in: feeds) == nil)
        #expect(SavedFeed.named("cats", in: feeds)?.id == "3")
        #expect(SavedFeed.named("nonesuch", in: feeds) == nil)
    }

    @Test func aFeedKeepsItsNewestThousandItemsEachOnceAndReadsThemBack() throws {
        var contexts = BlueskyFeedContexts(feed: Self.discover, generator: "did:web:feeds.example", accepts: true)
        func item(_ number: Int) -> BlueskyFeedContexts.Item {
            BlueskyFeedContexts.Item(item: "at://did:plc:abc/app.bsky.feed.post/\(number)", feedContext: "c\"\(number)", reqId: "r")
        }
        contexts.add((0 ..< 700).map(item))
        contexts.add((600 ..< 1_300).map(item))
        #expect(contexts.items.count == BlueskyFeedContexts.maximumItems)
        #expect(contexts.items.first == item(600) && contexts.items.filter { $0 == item(650) }.count == 1)
        #expect(contexts.item(for: "at://did:plc:abc/app.bsky.feed.post/1299")?.feedContext == "c\"1299")
        let read = try #require(BlueskyFeedContexts(feed: Self.discover, json: contexts.json))
        #expect(read == contexts)
    }

    @Test func anAccountsFileWithoutAHomeFeedReadsAsFollowingAndTheHomeIsKeptThroughALoginAgain() throws {
        let directory = TemporaryDirectory()
        let store = AccountStore(directory: directory.path)
        let session = RenewableSession(accessToken: AccessToken("access-1")!, refreshToken: AccessToken("refresh-1")!, service: nil)
        let account = Account(name: "alice.test", network: .bluesky, server: "https://bsky.social", accountID: "did:plc:alice",
                              acct: "alice.test", client: nil, secret: .session(session))
        try store.save(account)
        #expect(try !String(decoding: Data(contentsOf: URL(fileURLWithPath: store.path)), as: UTF8.self).contains("home_feed"))
        #expect(try store.account(named: "alice.test").homeFeed == nil)

        #expect(try store.setHomeFeed(Self.discover, of: "alice.test").homeFeed == Self.discover)
        #expect(try String(decoding: Data(contentsOf: URL(fileURLWithPath: store.path)), as: UTF8.self).contains("\"home_feed\": \"\(Self.discover)\""))
        // A login again (or a renewed session) writes the account without one: the home stays.
        try store.save(account)
        #expect(try store.account(named: "alice.test").homeFeed == Self.discover)
        #expect(try store.setHomeFeed(nil, of: "alice.test").homeFeed == nil)
        #expect(try store.account(named: "alice.test").homeFeed == nil)
        #expect(throws: AccountError.self) { try store.setHomeFeed(Self.discover, of: "nobody") }
    }
}
