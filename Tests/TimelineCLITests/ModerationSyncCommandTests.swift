import Foundation
import Testing
import TimelineKit

/// What the person chose not to see on their servers stays out of `show` and of the snapshot
/// file after a `sync` (issue 34), against the loopback servers.
@Suite(.serialized) struct ModerationSyncCommandTests {
    @Test func aWordMutedInBlueskysPreferencesHidesAStoredAndANewPostFromShowAndTheSnapshot() throws {
        let server = try BlueskyTestServer.start(posts: 20)
        let scenario = try BlueskyCommandTests.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        let before = try scenario.timeline.run(["show", "-n", "100", "--json"])
        #expect(before.output.contains("coffee and code"))
        #expect(try scenario.timeline.run(["snapshot", "--dump"]).output.contains("coffee and code"))

        _ = try server.control("preferences", ["body": #"{"preferences":[{"$type":"app.bsky.actor.defs#mutedWordsPref","items":[{"value":"Coffee","targets":["content","tag"],"actorTarget":"all"}]}]}"#])
        _ = try server.control("posts", ["count": 5])
        let sync = try scenario.timeline.run(["sync"])
        #expect(sync.status == 0, "\(sync.errors)")
        let after = try scenario.timeline.run(["show", "-n", "100", "--json"])
        #expect(after.status == 0)
        #expect(!after.output.contains("coffee and code"), "\(after.output)")
        #expect(after.output.contains("a walk by the river"))
        // A new post (number 21) said it, and a stored one (number 1) did.
        #expect(!after.output.contains("Sky post 21:") && !after.output.contains("Sky post 1:"))
        #expect(after.output.contains("Sky post 22:"))
        let dump = try scenario.timeline.run(["snapshot", "--dump"])
        #expect(dump.status == 0)
        #expect(!dump.output.contains("coffee and code"))
        #expect(try scenario.timeline.run(["show", "-n", "100"]).output.contains("a walk by the river"))
        #expect(!(try scenario.timeline.run(["show", "-n", "100", "--color", "never"]).output.contains("coffee")))
    }

    @Test func aLabelFromBlueskysModerationHidesAPostAndOneFromAnUnsubscribedLabelerDoesNot() throws {
        let server = try BlueskyTestServer.start(posts: 10)
        let scenario = try BlueskyCommandTests.loggedIn(to: server)
        let posts = try scenario.timeline.run(["sync"])
        #expect(posts.status == 0)
        let shown = try scenario.timeline.run(["show", "-n", "100", "--json"]).output
        let uris = shown.split(separator: "\n").compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let id = object["id"] as? String, id.contains("app.bsky.feed.post"), object["repost_of"] == nil else { return nil }
            return id
        }
        #expect(uris.count >= 3)
        _ = try server.control("label", ["uri": uris[0], "val": "porn", "src": "did:plc:ar7c4by46qjdydhdevvrndac"])
        _ = try server.control("label", ["uri": uris[1], "val": "!hide", "src": "did:plc:notsubscribed"])
        // The labelled posts come again only when the AppView sends them again: a fresh
        // database's first sync reads the whole timeline.
        let fresh = try BlueskyCommandTests.loggedIn(to: server)
        #expect(try fresh.timeline.run(["sync"]).status == 0)
        let after = try fresh.timeline.run(["show", "-n", "100", "--json"]).output
        #expect(!after.contains("\"" + uris[0] + "\""), "adult content is off by default: porn is hidden")
        #expect(after.contains("\"" + uris[1] + "\""), "a labeler the person does not subscribe to is ignored")
        let requests = try server.requests().filter { ($0["nsid"] as? String) == "app.bsky.feed.getTimeline" }
        #expect(requests.allSatisfy { ($0["accept_labelers"] as? String) == "did:plc:ar7c4by46qjdydhdevvrndac;redact" })
    }

    @Test func aMastodonFilterHidesStoredPostsAtTheNextSyncAndAServerWithoutFiltersIsSaidOnce() throws {
        let server = try MastodonTestServer(statuses: 40)
        let ids = try #require(try server.state()["status_ids"] as? [String])
        _ = try server.control("set_status", ["id": ids[3], "fields": ["content": "<p>Watching DUNE tonight</p>"]])
        _ = try server.control("set_status", ["id": ids[5], "fields": ["spoiler_text": "dune spoilers", "content": "<p>the end</p>"]])
        let scenario = try SyncCommandTests.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        let before = try scenario.timeline.run(["show", "-n", "100", "--json"]).output
        #expect(before.contains("Watching DUNE tonight") && before.contains("dune spoilers"))
        _ = try server.control("filters", [["title": "Dune", "context": ["home"], "filter_action": "hide",
                                             "keywords": [["keyword": "dune", "whole_word": true]]]])
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        let after = try scenario.timeline.run(["show", "-n", "100", "--json"])
        // The post that says it, and the one whose content warning does (Mastodon matches
        // spoiler_text too), both stored before the filter was made.
        #expect(!after.output.contains("DUNE") && !after.output.contains("dune spoilers"), "\(after.output)")
        #expect(after.output.contains("\"id\":\"127.0.0.1:"))
        let dump = try scenario.timeline.run(["snapshot", "--dump"]).output
        #expect(!dump.contains("DUNE") && !dump.contains("dune spoilers"))

        let older = try MastodonTestServer(statuses: 5)
        _ = try older.control("settings", ["missing": ["/api/v2/filters"], "missing_as": "404"])
        let other = try SyncCommandTests.loggedIn(to: older)
        let first = try other.timeline.run(["sync"])
        #expect(first.status == 0)
        #expect(first.errors.contains("this server has no filters (v2)"), "\(first.errors)")
        let second = try other.timeline.run(["sync"])
        #expect(second.status == 0)
        #expect(!second.errors.contains("filters"), "\(second.errors)")
    }
}
