import Foundation
import Testing
import TimelineFeeds
import TimelineKit

@Suite struct FeedSubscriptionsTests {
    static let feedURL = "https://a.example/feed.atom"
    static let feed = Array(try! String(contentsOfFile: #filePath.replacingOccurrences(
        of: "Tests/TimelineFeedsTests/FeedSubscriptionsTests.swift", with: "Fixtures/feeds/DaringFireball.atom"), encoding: .utf8).utf8)

    static func store() throws -> (TimelineStore, String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feeds-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return (try TimelineStore(path: directory + "/timeline.sqlite"), directory)
    }

    static let transport = TableTransport([
        "https://a.example/": HTTPResponse(status: 200, headers: [HTTPHeader(name: "Content-Type", value: "text/html")], body: Array(
            #"<html><head><link rel="alternate" type="application/atom+xml" href="/feed.atom"></head></html>"#.utf8)),
        feedURL: HTTPResponse(status: 200, headers: [HTTPHeader(name: "ETag", value: #"W/"v1""#)], body: feed),
        "https://a.example/plain": HTTPResponse(status: 200, body: Array("<html><head></head></html>".utf8)),
    ])

    @Test func aPagesSubscriptionStoresTheFeedsURLTitleValidatorsAndItems() async throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let subscriptions = FeedSubscriptions(store: store)
        let outcome = try await subscriptions.subscribe(to: "https://a.example/", fetcher: FeedFetcher(transport: Self.transport))
        guard case let .subscribed(subscription, items) = outcome else { Issue.record("not subscribed: \(outcome)"); return }
        #expect(items > 0)
        #expect(subscription.url == Self.feedURL)
        #expect(subscription.name == "a.example")
        #expect(subscription.title == "Daring Fireball")
        #expect(subscription.validators.etag == #"W/"v1""#)
        #expect(try subscriptions.all() == [subscription])
        #expect(try store.write { try $0.messageIDs(startingWith: subscription.messageIDPrefix) }.count == items)
        // The same feed again: nothing changes.
        let again = try await subscriptions.subscribe(to: Self.feedURL, fetcher: FeedFetcher(transport: Self.transport))
        #expect(again == .alreadySubscribed(subscription))
    }

    @Test func unsubscribingRemovesTheSubscriptionAndItsItemsOnly() async throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let subscriptions = FeedSubscriptions(store: store)
        let fetcher = FeedFetcher(transport: Self.transport)
        _ = try await subscriptions.subscribe(to: Self.feedURL, name: "mine", fetcher: fetcher)
        try store.upsert(users: [User(id: "u", handle: "u", name: "U")], messages: [Message(id: "feed:other", authorID: "u", text: "stays", createdAt: Date())])
        let (removed, count) = try subscriptions.unsubscribe("mine")
        #expect(removed.name == "mine")
        #expect(count > 0)
        #expect(try subscriptions.all().isEmpty)
        #expect(try store.message(id: "feed:other") != nil)
        #expect(try store.write { try $0.messageIDs(startingWith: "feed:") } == ["feed:other"])
        #expect(throws: FeedSubscriptionError.unknown("mine")) { try subscriptions.unsubscribe("mine") }
    }

    @Test func aPageNamingNoFeedStoresNothing() async throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let subscriptions = FeedSubscriptions(store: store)
        await #expect(throws: FeedSubscriptionError.self) {
            try await subscriptions.subscribe(to: "https://a.example/plain", fetcher: FeedFetcher(transport: Self.transport))
        }
        #expect(try subscriptions.all().isEmpty)
        #expect(try store.state().messageCount == 0)
    }
}
