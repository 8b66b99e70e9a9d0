import Foundation
import Testing

/// `subscribe`, `subscriptions` and `unsubscribe` (issue 35) against the loopback feed server of
/// `tools/feed-test-server/` serving the real feeds of `Fixtures/feeds/`: a page that names its
/// feed, one that names none, a moved feed, one subscribed twice, a server that is not there.
@Suite(.serialized) struct FeedSubscribeCommandTests {
    static func server() throws -> MastodonTestServer {
        try MastodonTestServer(script: Scenario.repositoryPath("tools/feed-test-server/server.py"))
    }

    static func jsonLines(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test func aPageThatNamesItsFeedIsSubscribedItsItemsPaintedAndUnsubscribingRemovesThem() async throws {
        let server = try Self.server()
        let scenario = Scenario()
        let subscribed = try await scenario.timeline.runOffThePool(["subscribe", server.baseURL + "/page.html", "--name", "df"])
        #expect(subscribed.status == 0, "\(subscribed.errors)")
        #expect(subscribed.output.contains("Daring Fireball"), "\(subscribed.output)")

        let list = try Self.jsonLines(try scenario.timeline.run(["subscriptions", "--json"]).output)
        #expect(list.count == 1)
        // The feed's address, not the page's.
        #expect(list.first?["url"] as? String == server.baseURL + "/feeds/DaringFireball.atom", "\(list)")
        #expect(list.first?["name"] as? String == "df")

        let shown = try Self.jsonLines(try scenario.timeline.run(["show", "--json", "-n", "400"]).output)
        let items = shown.filter { $0["source"] as? String == "feed" }
        #expect(!items.isEmpty)
        #expect(items.count == shown.count, "only the feed's items are stored")
        // `open REF` opens the item's link: the article, made absolute.
        let first = try #require(items.first)
        let ref = try #require(first["ref"] as? String)
        let opened = try scenario.timeline.run(["open", ref, "--print"])
        #expect(opened.status == 0, "\(opened.errors)")
        #expect(opened.output == (first["url"] as? String ?? "?") + "\n" && opened.output.hasPrefix("https://daringfireball.net/"), "\(opened.output)")

        let again = try await scenario.timeline.runOffThePool(["subscribe", server.baseURL + "/feeds/DaringFireball.atom"])
        #expect(again.status == 0, "\(again.errors)")
        #expect(again.output.lowercased().contains("already subscribed"), "\(again.output)")
        #expect(try Self.jsonLines(try scenario.timeline.run(["subscriptions", "--json"]).output).count == 1)

        let removed = try scenario.timeline.run(["unsubscribe", "df"])
        #expect(removed.status == 0, "\(removed.errors)")
        #expect(try scenario.timeline.run(["subscriptions", "--json"]).output.isEmpty)
        let after = try scenario.timeline.run(["show", "--json", "-n", "400"]).output
        #expect(!after.contains(#""source":"feed""#), "the feed's items left the timeline")
    }

    @Test func aPageThatNamesNoFeedIsRefusedWith65AndNothingIsStored() async throws {
        let server = try Self.server()
        let scenario = Scenario()
        let refused = try await scenario.timeline.runOffThePool(["subscribe", server.baseURL + "/plain.html"])
        #expect(refused.status == 65, "\(refused.output) \(refused.errors)")
        #expect(refused.errors.contains(server.baseURL + "/plain.html"), "\(refused.errors)")
        #expect(refused.errors.split(separator: "\n").count == 1, "\(refused.errors)")
        #expect(try scenario.timeline.run(["subscriptions", "--json"]).output.isEmpty)
    }

    @Test func aMovedFeedIsSubscribedAtItsNewAddress() async throws {
        let server = try Self.server()
        let scenario = Scenario()
        let moved = try await scenario.timeline.runOffThePool(["subscribe", server.baseURL + "/moved/DaringFireball.rss"])
        #expect(moved.status == 0, "\(moved.errors)")
        let list = try Self.jsonLines(try scenario.timeline.run(["subscriptions", "--json"]).output)
        #expect(list.first?["url"] as? String == server.baseURL + "/feeds/DaringFireball.rss", "\(list)")
    }

    @Test func aServerThatIsNotThereIsUnreachable69() async throws {
        let scenario = Scenario()
        // Port 9 (discard) on loopback: nothing listens there in a test machine.
        let unreachable = try await scenario.timeline.runOffThePool(["subscribe", "http://127.0.0.1:9/feed.xml"])
        #expect(unreachable.status == 69, "\(unreachable.output) \(unreachable.errors)")
        #expect(try scenario.timeline.run(["subscriptions", "--json"]).output.isEmpty)
    }
}
