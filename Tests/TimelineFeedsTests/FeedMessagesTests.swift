import Foundation
import Testing
import TimelineFeeds
import TimelineKit

@Suite struct FeedMessagesTests {
    static let subscription = FeedSubscriptionIdentity(id: "7", name: "example")
    static let fetched = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func anItemIsItsTitleABlankLineAndItsContentAsTerminalText() {
        let item = FeedItem(id: "a", title: "Title", link: "https://example.com/a", summary: .html("<p>short</p>"),
                            content: .html("<p>One &amp; two</p><p>three<br>four</p>"))
        let message = FeedMessages(feed: ParsedFeed(format: .rss2, items: [item]), subscription: Self.subscription, fetchedAt: Self.fetched).messages[0]
        #expect(message.text == "Title\n\n" + MastodonHTML.plainText("<p>One &amp; two</p><p>three<br>four</p>"))
        #expect(message.text.contains("One & two"))
        #expect(message.url == "https://example.com/a")
        // Painted with the feed's mark beside other sources, never a network's (issue 35).
        #expect(message.source == .feed)
    }

    @Test func theDateIsPublishedElseUpdatedElseTheFetchAndALaterUpdateIsAnEdit() {
        let published = Date(timeIntervalSince1970: 1_700_000_000)
        let updated = Date(timeIntervalSince1970: 1_700_000_600)
        let feed = ParsedFeed(format: .atom, items: [
            FeedItem(id: "1", title: "p", published: published, updated: updated),
            FeedItem(id: "2", title: "u", updated: updated),
            FeedItem(id: "3", title: "n"),
        ])
        let messages = FeedMessages(feed: feed, subscription: Self.subscription, fetchedAt: Self.fetched).messages
        #expect(messages.map(\.createdAt) == [published, updated, Self.fetched])
        #expect(messages.map(\.editedAt) == [updated, nil, nil])
    }

    @Test func theAuthorIsTheItemsElseTheFeedsTitleElseTheSubscriptionsName() {
        let items = [FeedItem(id: "1", authors: [FeedAuthor(name: "Ann", url: "https://ann.example")]), FeedItem(id: "2")]
        let titled = FeedMessages(feed: ParsedFeed(format: .rss2, title: "The Blog", items: items), subscription: Self.subscription, fetchedAt: Self.fetched)
        #expect(titled.users.map(\.name) == ["Ann", "The Blog"])
        #expect(titled.users.map(\.handle) == ["example", "example"])
        #expect(titled.messages.map(\.authorID) == titled.users.map(\.id))
        let untitled = FeedMessages(feed: ParsedFeed(format: .rss2, items: [FeedItem(id: "2")]), subscription: Self.subscription, fetchedAt: Self.fetched)
        #expect(untitled.users.map(\.name) == ["example"])
    }

    @Test func equalGuidsInTwoFeedsAreTwoMessagesAndTheSameItemAgainIsTheSameMessage() throws {
        let feed = try FeedParser.parse(FeedFixtures.bytes("DaringFireball.rss"), url: nil)
        let one = FeedMessages(feed: feed, subscription: FeedSubscriptionIdentity(id: "1", name: "a"), fetchedAt: Self.fetched)
        let two = FeedMessages(feed: feed, subscription: FeedSubscriptionIdentity(id: "2", name: "b"), fetchedAt: Self.fetched)
        let again = FeedMessages(feed: feed, subscription: FeedSubscriptionIdentity(id: "1", name: "a"), fetchedAt: Self.fetched.addingTimeInterval(3600))
        #expect(Set(one.messages.map(\.id)).isDisjoint(with: two.messages.map(\.id)))
        #expect(one.messages.map(\.id) == again.messages.map(\.id))
        #expect(Set(one.messages.map(\.id)).count == feed.items.count)
    }

    @Test func aTextOverTheLimitIsCutWithTheProjectsMark() {
        let long = String(repeating: "word ", count: 40_000)
        let item = FeedItem(id: "x", title: "Long", content: .plain(long))
        let text = FeedMessages(feed: ParsedFeed(format: .jsonFeed, items: [item]), subscription: Self.subscription, fetchedAt: Self.fetched).messages[0].text
        #expect(text.utf8.count <= JSONLinesImporter.maximumTextBytes)
        #expect(text.hasSuffix(OverlongText.cutMark(originalBytes: ("Long\n\n" + long.trimmingCharacters(in: .whitespaces)).utf8.count)))
    }

    @Test func aLongOrControlCharacterItemIDIsHashedToABoundedID() {
        let long = FeedMessages.messageID(subscription: "7", itemID: String(repeating: "x", count: 5000))
        let control = FeedMessages.messageID(subscription: "7", itemID: "a\u{0}b")
        #expect(long.utf8.count < 100 && long.hasPrefix("feed:7:hash:"))
        #expect(control.hasPrefix("feed:7:hash:"))
        #expect(FeedMessages.messageID(subscription: "7", itemID: "tag:x,2026:1") == "feed:7:tag:x,2026:1")
    }

    @Test func messagesFromARealFeedAreStoredAndReadBackByTimelineKit() throws {
        let feed = try FeedParser.parse(FeedFixtures.bytes("DaringFireball.atom"), url: nil)
        let converted = FeedMessages(feed: feed, subscription: Self.subscription, fetchedAt: Self.fetched)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feeds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try TimelineStore(path: directory.appendingPathComponent("t.sqlite").path)
        try store.upsert(users: converted.users, messages: converted.messages)
        #expect(try store.message(id: converted.messages[0].id)?.text == converted.messages[0].text)
    }
}
