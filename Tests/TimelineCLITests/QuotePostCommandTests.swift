import Foundation
import Testing
import TimelineKit

/// `post --quote` (issue 27): Bluesky embeds the quoted post's strong reference; Mastodon sends
/// `quoted_status_id` only to a server that announces the quotes API, and refuses elsewhere
/// before anything is sent.
@Suite struct QuotePostCommandTests {
    @Test func aMastodonServerWithoutTheQuotesAPIRefusesTheQuoteBeforeAnythingIsPosted() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        #expect(try home.timeline.run(["sync"]).status == 0)
        let (ref, _) = try MessageActionCommandTests.someoneElses(home, on: server)
        let refused = try home.timeline.run(["post", "--quote", ref, "This, exactly."])
        #expect(refused.status == 69, "\(refused.errors)")
        #expect(refused.errors.contains("does not support quote posts"), "\(refused.errors)")
        #expect(try EditAndVoteCommandTests.sent(server, "POST", "/api/v1/statuses").isEmpty)
        #expect(refused.output.isEmpty)
    }

    @Test func aMastodonServerWithTheQuotesAPIGetsTheQuotedStatusAndTheQuoteIsStored() throws {
        let server = try MastodonTestServer()
        try server.control("settings", ["api_versions": ["mastodon": 7]])
        let home = try SyncCommandTests.loggedIn(to: server)
        #expect(try home.timeline.run(["sync"]).status == 0)
        let (ref, id) = try MessageActionCommandTests.someoneElses(home, on: server)
        let serverID = String(id.split(separator: "/").last!)
        let posted = try home.timeline.run(["post", "--json", "--quote", ref, "This, exactly."])
        #expect(posted.status == 0, "\(posted.errors)")
        let sent = try #require(try EditAndVoteCommandTests.sent(server, "POST", "/api/v1/statuses").last?["json"] as? [String: Any])
        #expect(sent["quoted_status_id"] as? String == serverID)
        #expect(sent["status"] as? String == "This, exactly.")
        let newest = try #require(try server.state()["newest_status_id"] as? String)
        let stored = "127.0.0.1:\(server.port)/\(newest)"
        #expect(posted.output.contains("\"id\":\"\(stored)\""), "\(posted.output)")
        #expect(try home.sqlite("SELECT quote_of_id FROM messages WHERE id = '\(stored)'") == id)
    }

    @Test func aBlueskyQuoteEmbedsTheQuotedPostByURIAndCID() throws {
        let server = try BlueskyTestServer.start(posts: 30)
        let scenario = try BlueskyCommandTests.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        let (ref, uri) = try MessageActionCommandTests.someoneElses(scenario, own: BlueskyTestServer.handle)
        let posted = try scenario.timeline.run(["post", "--quote", ref, "Worth reading"])
        #expect(posted.status == 0, "\(posted.errors)")
        let created = try #require((try server.state()["created"] as? [[String: Any]])?.last)
        let record = try #require(created["record"] as? [String: Any])
        let embed = try #require(record["embed"] as? [String: Any])
        #expect(embed["$type"] as? String == "app.bsky.embed.record")
        let strong = try #require(embed["record"] as? [String: String])
        #expect(strong["uri"] == uri && strong["cid"]?.isEmpty == false)
        let postURI = try #require(created["uri"] as? String)
        #expect(try scenario.sqlite("SELECT quote_of_id FROM messages WHERE id = '\(postURI)'") == uri)
        // The paint shows the quoted post inside it.
        let shown = try scenario.timeline.run(["show", "-n", "5", "--color", "never"]).output
        #expect(shown.contains("Worth reading") && shown.contains("❝"), "\(shown)")
    }
}
