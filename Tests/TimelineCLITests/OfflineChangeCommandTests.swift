import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Issue 27, "Offline and failures", for posts, replies, edits, votes, follows, unfollows and
/// deletes (the outbox): a change whose server cannot be reached is kept (a post shown at the
/// top of `show`, pending), sent by the next sync exactly once (also when the process was killed
/// between the request and the answer), and one the server refuses is said and leaves nothing
/// pending. Against the loopback servers, which fail, hold answers back and count effects.
@Suite struct OfflineChangeCommandTests {
    typealias Offline = OfflineActionCommandTests

    /// Waits (60 s at most: a loaded machine starts a process slowly) until `condition` holds.
    /// The answers the tests wait behind are held back for 120 s, well past that.
    static func waitUntil(_ what: String, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(60)
        while try !condition() {
            guard Date() < deadline else { throw Offline.TestFailure(what) }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// The status IDs the Mastodon server holds.
    static func statusIDs(_ server: MastodonTestServer) throws -> [String] {
        try server.state()["status_ids"] as? [String] ?? []
    }

    /// The painted timeline's top entries.
    static func painted(_ scenario: Scenario, count: Int = 5) throws -> String {
        try scenario.timeline.run(["show", "-n", "\(count)", "--color", "never", "--width", "100"]).output
    }

    /// The painted entry of `ref`, poll lines included (they follow a blank line): from its
    /// header to the next header.
    static func entry(_ scenario: Scenario, ref: String) throws -> String {
        let lines = try painted(scenario, count: 60).split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.hasSuffix(" · " + ref) || $0.contains(" · \(ref) · ") })
        let end = lines[(start + 1)...].firstIndex { line in
            line.split(separator: " · ").last.map { $0.count <= 4 && $0.allSatisfy(\.isLetter) && $0 != Substring(ref) } == true
                && line.contains(" · ")
        } ?? lines.endIndex
        return lines[start ..< end].joined(separator: "\n")
    }

    /// The status `serverID` as the Mastodon server answers it to the account.
    static func status(_ server: MastodonTestServer, _ serverID: String) throws -> [String: Any]? {
        var request = URLRequest(url: URL(string: "\(server.baseURL)/api/v1/statuses/\(serverID)")!)
        request.setValue("Bearer \(MastodonTestServer.token)", forHTTPHeaderField: "Authorization")
        request.timeoutInterval = 30
        return try JSONSerialization.jsonObject(with: MastodonTestServer.fetch(request)) as? [String: Any]
    }

    /// The post records the Bluesky server made whose text is `text`.
    static func blueskyPosts(_ server: MastodonTestServer, text: String) throws -> [String] {
        (try server.state()["created"] as? [[String: Any]] ?? []).compactMap { created in
            guard let uri = created["uri"] as? String, uri.contains("/app.bsky.feed.post/"),
                  (created["record"] as? [String: Any])?["text"] as? String == text else { return nil }
            return uri
        }
    }

    /// The follow records the Bluesky server made.
    static func blueskyFollows(_ server: MastodonTestServer) throws -> [String] {
        (try server.state()["created"] as? [[String: Any]] ?? []).compactMap { $0["uri"] as? String }
            .filter { $0.contains("/app.bsky.graph.follow/") }
    }

    // MARK: Posts

    @Test func aMastodonPostOfflineIsKeptShownPendingAndPublishedOnceByTheNextSync() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        #expect(try home.timeline.run(["sync"]).status == 0)
        let before = try Self.statusIDs(server).count
        // Both tries of the command answered 503.
        try server.control("faults", ["path": "/api/v1/statuses", "status": 503, "times": 2])
        let text = "Written on a train without signal"
        let kept = try home.timeline.run(["post", text])
        #expect(kept.status == 0, "\(kept.errors)")
        #expect(kept.output.hasPrefix("Not sent yet: the post ") && kept.output.contains("is kept and sent by the next `timeline sync`"), "\(kept.output)")
        #expect(kept.output.split(separator: "\n").count == 1)
        #expect(try Self.statusIDs(server).count == before)

        // At the top of `show`, pending, from the snapshot the command rewrote.
        #expect(try home.timeline.run(["snapshot", "--check"]).status == 0)
        let top = try Self.painted(home, count: 1)
        #expect(top.contains(text) && top.contains("⋯ pending"), "\(top)")
        // Counted with the actions that wait, where `accounts` and `doctor` say so.
        #expect(try home.timeline.run(["accounts", "--json"]).output.contains("\"pending_actions\":1"))

        let synced = try home.timeline.run(["sync"])
        #expect(synced.status == 0, "\(synced.errors)")
        #expect(synced.output.contains("; sent 1 post that waited."), "\(synced.output)")
        // Published once, every try with the key chosen when it was queued.
        #expect(try Self.statusIDs(server).count == before + 1)
        let posts = try Offline.requests(server, "POST", "/api/v1/statuses")
        #expect(posts.count == 3)
        let keys = Set(posts.map { $0["idempotency_key"] as? String ?? "" })
        #expect(keys.count == 1 && keys.first?.count == 13, "\(keys)")
        let after = try Self.painted(home)
        #expect(after.components(separatedBy: text).count == 2 && !after.contains("pending"), "\(after)")

        // Nothing is left to send.
        let again = try home.timeline.run(["sync", "--json"])
        #expect(again.output.contains("\"changes\":{\"sent\":[],\"refused\":[]}"), "\(again.output)")
        #expect(try Offline.requests(server, "POST", "/api/v1/statuses").count == 3)
    }

    /// The post reached the server, which published it, and the command was killed before the
    /// answer came: the waiting post survived, and the sync's try with the same key gets the
    /// same status back (Mastodon's Idempotency-Key) instead of a second one.
    @Test func aMastodonPostWhoseAnswerWasLostToAKillIsPublishedOnce() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        #expect(try home.timeline.run(["sync"]).status == 0)
        let before = try Self.statusIDs(server).count
        try server.control("faults", ["path": "/api/v1/statuses", "hold": 120])
        let text = "A reply that must not be sent twice"
        let command = try home.timeline.start(["post", text])
        try Self.waitUntil("the post published at the server") { try Self.statusIDs(server).count == before + 1 }
        kill(command.processIdentifier, SIGKILL)
        command.waitUntilExit()
        #expect(command.terminationReason == .uncaughtSignal)
        let waiting = try Self.painted(home, count: 1)
        #expect(waiting.contains(text) && waiting.contains("⋯ pending"), "\(waiting)")

        let synced = try home.timeline.run(["sync", "--json"])
        #expect(synced.status == 0, "\(synced.errors)")
        #expect(synced.output.contains("\"changes\":{\"sent\":[{\"kind\":\"post\",\"id\":\"127.0.0.1:\(server.port)/"), "\(synced.output)")
        #expect(try Self.statusIDs(server).count == before + 1)
        let posts = try Offline.requests(server, "POST", "/api/v1/statuses")
        #expect(posts.count == 2)
        #expect(Set(posts.map { $0["idempotency_key"] as? String ?? "" }).count == 1)
        let after = try Self.painted(home)
        #expect(after.components(separatedBy: text).count == 2 && !after.contains("pending"), "\(after)")
    }

    @Test func aPostTheServerRefusesSaysWhyAndLeavesNothingWaiting() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        #expect(try home.timeline.run(["sync"]).status == 0)
        let refusal: [String: Any] = ["path": "/api/v1/statuses", "status": 422,
                                      "body": ["error": "Validation failed: Text character limit of 500 exceeded"]]
        // Refused when asked: said, nothing kept.
        try server.control("faults", refusal)
        let refused = try home.timeline.run(["post", "Far too long, says the server"])
        #expect(refused.status != 0)
        #expect(refused.errors.contains("character limit of 500 exceeded"), "\(refused.errors)")
        #expect(!(try Self.painted(home)).contains("Far too long"))

        // Kept while the server could not be reached, refused by the sync: said, then gone.
        try server.control("faults", ["path": "/api/v1/statuses", "status": 503, "times": 2])
        #expect(try home.timeline.run(["post", "Also too long, it turns out"]).status == 0)
        #expect(try Self.painted(home, count: 1).contains("Also too long"))
        try server.control("faults", refusal)
        let synced = try home.timeline.run(["sync", "--json"])
        #expect(synced.status == 0, "\(synced.errors)")
        #expect(synced.output.contains("\"changes\":{\"sent\":[],\"refused\":[{\"kind\":\"post\",\"id\":\"outbox:"), "\(synced.output)")
        #expect(synced.errors.contains("the server refused the post \u{201C}Also too long, it turns out\u{201D}")
                && synced.errors.contains("character limit") && synced.errors.contains("It is no longer pending."), "\(synced.errors)")
        #expect(!(try Self.painted(home)).contains("Also too long"))
        let again = try home.timeline.run(["sync", "--json"])
        #expect(again.output.contains("\"changes\":{\"sent\":[],\"refused\":[]}"), "\(again.output)")
    }

    /// A login the server no longer accepts: the post is kept (exit 77, log in again), and the
    /// first sync that is let in publishes it.
    @Test func aPostRefusedItsLoginIsKeptUntilASyncIsLetIn() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        #expect(try home.timeline.run(["sync"]).status == 0)
        let before = try Self.statusIDs(server).count
        try server.control("faults", ["path": "/api/v1/statuses", "status": 401])
        let kept = try home.timeline.run(["post", "Said before the token was renewed"])
        #expect(kept.status == 77, "\(kept.errors)")
        #expect(kept.errors.contains("the post could not be sent now:") && kept.errors.contains("It is kept"), "\(kept.errors)")
        #expect(kept.errors.split(separator: "\n").count == 1 && kept.output.isEmpty, "\(kept.output)")
        #expect(try Self.painted(home, count: 1).contains("⋯ pending"))
        let synced = try home.timeline.run(["sync"])
        #expect(synced.status == 0 && synced.output.contains("; sent 1 post that waited."), "\(synced.output)\(synced.errors)")
        #expect(try Self.statusIDs(server).count == before + 1)
    }

    @Test func aBlueskyPostOfflineIsPublishedOnceByTheNextSyncUnderItsRecordKey() throws {
        let server = try BlueskyTestServer.start(posts: 10)
        let scenario = try BlueskyCommandTests.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        try server.control("faults", ["nsid": "com.atproto.repo.createRecord", "status": 503, "times": 2])
        let text = "Posted from a tunnel"
        let kept = try scenario.timeline.run(["post", text])
        #expect(kept.status == 0 && kept.output.hasPrefix("Not sent yet: the post "), "\(kept.output)\(kept.errors)")
        #expect(try Self.blueskyPosts(server, text: text).isEmpty)
        #expect(try Self.painted(scenario, count: 1).contains("⋯ pending"))

        let synced = try scenario.timeline.run(["sync"])
        #expect(synced.status == 0, "\(synced.errors)")
        #expect(synced.output.contains("; sent 1 post that waited."), "\(synced.output)")
        let made = try Self.blueskyPosts(server, text: text)
        #expect(made.count == 1)
        let creates = try Offline.calls(server, "com.atproto.repo.createRecord")
        let keys = Set(creates.map { ($0["body"] as? [String: Any])?["rkey"] as? String ?? "" })
        #expect(creates.count == 3 && keys.count == 1 && made.first?.hasSuffix("/" + (keys.first ?? "?")) == true, "\(keys) \(made)")
        let after = try Self.painted(scenario)
        #expect(after.contains(text) && !after.contains("pending"), "\(after)")
    }

    /// The record was written and the command killed before the answer: the sync's try with the
    /// same record key is told the record exists, which is the post published.
    @Test func aBlueskyPostWhoseAnswerWasLostToAKillMakesOneRecord() throws {
        let server = try BlueskyTestServer.start(posts: 10)
        let scenario = try BlueskyCommandTests.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        try server.control("faults", ["nsid": "com.atproto.repo.createRecord", "hold": 120])
        let text = "Exactly one of me"
        let command = try scenario.timeline.start(["post", text])
        try Self.waitUntil("the post written at the server") { try Self.blueskyPosts(server, text: text).count == 1 }
        kill(command.processIdentifier, SIGKILL)
        command.waitUntilExit()
        #expect(try Self.painted(scenario, count: 1).contains("⋯ pending"))

        let synced = try scenario.timeline.run(["sync"])
        #expect(synced.status == 0, "\(synced.errors)")
        #expect(synced.output.contains("; sent 1 post that waited."), "\(synced.output)")
        #expect(try Self.blueskyPosts(server, text: text).count == 1)
        #expect(try Offline.calls(server, "com.atproto.repo.createRecord").count == 2)
        let after = try Self.painted(scenario)
        #expect(after.components(separatedBy: text).count == 2 && !after.contains("pending"), "\(after)")
    }

    // MARK: Edits, votes, follows, deletes

    @Test func aMastodonEditOfflineIsKeptShownPendingAndSentOnce() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        let (ref, serverID) = try EditAndVoteCommandTests.ownStatusWithMedia(server, home)
        try server.control("faults", ["path": "/api/v1/statuses/\(serverID)", "status": 503, "times": 2])
        let kept = try home.timeline.run(["edit", ref, "Changed while offline"])
        #expect(kept.status == 0 && kept.output.hasPrefix("Not sent yet: the edit of \(ref)"), "\(kept.output)\(kept.errors)")
        #expect(try Offline.requests(server, "PUT", "/api/v1/statuses/\(serverID)").isEmpty)
        #expect(try Self.entry(home, ref: ref).contains("⋯ pending"))

        let synced = try home.timeline.run(["sync"])
        #expect(synced.status == 0 && synced.output.contains("; sent 1 edit that waited."), "\(synced.output)\(synced.errors)")
        #expect(try Offline.requests(server, "PUT", "/api/v1/statuses/\(serverID)").count == 1)
        let entry = try Self.entry(home, ref: ref)
        #expect(!entry.contains("pending"), "\(entry)")
        let text = try home.timeline.run(["show", "-n", "200", "--format", "{ref} {text}"]).output
        #expect(text.contains("\(ref) Changed while offline"), "\(text)")
        #expect(try home.timeline.run(["sync"]).status == 0)
        #expect(try Offline.requests(server, "PUT", "/api/v1/statuses/\(serverID)").count == 1)
    }

    /// Issue 34: a server that widens an edited post when the edit that waited reaches it (as
    /// Takahē does) is said by the sync, as `edit` says it at once.
    @Test func aMastodonEditOfflineThatTheServerWidensIsSaidByTheSync() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        let (ref, serverID) = try EditAndVoteCommandTests.ownStatusWithMedia(server, home)
        try server.control("set_status", ["id": serverID, "fields": ["visibility": "unlisted", "edit_sets_visibility": "public"] as [String: Any]])
        try server.control("faults", ["path": "/api/v1/statuses/\(serverID)", "status": 503, "times": 2])
        let kept = try home.timeline.run(["edit", ref, "Changed while offline"])
        #expect(kept.status == 0 && kept.output.hasPrefix("Not sent yet: the edit of \(ref)"), "\(kept.output)\(kept.errors)")
        let synced = try home.timeline.run(["sync"])
        #expect(synced.status == 0 && synced.output.contains("; sent 1 edit that waited."), "\(synced.output)\(synced.errors)")
        #expect(synced.errors.contains("public (it was unlisted) when the edit that waited reached it"), "\(synced.errors)")
    }

    /// The vote was counted and the command killed before the answer: the sync reads the poll
    /// first, finds the vote there, and sends none.
    @Test func aVoteWhoseAnswerWasLostToAKillIsCountedOnce() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        let serverID = try #require(try server.state()["newest_status_id"] as? String)
        try server.control("set_status", ["id": serverID, "fields": ["poll": EditAndVoteCommandTests.poll(id: "55")] as [String: Any]])
        #expect(try home.timeline.run(["sync"]).status == 0)
        let (ref, _) = try MessageActionCommandTests.someoneElses(home, on: server)
        try server.control("faults", ["path": "/api/v1/polls/55/votes", "hold": 120])
        let command = try home.timeline.start(["vote", ref, "2"])
        try Self.waitUntil("the vote counted at the server") {
            (try Self.status(server, serverID)?["poll"] as? [String: Any])?["voted"] as? Bool == true
        }
        kill(command.processIdentifier, SIGKILL)
        command.waitUntilExit()
        let waiting = try Self.entry(home, ref: ref)
        #expect(waiting.contains("⋯ pending"), "\(waiting)")

        let synced = try home.timeline.run(["sync"])
        #expect(synced.status == 0 && synced.output.contains("; sent 1 vote that waited."), "\(synced.output)\(synced.errors)")
        #expect(try Offline.requests(server, "POST", "/api/v1/polls/55/votes").count == 1)
        let poll = try #require(try Self.status(server, serverID)?["poll"] as? [String: Any])
        #expect(poll["votes_count"] as? Int == 4)
        let entry = try Self.entry(home, ref: ref)
        #expect(entry.contains("Spaces: 3") && !entry.contains("pending"), "\(entry)")
    }

    @Test func aVoteKeptOfflineInAPollThatEndsMeanwhileIsRefusedAtTheSync() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        let serverID = try #require(try server.state()["newest_status_id"] as? String)
        try server.control("set_status", ["id": serverID, "fields": ["poll": EditAndVoteCommandTests.poll(id: "56")] as [String: Any]])
        #expect(try home.timeline.run(["sync"]).status == 0)
        let (ref, _) = try MessageActionCommandTests.someoneElses(home, on: server)
        try server.control("faults", ["path": "/api/v1/statuses/\(serverID)", "status": 503, "times": 2])
        let kept = try home.timeline.run(["vote", ref, "1"])
        #expect(kept.status == 0 && kept.output.hasPrefix("Not sent yet: the vote in \(ref)"), "\(kept.output)\(kept.errors)")
        var ended = EditAndVoteCommandTests.poll(id: "56")
        ended["expired"] = true
        try server.control("set_status", ["id": serverID, "fields": ["poll": ended] as [String: Any]])
        let synced = try home.timeline.run(["sync"])
        #expect(synced.status == 0, "\(synced.errors)")
        #expect(synced.errors.contains("the server refused the vote in \(ref)") && synced.errors.contains("the poll has ended")
                && synced.errors.contains("It is no longer pending."), "\(synced.errors)")
        #expect(try Offline.requests(server, "POST", "/api/v1/polls/56/votes").isEmpty)
        #expect(!(try Self.entry(home, ref: ref)).contains("pending"))
    }

    /// A follow and then an unfollow, both while the server cannot be reached: sent by the sync
    /// in that order, once each.
    @Test func aMastodonFollowAndUnfollowOfflineAreSentInOrderOnceEach() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        try server.control("faults", ["path": "/api/v1/accounts", "status": 503, "times": 2])
        let kept = try home.timeline.run(["follow", "user1"])
        #expect(kept.status == 0 && kept.output.hasPrefix("Not sent yet: the follow of user1"), "\(kept.output)\(kept.errors)")
        try server.control("faults", ["path": "/api/v1/accounts", "status": 503, "times": 2])
        let json = try home.timeline.run(["follow", "--json", "user2"])
        #expect(json.status == 0 && json.output.contains("\"handle\":\"user2\"") && json.output.contains("\"pending\":true"), "\(json.output)")
        #expect(try server.control("follows") as? [String] == [])

        let synced = try home.timeline.run(["sync"])
        #expect(synced.status == 0 && synced.output.contains("; sent 2 follows that waited."), "\(synced.output)\(synced.errors)")
        #expect(Set(try server.control("follows") as? [String] ?? []) == ["user1", "user2"])
        let follows = try server.requests().filter { ($0["path"] as? String)?.hasSuffix("/follow") == true }
        #expect(follows.count == 2)

        // An unfollow kept, sent by the next sync.
        try server.control("faults", ["path": "/api/v1/accounts", "status": 503, "times": 2])
        #expect(try home.timeline.run(["unfollow", "user1"]).status == 0)
        let unfollowed = try home.timeline.run(["sync"])
        #expect(unfollowed.output.contains("; sent 1 unfollow that waited."), "\(unfollowed.output)")
        #expect(try server.control("follows") as? [String] == ["user2"])
    }

    @Test func aFollowRefusedAtTheSyncSaysWhyAndLeavesNothingWaiting() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        try server.control("faults", ["path": "/api/v1/accounts", "status": 503, "times": 2])
        #expect(try home.timeline.run(["follow", "user3"]).status == 0)
        try server.control("faults", ["path": "/api/v1/accounts", "status": 403, "body": ["error": "You are blocked by this account"]])
        let synced = try home.timeline.run(["sync", "--json"])
        #expect(synced.status == 0, "\(synced.errors)")
        #expect(synced.output.contains("\"changes\":{\"sent\":[],\"refused\":[{\"kind\":\"follow\",\"reason\":"), "\(synced.output)")
        #expect(synced.errors.contains("the server refused the follow of @user3") && synced.errors.contains("You are blocked")
                && synced.errors.contains("It is no longer pending."), "\(synced.errors)")
        let again = try home.timeline.run(["sync", "--json"])
        #expect(again.output.contains("\"pending\":0},\"changes\":{\"sent\":[],\"refused\":[]}"), "\(again.output)")
        #expect(try server.control("follows") as? [String] == [])
    }

    /// The delete was done and the command killed before the answer: the sync's try finds the
    /// post gone (404), which is the delete done.
    @Test func aMastodonDeleteOfflineOrWhoseAnswerWasLostIsDoneOnce() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        let (ref, serverID) = try EditAndVoteCommandTests.ownStatusWithMedia(server, home)
        try server.control("faults", ["path": "/api/v1/statuses/\(serverID)", "status": 503, "times": 2])
        let kept = try home.timeline.run(["delete", "--yes", ref])
        #expect(kept.status == 0 && kept.output.hasPrefix("Not sent yet: the delete of \(ref)"), "\(kept.output)\(kept.errors)")
        #expect(try Self.statusIDs(server).contains(serverID))
        #expect(try Self.entry(home, ref: ref).contains("⋯ pending"))
        try server.control("faults", ["path": "/api/v1/statuses/\(serverID)", "hold": 120])
        // Killed while the sync waits for the answer of the delete it did.
        let sync = try home.timeline.start(["sync"])
        try Self.waitUntil("the post deleted at the server") { try !Self.statusIDs(server).contains(serverID) }
        kill(sync.processIdentifier, SIGKILL)
        sync.waitUntilExit()

        // Two tries answered 503 by the command, one done by the killed sync: one more, 404.
        #expect(try Offline.requests(server, "DELETE", "/api/v1/statuses/\(serverID)").count == 3)
        let synced = try home.timeline.run(["sync"])
        #expect(synced.status == 0 && synced.output.contains("; sent 1 delete that waited."), "\(synced.output)\(synced.errors)")
        #expect(try Offline.requests(server, "DELETE", "/api/v1/statuses/\(serverID)").count == 4)
        let shown = try home.timeline.run(["show", "-n", "200", "--format", "{ref}"]).output
        #expect(!shown.split(separator: "\n").contains(Substring(ref)), "\(shown)")
        let again = try home.timeline.run(["sync", "--json"])
        #expect(again.output.contains("\"pending\":0},\"changes\":{\"sent\":[],\"refused\":[]}"), "\(again.output)")
    }

    /// A Bluesky follow written with the key chosen at queue time: the sync's retry after a kill
    /// writes the same record, not a second follow.
    @Test func aBlueskyFollowWhoseAnswerWasLostToAKillMakesOneRecord() throws {
        let server = try BlueskyTestServer.start(posts: 10)
        let scenario = try BlueskyCommandTests.loggedIn(to: server)
        try server.control("faults", ["nsid": "com.atproto.repo.putRecord", "hold": 120])
        let command = try scenario.timeline.start(["follow", "user1.loopback.test"])
        try Self.waitUntil("the follow written at the server") { try Self.blueskyFollows(server).count == 1 }
        kill(command.processIdentifier, SIGKILL)
        command.waitUntilExit()
        // The AppView does not show it yet: only the key keeps the retry from a second record.
        try server.control("lag", ["on": true])

        let synced = try scenario.timeline.run(["sync"])
        #expect(synced.status == 0 && synced.output.contains("; sent 1 follow that waited."), "\(synced.output)\(synced.errors)")
        let puts = try Offline.calls(server, "com.atproto.repo.putRecord")
        #expect(puts.count == 2)
        #expect(Set(puts.map { ($0["body"] as? [String: Any])?["rkey"] as? String ?? "" }).count == 1)
        #expect(try Self.blueskyFollows(server).count == 1)
        #expect((try server.state()["follows"] as? [String])?.count == 1)
    }

    @Test func aMastodonQuoteOfflineIsPublishedWithItsQuoteByTheNextSync() throws {
        let server = try MastodonTestServer()
        try server.control("settings", ["api_versions": ["mastodon": 7]])
        let home = try SyncCommandTests.loggedIn(to: server)
        #expect(try home.timeline.run(["sync"]).status == 0)
        let (ref, id) = try MessageActionCommandTests.someoneElses(home, on: server)
        try server.control("faults", ["path": "/api/v1/statuses", "method": "POST", "status": 503, "times": 2])
        let kept = try home.timeline.run(["post", "--quote", ref, "Quoted from the underground"])
        #expect(kept.status == 0 && kept.output.hasPrefix("Not sent yet: the quote "), "\(kept.output)\(kept.errors)")
        let synced = try home.timeline.run(["sync"])
        #expect(synced.status == 0 && synced.output.contains("; sent 1 post that waited."), "\(synced.output)\(synced.errors)")
        let posts = try Offline.requests(server, "POST", "/api/v1/statuses")
        #expect(posts.count == 3)
        let newest = try #require(try server.state()["newest_status_id"] as? String)
        let quote = try #require(try Self.status(server, newest)?["quote"] as? [String: Any])
        #expect((quote["quoted_status"] as? [String: Any])?["id"] as? String == String(id.split(separator: "/").last!))
    }

    @Test func aBlueskyUnfollowOfflineIsSentByTheNextSync() throws {
        let server = try BlueskyTestServer.start(posts: 10)
        let scenario = try BlueskyCommandTests.loggedIn(to: server)
        #expect(try scenario.timeline.run(["follow", "user2.loopback.test"]).status == 0)
        #expect((try server.state()["follows"] as? [String])?.count == 1)
        try server.control("faults", ["nsid": "com.atproto.repo.deleteRecord", "status": 503, "times": 2])
        let kept = try scenario.timeline.run(["unfollow", "user2.loopback.test"])
        #expect(kept.status == 0 && kept.output.hasPrefix("Not sent yet: the unfollow of user2.loopback.test"), "\(kept.output)\(kept.errors)")
        #expect((try server.state()["follows"] as? [String])?.count == 1)
        let synced = try scenario.timeline.run(["sync"])
        #expect(synced.status == 0 && synced.output.contains("; sent 1 unfollow that waited."), "\(synced.output)\(synced.errors)")
        #expect((try server.state()["follows"] as? [String])?.isEmpty == true)
        #expect(try Offline.calls(server, "com.atproto.repo.deleteRecord").count == 3)
    }

    @Test func aBlueskyDeleteOfflineIsSentByTheNextSync() throws {
        let server = try BlueskyTestServer.start(posts: 10)
        let scenario = try BlueskyCommandTests.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        let posted = try scenario.timeline.run(["post", "--json", "Soon to go"])
        #expect(posted.status == 0, "\(posted.errors)")
        let uri = try #require(try Self.blueskyPosts(server, text: "Soon to go").first)
        try server.control("faults", ["nsid": "com.atproto.repo.deleteRecord", "status": 503, "times": 2])
        let kept = try scenario.timeline.run(["delete", "--yes", uri])
        #expect(kept.status == 0 && kept.output.hasPrefix("Not sent yet: the delete of "), "\(kept.output)\(kept.errors)")
        #expect(try server.state()["deleted"] as? [String] == [])
        let synced = try scenario.timeline.run(["sync"])
        #expect(synced.status == 0 && synced.output.contains("; sent 1 delete that waited."), "\(synced.output)\(synced.errors)")
        #expect(try server.state()["deleted"] as? [String] == [uri])
        #expect(!(try Self.painted(scenario, count: 20)).contains("Soon to go"))
    }

    /// A waiting post deleted before it was sent: taken back, nothing sent.
    @Test func deletingAWaitingPostTakesItBackUnsent() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        #expect(try home.timeline.run(["sync"]).status == 0)
        try server.control("faults", ["path": "/api/v1/statuses", "status": 503, "times": 2])
        #expect(try home.timeline.run(["post", "Second thoughts"]).status == 0)
        let line = try #require(try home.timeline.run(["show", "-n", "1", "--format", "{ref} {id}"]).output.split(separator: "\n").first)
        #expect(line.contains(" outbox:"), "\(line)")
        let deleted = try home.timeline.run(["delete", "--yes", String(line.split(separator: " ")[0])])
        #expect(deleted.status == 0, "\(deleted.errors)")
        #expect(!(try Self.painted(home)).contains("Second thoughts"))
        let synced = try home.timeline.run(["sync", "--json"])
        #expect(synced.output.contains("\"changes\":{\"sent\":[],\"refused\":[]}"), "\(synced.output)")
        #expect(try Offline.requests(server, "POST", "/api/v1/statuses").count == 2)
    }
}
