import Foundation
import Testing
import TimelineKit

/// `edit` and `vote` (issue 27) against the loopback servers: what is sent, what is stored and
/// painted, what is refused before anything is sent, and Bluesky's refusals.
@Suite(.serialized) struct EditAndVoteCommandTests {
    /// The newest status of `server` made the tester's own, with a content warning, a photo
    /// and a language an edit must send again; synced. Answers its short reference and server ID.
    static func ownStatusWithMedia(_ server: MastodonTestServer, _ home: Scenario) throws -> (ref: String, serverID: String) {
        let serverID = try #require(try server.state()["newest_status_id"] as? String)
        let photo: [String: Any] = ["id": "777", "type": "image", "url": "https://loopback.test/m/777.png",
                                    "preview_url": "https://loopback.test/m/777s.png", "description": "a photo"]
        try server.control("set_status", ["id": serverID, "fields": ["mine": true, "spoiler_text": "film spoilers", "sensitive": true,
                                                                      "media_attachments": [photo], "language": "fr"] as [String: Any]])
        #expect(try home.timeline.run(["sync"]).status == 0)
        let line = try #require(try home.timeline.run(["show", "-n", "200", "--format", "{ref} {id}"]).output
            .split(separator: "\n").first { $0.hasSuffix("/" + serverID) })
        return (String(line.split(separator: " ")[0]), serverID)
    }

    static func sent(_ server: MastodonTestServer, _ method: String, _ path: String) throws -> [[String: Any]] {
        try server.requests().filter { ($0["method"] as? String) == method && ($0["path"] as? String) == path }
    }

    @Test func anEditChangesTheTextOnlyAndIsStoredAndPaintedEdited() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        let (ref, serverID) = try Self.ownStatusWithMedia(server, home)
        #expect(!(try MessageActionCommandTests.entry(home, ref: ref)).contains("· edited"))

        let edited = try home.timeline.run(["edit", ref, "Shipping tomorrow, not today"])
        #expect(edited.status == 0, "\(edited.errors)")
        #expect(edited.output.hasPrefix("Edited \(ref) by @tester as "), "\(edited.output)")
        #expect(edited.output.split(separator: "\n").count == 1)
        // What was sent: the new text, and the content warning, photo and language again.
        let put = try #require(try Self.sent(server, "PUT", "/api/v1/statuses/\(serverID)").last?["json"] as? [String: Any])
        #expect(put["status"] as? String == "Shipping tomorrow, not today")
        #expect(put["spoiler_text"] as? String == "film spoilers")
        #expect(put["sensitive"] as? Bool == true)
        #expect(put["media_ids"] as? [String] == ["777"])
        #expect(put["language"] as? String == "fr")
        // Stored and painted as edited, from a fresh snapshot.
        #expect(try home.timeline.run(["snapshot", "--check"]).status == 0)
        let entry = try MessageActionCommandTests.entry(home, ref: ref)
        #expect(entry.contains("· edited"), "\(entry)")
        let text = try home.timeline.run(["show", "-n", "200", "--format", "{ref} {text}"]).output
        #expect(text.contains("\(ref) Shipping tomorrow, not today"), "\(text)")

        let json = try home.timeline.run(["edit", "--json", ref, "-"], input: Data("From a pipe\n".utf8))
        #expect(json.status == 0, "\(json.errors)")
        #expect(json.output.hasPrefix("{\"action\":\"edit\",\"id\":\"127.0.0.1:\(server.port)/\(serverID)\",\"account\":"), "\(json.output)")
        #expect(json.output.contains("\"edited_at\":\"20"), "\(json.output)")
        #expect(try server.status(serverID)?["content"] as? String == "<p>From a pipe</p>")
    }

    /// Issue 34: Takahē answered an edit of an unlisted post with the post made public, and the
    /// tool said nothing. The edit says it in one line, and `--json` carries both audiences.
    @Test func anEditWhoseServerWidenedThePostSaysSo() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        let (ref, serverID) = try Self.ownStatusWithMedia(server, home)
        try server.control("set_status", ["id": serverID, "fields": ["visibility": "unlisted", "edit_sets_visibility": "public"] as [String: Any]])
        let edited = try home.timeline.run(["edit", ref, "A new text"])
        #expect(edited.status == 0, "\(edited.errors)")
        #expect(edited.output.hasPrefix("Edited \(ref)"), "\(edited.output)")
        #expect(edited.errors.contains("the server made \(ref)") && edited.errors.contains("public (it was unlisted)"), "\(edited.errors)")
        #expect(edited.errors.split(separator: "\n").count == 1, "\(edited.errors)")
        try server.control("set_status", ["id": serverID, "fields": ["visibility": "private", "edit_sets_visibility": "public"] as [String: Any]])
        let json = try home.timeline.run(["edit", "--json", ref, "Again"])
        #expect(json.status == 0, "\(json.errors)")
        #expect(json.output.contains("\"visibility\":\"public\",\"visibility_before\":\"private\""), "\(json.output)")
        // An edit that leaves the audience as it was says nothing of it.
        try server.control("set_status", ["id": serverID, "fields": ["visibility": "unlisted", "edit_sets_visibility": "unlisted"] as [String: Any]])
        let quiet = try home.timeline.run(["edit", ref, "Once more"])
        #expect(quiet.status == 0 && quiet.errors.isEmpty, "\(quiet.errors)")
    }

    @Test(.enabled(if: Tmux.isAvailable, "tmux is installed by `make deps`"))
    func anEditWithNoTextAtATerminalOpensTheEditorOnTheCurrentText() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        let (ref, serverID) = try Self.ownStatusWithMedia(server, home)
        #expect(try home.timeline.run(["edit", ref, "The text as written"]).status == 0)

        let screen = try DraftEditorCommandTests.runInTerminal(home, ["edit", ref], writing: "A better text\n")
        #expect(screen.contains("EXIT=0"), "\(screen)")
        let template = try String(contentsOfFile: home.directory + "/template", encoding: .utf8)
        #expect(template.hasPrefix("The text as written\n\n# Change the post's text above this line."), "\(template)")
        // The editor's script put its text above what was there: both lines are the new text.
        #expect(try server.status(serverID)?["content"] as? String == "<p>A better text\nThe text as written</p>")

        // Left as it was: nothing is sent.
        let puts = try Self.sent(server, "PUT", "/api/v1/statuses/\(serverID)").count
        let unchanged = try DraftEditorCommandTests.runInTerminal(home, ["edit", ref], writing: nil)
        #expect(unchanged.contains("EXIT=0") && unchanged.contains("is as it was: nothing was sent"), "\(unchanged)")
        #expect(try Self.sent(server, "PUT", "/api/v1/statuses/\(serverID)").count == puts)
    }

    @Test func someoneElsesPostOrOneWithAPollIsNotEdited() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        #expect(try home.timeline.run(["sync"]).status == 0)
        let (ref, id) = try MessageActionCommandTests.someoneElses(home, on: server)
        // Refused before the request: servers word it differently (Mastodon 403, Takahē a 401
        // that reads as a revoked token, which would send the person to log in again).
        let refused = try home.timeline.run(["edit", ref, "Not mine"])
        #expect(refused.status == 65, "\(refused.errors)")
        #expect(refused.errors == "timeline: \"\(ref)\": the post is not yours: only its author can edit it. Nothing was sent.\n", "\(refused.errors)")
        #expect(!(try MessageActionCommandTests.entry(home, ref: ref)).contains("· edited"))

        let serverID = String(id.split(separator: "/").last!)
        try server.control("set_status", ["id": serverID, "fields": ["mine": true, "poll": Self.poll(id: "9")] as [String: Any]])
        let poll = try home.timeline.run(["edit", ref, "New"])
        #expect(poll.status == 65)
        #expect(poll.errors == "timeline: \"\(ref)\": the post has a poll, and an edit would reset its votes; edit it in your server's web app. Nothing was changed.\n", "\(poll.errors)")
        #expect(try Self.sent(server, "PUT", "/api/v1/statuses/\(serverID)").isEmpty)
    }

    /// What `show` paints (a poll's lines are part of its post's text, which may hold empty lines).
    static func painted(_ scenario: Scenario) throws -> String {
        try scenario.timeline.run(["show", "-n", "60", "--color", "never", "--width", "100"]).output
    }

    static func poll(id: String, multiple: Bool = false) -> [String: Any] {
        ["id": id, "expires_at": NSNull(), "expired": false, "multiple": multiple, "votes_count": 3, "voters_count": 3,
         "options": [["title": "Tabs", "votes_count": 1], ["title": "Spaces", "votes_count": 2]] as [[String: Any]],
         "emojis": [] as [Any], "voted": false, "own_votes": [] as [Any]]
    }

    @Test func aVoteIsCheckedAgainstThePollSentAndItsCountsStored() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        let serverID = try #require(try server.state()["newest_status_id"] as? String)
        try server.control("set_status", ["id": serverID, "fields": ["poll": Self.poll(id: "55")] as [String: Any]])
        #expect(try home.timeline.run(["sync"]).status == 0)
        let (ref, id) = try MessageActionCommandTests.someoneElses(home, on: server)
        #expect(id.hasSuffix("/" + serverID))
        // `show` lists the options a person chooses from.
        #expect(try Self.painted(home).contains("Poll, 3 votes, open:\n  - Tabs: 1 (33%)\n  - Spaces: 2 (67%)"))

        for (choices, refusal) in [(["3"], "the poll has 2 options, numbered 1 to 2"), (["1", "2"], "the poll takes one choice")] {
            let refused = try home.timeline.run(["vote", ref] + choices)
            #expect(refused.status == 65, "\(refused.errors)")
            #expect(refused.errors.contains(refusal), "\(refused.errors)")
        }
        #expect(try home.timeline.run(["vote", ref, "0"]).status == 64)
        #expect(try Self.sent(server, "POST", "/api/v1/polls/55/votes").isEmpty)

        let voted = try home.timeline.run(["vote", "--json", ref, "2"])
        #expect(voted.status == 0, "\(voted.errors)")
        #expect(voted.output == "{\"action\":\"vote\",\"id\":\"\(id)\",\"account\":\"tester@127.0.0.1:\(server.port)\",\"choices\":[2],"
            + "\"options\":[{\"title\":\"Tabs\",\"votes\":1},{\"title\":\"Spaces\",\"votes\":3}]}\n", "\(voted.output)")
        let sent = try #require(try Self.sent(server, "POST", "/api/v1/polls/55/votes").first?["json"] as? [String: Any])
        #expect(sent["choices"] as? [String] == ["1"])
        // The new counts are stored and painted, from a fresh snapshot.
        #expect(try home.timeline.run(["snapshot", "--check"]).status == 0)
        let painted = try Self.painted(home)
        #expect(painted.contains("Poll, 4 votes, open:\n  - Tabs: 1 (25%)\n  - Spaces: 3 (75%)"), "\(painted)")

        let again = try home.timeline.run(["vote", ref, "1"])
        #expect(again.status == 65)
        #expect(again.errors.contains("you have voted in this poll already"), "\(again.errors)")
        #expect(try Self.sent(server, "POST", "/api/v1/polls/55/votes").count == 1)

        let plain = try MessageActionCommandTests.someoneElses(home, own: "tester", serverID: try #require(
            (try server.state()["status_ids"] as? [String])?[3]))
        let noPoll = try home.timeline.run(["vote", plain.ref, "1"])
        #expect(noPoll.status == 65)
        #expect(noPoll.errors.contains("the post has no poll"), "\(noPoll.errors)")
    }

    @Test func blueskyRefusesEditsAndVotesInItsOwnWordsBeforeAnyRequest() throws {
        let server = try BlueskyTestServer.start(posts: 30)
        let scenario = try BlueskyCommandTests.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        let (ref, _) = try MessageActionCommandTests.someoneElses(scenario, own: BlueskyTestServer.handle)
        let edit = try scenario.timeline.run(["edit", ref, "new text"])
        #expect(edit.status == 64)
        #expect(edit.errors.contains("Bluesky posts cannot be edited"), "\(edit.errors)")
        let vote = try scenario.timeline.run(["vote", ref, "1"])
        #expect(vote.status == 64)
        #expect(vote.errors.contains("Bluesky posts have no polls"), "\(vote.errors)")
        #expect((try server.state()["created"] as? [[String: Any]] ?? []).isEmpty)
    }
}
