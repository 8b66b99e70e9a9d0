import Foundation
import Testing

/// `timeline sync` and its feeds (issue 35), end to end against the loopback feed server of
/// `tools/feed-test-server/`: feeds set and changed by each test (`/_control/feed`), the
/// server's log of requests proving what was asked and what was not.
@Suite(.serialized) struct FeedSyncCommandTests {
    static func server() throws -> MastodonTestServer { try FeedSubscribeCommandTests.server() }

    static func rss(_ items: [(guid: String, title: String)]) -> String {
        let entries = items.map { "<item><guid>\($0.guid)</guid><title>\($0.title)</title><link>https://a.example/\($0.guid)</link></item>" }
        return "<rss version=\"2.0\"><channel><title>Loopback</title>\(entries.joined())</channel></rss>"
    }

    /// Serves `path` from now on as `route` says (see the server's /_control/feed).
    static func serve(_ server: MastodonTestServer, _ path: String, _ route: [String: Any]) throws {
        var route = route
        route["path"] = path
        try server.control("feed", route)
    }

    static func requests(to path: String, on server: MastodonTestServer) throws -> [[String: Any]] {
        try server.requests().filter { $0["path"] as? String == path }
    }

    static func subscriptions(_ scenario: Scenario) throws -> [[String: Any]] {
        try FeedSubscribeCommandTests.jsonLines(try scenario.timeline.run(["subscriptions", "--json"]).output)
    }

    static func generation(_ scenario: Scenario) throws -> Int {
        let stats = try FeedSubscribeCommandTests.jsonLines(try scenario.timeline.run(["stats", "--json"]).output)
        return try #require(stats.first?["generation"] as? Int)
    }

    @Test func aSyncRightAfterSubscribeAsksNothingAndFeedsNowSendsTheValidatorsBack() async throws {
        let server = try Self.server()
        let scenario = Scenario()
        try Self.serve(server, "/dyn/weak.xml", ["body": Self.rss([("1", "One")]), "validators": "weak"])
        let subscribed = try await scenario.timeline.runOffThePool(["subscribe", server.baseURL + "/dyn/weak.xml", "--name", "weak"])
        #expect(subscribed.status == 0, "\(subscribed.errors)")

        // Feeds and no accounts: the sync succeeds, and the feed is not due yet.
        let plain = try await scenario.timeline.runOffThePool(["sync"])
        #expect(plain.status == 0, "\(plain.output) \(plain.errors)")
        #expect(plain.output.contains("0 fetched"), "\(plain.output)")
        #expect(plain.output.contains("1 not due"), "\(plain.output)")
        #expect(try Self.requests(to: "/dyn/weak.xml", on: server).count == 1, "the subscribe's only")
        let before = try #require(try Self.subscriptions(scenario).first)
        #expect(before["next_due"] is String)
        #expect(before["every"] as? Int == 3600)
        #expect(before["problem"] is NSNull)

        let generation = try Self.generation(scenario)
        let now = try await scenario.timeline.runOffThePool(["sync", "--feeds-now"])
        #expect(now.status == 0, "\(now.errors)")
        #expect(now.output.contains("1 unchanged"), "\(now.output)")
        let asked = try Self.requests(to: "/dyn/weak.xml", on: server)
        #expect(asked.count == 2)
        // The weak ETag goes back exactly as it came, and the 304 writes no message.
        #expect((asked.last?["if_none_match"] as? String)?.hasPrefix("W/\"") == true, "\(asked)")
        #expect(try Self.generation(scenario) == generation)
    }

    @Test func anUnchangedBodyWithoutValidatorsWritesNothingAndAnEditedItemKeepsItsID() async throws {
        let server = try Self.server()
        let scenario = Scenario()
        try Self.serve(server, "/dyn/plain.xml", ["body": Self.rss([("1", "One"), ("2", "Two")])])
        let subscribed = try await scenario.timeline.runOffThePool(["subscribe", server.baseURL + "/dyn/plain.xml", "--name", "plain"])
        #expect(subscribed.status == 0, "\(subscribed.errors)")
        let ids = try scenario.sqlite("SELECT id FROM messages ORDER BY id").split(separator: "\n").map(String.init)
        #expect(ids.count == 2)

        let generation = try Self.generation(scenario)
        let same = try await scenario.timeline.runOffThePool(["sync", "--feeds-now"])
        #expect(same.status == 0, "\(same.errors)")
        #expect(same.output.contains("1 unchanged"), "\(same.output)")
        #expect(try Self.generation(scenario) == generation, "the same body is not stored again")

        try Self.serve(server, "/dyn/plain.xml", ["body": Self.rss([("1", "One, corrected")])])
        let edited = try await scenario.timeline.runOffThePool(["sync", "--feeds-now"])
        #expect(edited.status == 0, "\(edited.errors)")
        #expect(edited.output.contains("1 fetched"), "\(edited.output)")
        #expect(edited.output.contains("1 edited"), "\(edited.output)")
        let after = try scenario.sqlite("SELECT id FROM messages ORDER BY id").split(separator: "\n").map(String.init)
        #expect(after == ids, "the item keeps its message ID, and the one that left the feed stays")
        let first = try #require(ids.first { $0.hasSuffix(":1") })
        #expect(try scenario.sqlite("SELECT text FROM messages WHERE id = '\(first)'").hasPrefix("One, corrected"))
        #expect(!(try scenario.sqlite("SELECT edited_at FROM messages WHERE id = '\(first)'")).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    }

    @Test func retryAfterKeepsEvenFeedsNowAway() async throws {
        let server = try Self.server()
        let scenario = Scenario()
        try Self.serve(server, "/dyn/busy.xml", ["body": Self.rss([("1", "One")])])
        let subscribed = try await scenario.timeline.runOffThePool(["subscribe", server.baseURL + "/dyn/busy.xml", "--name", "busy"])
        #expect(subscribed.status == 0, "\(subscribed.errors)")
        try Self.serve(server, "/dyn/busy.xml", ["status": 429, "retry_after": "3600"])

        let refused = try await scenario.timeline.runOffThePool(["sync", "--feeds-now"])
        #expect(refused.status == 75, "a server that asks to wait is EX_TEMPFAIL: \(refused.output) \(refused.errors)")
        #expect(refused.errors.contains("busy"), "\(refused.errors)")
        #expect(refused.output.contains("1 failed"), "\(refused.output)")
        let stored = try #require(try Self.subscriptions(scenario).first)
        #expect(stored["retry_after"] is String, "\(stored)")
        #expect((stored["problem"] as? String)?.contains("429") == true, "\(stored)")
        let asked = try Self.requests(to: "/dyn/busy.xml", on: server).count

        let again = try await scenario.timeline.runOffThePool(["sync", "--feeds-now"])
        #expect(again.status == 0, "waiting is not failing: \(again.errors)")
        #expect(try Self.requests(to: "/dyn/busy.xml", on: server).count == asked, "no request before Retry-After")
        let listed = try scenario.timeline.run(["subscriptions"]).output
        #expect(listed.contains("asked to wait"), "\(listed)")
    }

    @Test func a301MovesTheSubscriptionAndA302DoesNot() async throws {
        let server = try Self.server()
        let scenario = Scenario()
        let feed = Self.rss([("1", "One")])
        try Self.serve(server, "/dyn/old.xml", ["body": feed])
        try Self.serve(server, "/dyn/stays.xml", ["body": feed])
        #expect(try await scenario.timeline.runOffThePool(["subscribe", server.baseURL + "/dyn/old.xml", "--name", "old"]).status == 0)
        #expect(try await scenario.timeline.runOffThePool(["subscribe", server.baseURL + "/dyn/stays.xml", "--name", "stays"]).status == 0)
        try Self.serve(server, "/dyn/new.xml", ["body": feed])
        try Self.serve(server, "/dyn/today.xml", ["body": feed])
        try Self.serve(server, "/dyn/old.xml", ["status": 301, "location": "/dyn/new.xml"])
        try Self.serve(server, "/dyn/stays.xml", ["status": 302, "location": "/dyn/today.xml"])

        let synced = try await scenario.timeline.runOffThePool(["sync", "--feeds-now"])
        #expect(synced.status == 0, "\(synced.output) \(synced.errors)")
        let urls = Dictionary(uniqueKeysWithValues: try Self.subscriptions(scenario).map { ($0["name"] as? String ?? "", $0["url"] as? String ?? "") })
        #expect(urls["old"] == server.baseURL + "/dyn/new.xml")
        #expect(urls["stays"] == server.baseURL + "/dyn/stays.xml")
    }

    @Test func oneFailingFeedDoesNotStopTheOthers() async throws {
        let server = try Self.server()
        let scenario = Scenario()
        try Self.serve(server, "/dyn/good.xml", ["body": Self.rss([("1", "One")])])
        try Self.serve(server, "/dyn/gone.xml", ["body": Self.rss([("1", "One")])])
        #expect(try await scenario.timeline.runOffThePool(["subscribe", server.baseURL + "/dyn/gone.xml", "--name", "gone"]).status == 0)
        #expect(try await scenario.timeline.runOffThePool(["subscribe", server.baseURL + "/dyn/good.xml", "--name", "good"]).status == 0)
        try Self.serve(server, "/dyn/gone.xml", ["status": 500])
        try Self.serve(server, "/dyn/good.xml", ["body": Self.rss([("1", "One"), ("2", "Two")])])

        let synced = try await scenario.timeline.runOffThePool(["sync", "--feeds-now"])
        #expect(synced.status == 69, "a failed feed exits as an unreachable account does: \(synced.errors)")
        #expect(synced.output.contains("1 fetched (1 new item)"), "\(synced.output)")
        #expect(synced.output.contains("1 failed"), "\(synced.output)")
        #expect(synced.errors.contains("feed gone:"), "\(synced.errors)")
        let list = Dictionary(uniqueKeysWithValues: try Self.subscriptions(scenario).map { ($0["name"] as? String ?? "", $0) })
        #expect((list["gone"]?["problem"] as? String)?.contains("500") == true, "\(list)")
        #expect(list["good"]?["problem"] is NSNull)
    }

    @Test func feedsAreFetchedConcurrentlyFourAtATime() async throws {
        let server = try Self.server()
        let scenario = Scenario()
        let paths = (1 ... 8).map { "/dyn/slow\($0).xml" }
        for path in paths { try Self.serve(server, path, ["body": Self.rss([("1", "One")]), "validators": "strong"]) }
        for (index, path) in paths.enumerated() {
            #expect(try await scenario.timeline.runOffThePool(["subscribe", server.baseURL + path, "--name", "slow\(index)"]).status == 0)
        }
        // Each answer is held until 4 requests are in flight (at most 10 s): fetched one after
        // the other, the first would wait its 10 s and the most in flight would be 1. What
        // overlapped proves it, not a time that the machine's load could stretch.
        for path in paths { try Self.serve(server, path, ["body": Self.rss([("1", "One")]), "validators": "strong", "gather": 4]) }
        try server.control("reset", [String: Any]())

        let synced = try await scenario.timeline.runOffThePool(["sync", "--feeds-now"])
        #expect(synced.status == 0, "\(synced.errors)")
        #expect(synced.output.contains("8 unchanged"), "\(synced.output)")
        let most = try #require((try server.control("state") as? [String: Any])?["most_in_flight"] as? Int)
        #expect(most == 4, "at most 4 at once, and 4 when 8 wait")
    }

    @Test func plainHTTPBeyondThisMachineIsRefusedBeforeAnyRequest() async throws {
        let scenario = Scenario()
        let refused = try await scenario.timeline.runOffThePool(["subscribe", "http://feeds.example.com/feed.xml"])
        #expect(refused.status == 64, "\(refused.output) \(refused.errors)")
        #expect(refused.errors.contains("https://"), "\(refused.errors)")
        #expect(refused.errors.split(separator: "\n").count == 1, "\(refused.errors)")
        #expect(try Self.subscriptions(scenario).isEmpty)
    }

    @Test func everyChangesAnExistingSubscriptionsIntervalWithoutFetching() async throws {
        let server = try Self.server()
        let scenario = Scenario()
        try Self.serve(server, "/dyn/every.xml", ["body": Self.rss([("1", "One")])])
        let subscribed = try await scenario.timeline.runOffThePool(["subscribe", server.baseURL + "/dyn/every.xml", "--name", "every", "--every", "2h"])
        #expect(subscribed.status == 0, "\(subscribed.errors)")
        #expect(try Self.subscriptions(scenario).first?["every"] as? Int == 7200)
        let changed = try await scenario.timeline.runOffThePool(["subscribe", "every", "--every", "30m"])
        #expect(changed.status == 0, "\(changed.errors)")
        #expect(try Self.subscriptions(scenario).first?["every"] as? Int == 1800)
        #expect(try Self.requests(to: "/dyn/every.xml", on: server).count == 1, "changing the interval fetches nothing")
        let tooOften = try await scenario.timeline.runOffThePool(["subscribe", "every", "--every", "0m"])
        #expect(tooOften.status == 64, "\(tooOften.errors)")
    }

    @Test func theShellHooksShowStartsABackgroundSyncForFeedsAlone() async throws {
        let server = try Self.server()
        let scenario = Scenario()
        try Self.serve(server, "/dyn/hook.xml", ["body": Self.rss([("1", "One")])])
        #expect(try await scenario.timeline.runOffThePool(["subscribe", server.baseURL + "/dyn/hook.xml", "--name", "hook"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: scenario.databasePath + ".has-feeds"))
        let lock = scenario.databasePath + ".sync-lock"
        #expect(!FileManager.default.fileExists(atPath: lock))
        let shown = try scenario.timeline.run(["show", "--sync-if-older", "5m"])
        #expect(shown.status == 0, "\(shown.errors)")
        #expect(FileManager.default.fileExists(atPath: lock), "no account, one feed: a background sync was started")
        #expect(try await scenario.timeline.runOffThePool(["unsubscribe", "hook"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: scenario.databasePath + ".has-feeds"))
    }
}
