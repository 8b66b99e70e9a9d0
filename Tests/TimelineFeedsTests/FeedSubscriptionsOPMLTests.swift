import Foundation
import Testing
import TimelineFeeds
import TimelineKit

/// `FeedSubscriptions.add` (an OPML list's feeds, stored without a fetch) and `opmlDocument`
/// (the subscriptions written back), on a real subscription list of NetNewsWire's tests.
@Suite struct FeedSubscriptionsOPMLTests {
    @Test func everyFetchableFeedOfARealListIsAddedOnceUnfetchedAndThePlainHTTPOnesAreSkipped() throws {
        let (store, directory) = try FeedSubscriptionsTests.store()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let list = try OPMLDocument(parsing: FeedFixtures.bytes("SubsNoTitleAttributes.opml"))
        let secure = Set(list.subscriptions.map(\.feedURL).filter { $0.hasPrefix("https://") })
        let plain = Set(list.subscriptions.map(\.feedURL).filter { $0.hasPrefix("http://") })
        let addition = try FeedSubscriptions(store: store).add(list.subscriptions)
        #expect(Set(addition.added.map(\.url)) == secure)
        #expect(addition.added.count == secure.count, "each URL once")
        #expect(Set(addition.skipped.map(\.outline.feedURL)) == plain)
        #expect(addition.skipped.allSatisfy { if case .insecureURL = $0.reason { true } else { false } })
        #expect(addition.alreadySubscribed.isEmpty)
        let stored = try FeedSubscriptions(store: store).all()
        #expect(Set(stored.map(\.url)) == secure)
        // Never fetched, so due at once: no last fetch, no validators, no problem.
        #expect(stored.allSatisfy { $0.lastFetch == nil && $0.validators == FeedValidators() && $0.problem == nil })
        #expect(Set(stored.map(\.name)).count == stored.count, "names are unique")
        #expect(stored.allSatisfy { !$0.name.contains(" ") && $0.name.count <= FeedSubscriptions.maximumNameLength })
        let swift = try #require(stored.first { $0.url == "https://developer.apple.com/swift/blog/news.rss" })
        #expect(swift.name == "Swift-Blog---Apple-Developer")
        #expect(swift.title == "Swift Blog - Apple Developer")
        #expect(swift.homeURL == "https://developer.apple.com/swift/blog/")
    }

    @Test func aFeedAlreadySubscribedToIsLeftAsItIsAndNamesAreMadeUnique() throws {
        let (store, directory) = try FeedSubscriptionsTests.store()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let subscriptions = FeedSubscriptions(store: store)
        let first = try subscriptions.add([OPMLSubscription(feedURL: "https://a.example/feed", title: "News")])
        let again = try subscriptions.add([
            OPMLSubscription(feedURL: "https://a.example/feed", title: "Renamed"),
            OPMLSubscription(feedURL: "https://b.example/feed", title: "News"),
            OPMLSubscription(feedURL: "https://b.example/feed", title: "Twice in the list"),
            OPMLSubscription(feedURL: "https://c.example/feed", title: String(repeating: "long ", count: 30)),
            OPMLSubscription(feedURL: "https://d.example/feed"),
        ])
        #expect(again.alreadySubscribed == first.added)
        #expect(again.added.map(\.name) == ["News-2", String(String(repeating: "long-", count: 13).dropLast()), "d.example"])
        #expect(try subscriptions.all().count == 4)
        #expect(try subscriptions.find("News")?.title == "News", "left as it was")
    }

    @Test func aNameCutToTheLimitStaysWithinItWhenNumbered() throws {
        let (store, directory) = try FeedSubscriptionsTests.store()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let title = String(repeating: "x", count: 80)
        let addition = try FeedSubscriptions(store: store).add([
            OPMLSubscription(feedURL: "https://a.example/1", title: title),
            OPMLSubscription(feedURL: "https://a.example/2", title: title),
        ])
        let names = addition.added.map(\.name)
        #expect(names == [String(repeating: "x", count: 64), String(repeating: "x", count: 62) + "-2"])
    }

    @Test func nothingFetchableStoresNothing() throws {
        let (store, directory) = try FeedSubscriptionsTests.store()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let addition = try FeedSubscriptions(store: store).add([
            OPMLSubscription(feedURL: "http://example.com/feed", title: "Plain"),
            OPMLSubscription(feedURL: "feed://example.com/feed", title: "Odd"),
        ])
        #expect(addition.added.isEmpty)
        #expect(addition.skipped.map(\.reason) == [.insecureURL("http://example.com/feed"), .invalidURL("feed://example.com/feed")])
        #expect(try FeedSubscriptions(store: store).all().isEmpty)
    }

    @Test func theExportedListReadsBackToTheSameFeeds() throws {
        let (store, directory) = try FeedSubscriptionsTests.store()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let subscriptions = FeedSubscriptions(store: store)
        let list = try OPMLDocument(parsing: FeedFixtures.bytes("Subs.opml"))
        let addition = try subscriptions.add(list.subscriptions)
        let written = try subscriptions.opmlDocument()
        let again = try OPMLDocument(parsing: Array(written.xml().utf8))
        #expect(Set(again.subscriptions.map(\.feedURL)) == Set(addition.added.map(\.url)))
        #expect(again.subscriptions.contains { $0.title == "Swift Blog - Apple Developer" && $0.homeURL == "https://developer.apple.com/swift/blog/" })
    }

    @Test func aFileThatIsNotOPMLIsNamedWithItsLine() {
        let broken = Array("<?xml version=\"1.0\"?>\n<opml version=\"2.0\">\n<body>\n<outline xmlUrl=\"https://a.example/\">\n</body>\n</opml>\n".utf8)
        #expect(throws: OPMLFileError.self) { try OPMLDocument(parsing: broken, file: "subs.opml") }
        do {
            _ = try OPMLDocument(parsing: broken, file: "subs.opml")
        } catch {
            #expect(error.description.hasPrefix("subs.opml, line 5"), "\(error)")
            #expect(error.description.contains("mismatched tag"), "\(error)")
        }
        #expect(throws: OPMLFileError.noFeeds(file: "empty.opml")) {
            try OPMLDocument(parsing: Array("<opml><body><outline text=\"folder\"/></body></opml>".utf8), file: "empty.opml")
        }
    }
}
