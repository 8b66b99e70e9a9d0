import Foundation
import Testing
import TimelineKit

/// `feeds`, `feed` and `home` (issue 37) against the loopback Bluesky server: the saved feeds of
/// the account's preferences (`#savedFeedsPrefV2`, in the lexicon's shape), one feed read and
/// kept apart with what its generator said of each post, that said back after a like, and the
/// home timeline read from a custom feed.
@Suite(.serialized) struct SavedFeedCommandTests {
    static let discover = "at://did:plc:z72i7hdynmk6r22z27h6tvur/app.bsky.feed.generator/whats-hot"
    static let cats = "at://did:plc:catsandmore4567890abcdef/app.bsky.feed.generator/cats"
    static let list = "at://did:plc:kxcwo4hvymg66waeustcupu4/app.bsky.graph.list/3kfriends"

    /// The preferences as Bluesky's app writes them: Following and Discover pinned, a feed and a
    /// list only saved.
    static let preferences = """
        {"preferences":[{"$type":"app.bsky.actor.defs#savedFeedsPrefV2","items":[\
        {"type":"timeline","value":"following","pinned":true,"id":"3l6ovcmm2vg2j"},\
        {"type":"feed","value":"\(discover)","pinned":true,"id":"3l6ovcmm2vg2k"},\
        {"type":"feed","value":"\(cats)","pinned":false,"id":"3l6ovcmm2vg2l"},\
        {"type":"list","value":"\(list)","pinned":false,"id":"3l6ovcmm2vg2m"}]}]}
        """

    static func loggedIn(posts: Int = 30) throws -> (MastodonTestServer, Scenario) {
        let server = try BlueskyTestServer.start(posts: posts)
        _ = try server.control("preferences", ["body": preferences])
        return (server, try BlueskyCommandTests.loggedIn(to: server))
    }

    static func calls(_ server: MastodonTestServer, _ nsid: String) throws -> [[String: Any]] {
        try server.requests().filter { ($0["nsid"] as? String) == nsid }
    }

    /// The records written (a like is written under the key chosen when it was asked for).
    static func records(_ server: MastodonTestServer) throws -> Int {
        try calls(server, "com.atproto.repo.createRecord").count + calls(server, "com.atproto.repo.putRecord").count
    }

    @Test func feedsListsTheSavedFeedsPinnedFirstWithTheirGeneratorsNames() async throws {
        let (server, scenario) = try Self.loggedIn()
        let listed = try await scenario.timeline.runOffThePool(["feeds"])
        #expect(listed.status == 0, "\(listed.errors)")
        let lines = listed.output.split(separator: "\n").map(String.init)
        #expect(lines == [
            "* following  Following  (home)",
            "* whats-hot  Discover  \(Self.discover)",
            "  cats  cats  \(Self.cats)",
            "  3kfriends  (a list)  \(Self.list)",
        ], "\(listed.output)")
        // The two custom feeds named in one request.
        let generators = try Self.calls(server, "app.bsky.feed.getFeedGenerators")
        #expect(generators.count == 1)
        #expect((generators.first?["query"] as? String)?.components(separatedBy: "feeds=").count == 3, "\(generators)")

        let json = try await scenario.timeline.runOffThePool(["feeds", "--json"])
        #expect(json.status == 0, "\(json.errors)")
        let objects = try json.output.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.count == 4)
        #expect(objects[1]["value"] as? String == Self.discover && objects[1]["pinned"] as? Bool == true)
        #expect(objects[1]["short_name"] as? String == "whats-hot" && objects[1]["name"] as? String == "Discover")
        #expect(objects[1]["type"] as? String == "feed" && objects[1]["id"] as? String == "3l6ovcmm2vg2k")
        #expect(objects[0]["home"] as? Bool == true && objects[1]["home"] as? Bool == false)
    }

    @Test func aFeedIsReadByItsShortNameKeptApartAndALikeOfItsPostIsToldToItsGenerator() async throws {
        let (server, scenario) = try Self.loggedIn()
        let read = try await scenario.timeline.runOffThePool(["feed", "whats-hot", "-n", "5", "--json"])
        #expect(read.status == 0, "\(read.errors)")
        let lines = read.output.split(separator: "\n")
        #expect(lines.count == 5, "\(read.output)")
        let fetched = try #require(try Self.calls(server, "app.bsky.feed.getFeed").first)
        #expect((fetched["query"] as? String)?.contains("feed=" + Self.discover.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!) == true
                || (fetched["query"] as? String)?.contains("whats-hot") == true, "\(fetched)")
        // Painted with the feed's label, and nothing of it in the home timeline.
        let line = try #require(lines.first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let first = [try #require(object["ref"] as? String), try #require(object["id"] as? String)]
        #expect(first[0].hasPrefix("feed-whats-hot:"), "\(first)")
        #expect(try scenario.timeline.run(["show", "--format", "{id}"]).output.isEmpty)
        let kept = try FileManager.default.contentsOfDirectory(atPath: scenario.directory).filter { $0.contains(".feed-") && $0.hasSuffix("%2Fwhats%2Dhot.sqlite") }
        #expect(kept.count == 1, "\(kept)")
        // Read again: the generator, known now, is not asked for again.
        let generators = try Self.calls(server, "app.bsky.feed.getFeedGenerators").count
        #expect(try await scenario.timeline.runOffThePool(["feed", Self.discover, "-n", "5"]).status == 0)
        #expect(try Self.calls(server, "app.bsky.feed.getFeedGenerators").count == generators)
        // Read again without a request, found by its short name.
        let before = try server.requests().count
        let offline = try await scenario.timeline.runOffThePool(["feed", "whats-hot", "--offline", "--json"])
        #expect(offline.status == 0, "\(offline.errors)")
        #expect(offline.output == read.output)
        #expect(try server.requests().count == before)

        let liked = try await scenario.timeline.runOffThePool(["favourite", first[0]])
        #expect(liked.status == 0, "\(liked.errors)")
        let sent = try Self.calls(server, "app.bsky.feed.sendInteractions")
        #expect(sent.count == 1, "\(sent)")
        #expect(sent.first?["proxy"] as? String == "did:web:feeds.loopback.test#bsky_fg")
        #expect((sent.first?["body"] as? [String: Any])?["feed"] as? String == Self.discover)
        let interactions = try #require((sent.first?["body"] as? [String: Any])?["interactions"] as? [[String: Any]])
        #expect(interactions.count == 1)
        #expect(interactions[0]["item"] as? String == first[1])
        #expect(interactions[0]["event"] as? String == "app.bsky.feed.defs#interactionLike")
        #expect(interactions[0]["feedContext"] as? String == "ctx-whats-hot-0")
        #expect(interactions[0]["reqId"] as? String == "req-0")
        // The like itself was made, once.
        #expect(try Self.records(server) == 1)
    }

    @Test func aFailedInteractionNeverFailsTheLike() async throws {
        let (server, scenario) = try Self.loggedIn()
        let reference = try SourceTimelineCommandTests.firstShown(scenario, ["feed", Self.discover, "-n", "3"]).ref
        _ = try server.control("faults", [["nsid": "app.bsky.feed.sendInteractions", "status": 500, "times": 1]])
        let liked = try await scenario.timeline.runOffThePool(["favourite", reference])
        #expect(liked.status == 0, "\(liked.errors)")
        #expect(try !Self.calls(server, "app.bsky.feed.sendInteractions").isEmpty)
        #expect(try Self.records(server) == 1)
    }

    @Test func aReplyToAPostOfAFeedIsToldToItsGeneratorWithThePostReplied() async throws {
        let (server, scenario) = try Self.loggedIn()
        let shown = try SourceTimelineCommandTests.firstShown(scenario, ["feed", "whats-hot", "-n", "3"])
        let reply = try await scenario.timeline.runOffThePool(["post", "--reply-to", shown.ref, "About that"])
        #expect(reply.status == 0, "\(reply.errors)")
        let sent = try Self.calls(server, "app.bsky.feed.sendInteractions")
        let interactions = try #require((sent.first?["body"] as? [String: Any])?["interactions"] as? [[String: Any]])
        #expect(sent.count == 1 && interactions.count == 1, "\(sent)")
        #expect(interactions.first?["event"] as? String == "app.bsky.feed.defs#interactionReply")
        #expect(interactions.first?["item"] as? String == shown.id)
    }

    @Test func aFeedNamedByNoSavedFeedIsRefusedBeforeAnyFetch() async throws {
        let (server, scenario) = try Self.loggedIn()
        let read = try await scenario.timeline.runOffThePool(["feed", "nonesuch"])
        #expect(read.status == 64)
        #expect(read.errors.contains("`timeline feeds` lists them"), "\(read.errors)")
        #expect(try Self.calls(server, "app.bsky.feed.getFeed").isEmpty)
    }

    @Test func homeSetToAFeedMakesSyncReadItIntoTheMainTimelineAndBack() async throws {
        let (server, scenario) = try Self.loggedIn(posts: 10)
        #expect(try await scenario.timeline.runOffThePool(["sync"]).status == 0)
        let said = try await scenario.timeline.runOffThePool(["home"])
        #expect(said.output == "me.loopback.test: Following\n", "\(said.output)")
        let set = try await scenario.timeline.runOffThePool(["home", "--set", "Discover"])
        #expect(set.status == 0, "\(set.errors)")
        #expect(set.output == "me.loopback.test's home is now the feed Discover (whats-hot).\n", "\(set.output)")
        #expect(try await scenario.timeline.runOffThePool(["home"]).output == "me.loopback.test: the feed whats-hot (\(Self.discover))\n")
        let listed = try await scenario.timeline.runOffThePool(["feeds"])
        #expect(listed.output.contains("* whats-hot  Discover  \(Self.discover)  (home)"), "\(listed.output)")

        let notifications = try await scenario.timeline.runOffThePool(["show", "--notifications", "--json"]).output
        let sync = try await scenario.timeline.runOffThePool(["sync"])
        #expect(sync.status == 0, "\(sync.errors)")
        #expect(try Self.calls(server, "app.bsky.feed.getTimeline").count == 1)
        // The notifications are not the home: they stay as they were.
        #expect(try await scenario.timeline.runOffThePool(["show", "--notifications", "--json"]).output == notifications)
        let home = try #require(try Self.calls(server, "app.bsky.feed.getFeed").first)
        #expect((home["query"] as? String)?.contains("whats-hot") == true, "\(home)")
        // Started afresh, as a first sync: a full page, not the probe of one item of a synced home.
        #expect((home["query"] as? String)?.contains("limit=100") == true, "\(home)")
        let shown = try await scenario.timeline.runOffThePool(["show", "-n", "100", "--format", "{id}"])
        #expect(!shown.output.isEmpty)
        // A like in the main timeline of a post its home feed served is told to that feed too.
        let reference = try #require(try await scenario.timeline.runOffThePool(["show", "-n", "1", "--format", "{ref}"]).output.split(separator: "\n").first)
        #expect(try await scenario.timeline.runOffThePool(["favourite", String(reference)]).status == 0)
        #expect(try Self.calls(server, "app.bsky.feed.sendInteractions").count == 1)

        let back = try await scenario.timeline.runOffThePool(["home", "--set", "following"])
        #expect(back.status == 0 && back.output.contains("home is now Following"), "\(back.output)")
        #expect(try await scenario.timeline.runOffThePool(["sync"]).status == 0)
        #expect(try Self.calls(server, "app.bsky.feed.getTimeline").count == 2)
        // The posts stored from the feed stay.
        let after = try await scenario.timeline.runOffThePool(["show", "-n", "100", "--format", "{id}"])
        #expect(Set(shown.output.split(separator: "\n")).isSubset(of: Set(after.output.split(separator: "\n"))))
    }

    @Test func aListCannotBeTheHome() async throws {
        let (server, scenario) = try Self.loggedIn()
        let set = try await scenario.timeline.runOffThePool(["home", "--set", "3kfriends"])
        #expect(set.status == 64)
        #expect(set.errors.contains("a list cannot be the home"), "\(set.errors)")
        #expect(try await scenario.timeline.runOffThePool(["home"]).output == "me.loopback.test: Following\n")
        #expect(try Self.calls(server, "app.bsky.feed.getFeedGenerators").count == 1)
    }

    @Test func aMastodonAccountIsRefusedInOneLineBeforeAnyRequest() async throws {
        let server = try MastodonTestServer()
        let scenario = try SyncCommandTests.loggedIn(to: server)
        let before = try server.requests().count
        for arguments in [["feeds"], ["feed", "whats-hot"], ["home", "--set", "whats-hot"]] {
            let refused = try await scenario.timeline.runOffThePool(arguments)
            #expect(refused.status == 64, "\(arguments)")
            #expect(refused.errors.split(separator: "\n").count == 1, "\(refused.errors)")
            #expect(refused.errors.contains("Mastodon has no custom feeds"), "\(refused.errors)")
        }
        #expect(try await scenario.timeline.runOffThePool(["home"]).output.hasSuffix(": its server's home timeline\n"))
        #expect(try server.requests().count == before)
    }
}
