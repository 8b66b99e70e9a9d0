import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TimelineKit

/// `timeline login bluesky`, `sync`, `show`, `post` and `logout` against the loopback Bluesky
/// server, as a person runs them.
@Suite struct BlueskyCommandTests {
    /// A scenario logged in to `server`'s account with its app password on standard input.
    static func loggedIn(to server: MastodonTestServer) throws -> Scenario {
        let (scenario, _) = AccountCommandTests.scenario()
        let login = try scenario.timeline.run(["login", "bluesky", BlueskyTestServer.handle, "--service", server.baseURL, "--app-password-stdin"],
                                              input: Data((BlueskyTestServer.password + "\n").utf8))
        precondition(login.status == 0, "login failed: \(login.errors)")
        return scenario
    }

    private static func calls(_ server: MastodonTestServer, _ nsid: String) throws -> [[String: Any]] {
        try server.requests().filter { ($0["nsid"] as? String) == nsid }
    }

    /// Every token the server has handed out so far.
    private static func tokens(_ server: MastodonTestServer) throws -> [String] {
        try server.state()["tokens"] as? [String] ?? []
    }

    @Test func loginStoresTheSessionPrivatelyAndNeverThePasswordOrATokenInOutput() throws {
        let server = try BlueskyTestServer.start()
        let (scenario, accountsFile) = AccountCommandTests.scenario()
        let wrong = try scenario.timeline.run(["login", "bluesky", BlueskyTestServer.handle, "--service", server.baseURL, "--app-password-stdin"],
                                              input: Data("not-the-password\n".utf8))
        #expect(wrong.status != 0)
        #expect(wrong.errors.contains("Invalid identifier or password"), "\(wrong.errors)")
        #expect(!FileManager.default.fileExists(atPath: accountsFile))

        let login = try scenario.timeline.run(["login", "bluesky", "@" + BlueskyTestServer.handle, "--service", server.baseURL, "--app-password-stdin"],
                                              input: Data((BlueskyTestServer.password + "\n").utf8))
        #expect(login.status == 0, "\(login.errors)")
        #expect(login.output == "Logged in to \(server.baseURL) as @\(BlueskyTestServer.handle) (account \(BlueskyTestServer.handle)).\n" + LoginNextStep.text)
        #expect(try AccountCommandTests.permissions(accountsFile) == 0o600)
        let file = try String(contentsOfFile: accountsFile, encoding: .utf8)
        #expect(!file.contains(BlueskyTestServer.password))
        #expect(file.contains("\"network\": \"bluesky\""))
        #expect(file.contains("\"account_id\": \"\(BlueskyTestServer.did)\""))
        let listed = try scenario.timeline.run(["accounts", "--json"])
        #expect(listed.output.contains("\"network\":\"bluesky\""))
        #expect(listed.output.contains("\"revocable\":true"))
        #expect(try scenario.timeline.run(["accounts"]).output.contains("(bluesky, session in "))
        for result in [wrong, login, listed] {
            for secret in try Self.tokens(server) + [BlueskyTestServer.password] {
                #expect(!(result.output + result.errors).contains(secret), "\(secret)")
            }
        }
        // Mastodon's ways of giving a token are refused for Bluesky, and back.
        let mixed = try scenario.timeline.run(["login", "bluesky", "a.test", "--token-stdin"], input: Data())
        #expect(mixed.status == 64)
    }

    @Test func aSyncStoresTheHomeTimelineAndNotificationsAndShowPaintsThem() throws {
        let server = try BlueskyTestServer.start(posts: 250)
        let scenario = try Self.loggedIn(to: server)
        let sync = try scenario.timeline.run(["sync"])
        #expect(sync.status == 0, "\(sync.errors)")
        // The preferences, two pages of the timeline, the notifications, the posts they are about.
        #expect(sync.output == "Synced \(BlueskyTestServer.handle): 200 new messages, 3 notifications, 0 marked read (5 requests).\n")
        #expect(try Self.calls(server, "app.bsky.feed.getTimeline").count == 2)
        #expect(try scenario.sqlite("SELECT count(*) FROM messages WHERE id LIKE 'at://%'") != "0")
        // Logged in at the entryway, everything else went to the PDS the session's DID document named.
        let requests = try server.requests()
        #expect(requests.first?["server"] as? String == "entryway")
        #expect(requests.dropFirst().allSatisfy { $0["server"] as? String == "pds" }, "\(requests.map { $0["server"] ?? "" })")

        let shown = try scenario.timeline.run(["show", "-n", "3", "--color", "never"])
        #expect(shown.status == 0)
        #expect(shown.output.contains("Sky post 249"), "\(shown.output)")
        #expect(try scenario.timeline.run(["snapshot", "--check"]).status == 0)
        // A shortened link is shown in full.
        let linked = try scenario.timeline.run(["show", "-n", "200", "--json"])
        #expect(linked.output.contains("https://example.com/articles/245/a-long-path-name"))

        // Read through a pipe, notifications are not seen; read on a terminal, Bluesky is told.
        let notifications = try scenario.timeline.run(["show", "--notifications", "--color", "never"])
        #expect(notifications.output.contains("♥ Sky User 1 liked your post \"my own loopback post\""), "\(notifications.output)")
        #expect(notifications.output.contains("+ Sky User 3 followed you"))
        #expect(try Self.calls(server, "app.bsky.notification.updateSeen").isEmpty)
        let onTerminal = try scenario.timeline.runInTerminal(["show", "--notifications", "--color", "never"])
        #expect(onTerminal.status == 0, "\(onTerminal.output)")
        #expect(try Self.calls(server, "app.bsky.notification.updateSeen").count == 1)
        #expect(try server.state()["seen_at"] is String)

        // Nothing new: a probe of one entry per timeline, under 2 KB of body each, and the
        // probed entry, already held, not decoded (issue 28).
        let nothing = try scenario.timeline.run(["sync", "--json"])
        #expect(nothing.output.contains("\"new_statuses\":0"), "\(nothing.output)")
        let received = try SyncCommandTests.received(nothing.output)
        for timeline in ["home", "notifications"] {
            let traffic = try #require(received[timeline] as? [String: Any], "\(nothing.output)")
            #expect((traffic["bytes"] as? Int).map { $0 < 2048 } == true, "\(timeline): \(nothing.output)")
            #expect(traffic["entries"] as? Int == 0, "\(nothing.output)")
        }

        // Later: only the new posts: a probe of one item, then ten below it (which reach what
        // is held), decoded down to the first held one: 5 in all.
        let before = try Self.calls(server, "app.bsky.feed.getTimeline").count
        try server.control("posts", ["count": 5])
        let again = try scenario.timeline.run(["sync", "--json"])
        #expect(again.output.contains("\"new_statuses\":5"), "\(again.output)")
        #expect(try Self.calls(server, "app.bsky.feed.getTimeline").count == before + 2)
        let home = try #require(try SyncCommandTests.received(again.output)["home"] as? [String: Any], "\(again.output)")
        #expect(home["entries"] as? Int == 5, "\(again.output)")
    }

    /// `import --account` of a Bluesky account reads the file as Bluesky JSON, whose IDs are the
    /// sync's (it used to read it as a Mastodon file of a server named after the PDS, so a
    /// saved timeline page was refused as not Mastodon JSON); `--format mastodon` with it is
    /// refused, naming why, and nothing is written.
    @Test func importForABlueskyAccountReadsBlueskyJSONAndMeetsTheSyncedPosts() throws {
        let server = try BlueskyTestServer.start(posts: 30)
        let scenario = try Self.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        // Tokens are handed out access first, refresh second.
        let tokens = try Self.tokens(server)
        let access = try #require(tokens.count >= 2 ? tokens[tokens.count - 2] : nil)
        let pds = try #require(try server.state()["pds"] as? String)
        var request = URLRequest(url: URL(string: pds + "/xrpc/app.bsky.feed.getTimeline?limit=20")!)
        request.setValue("Bearer \(access)", forHTTPHeaderField: "Authorization")
        let saved = scenario.directory + "/saved-timeline.json"
        try MastodonTestServer.fetch(request).write(to: URL(fileURLWithPath: saved))
        let before = try scenario.sqlite("SELECT count(*) FROM messages")

        let imported = try scenario.timeline.run(["import", "--account", BlueskyTestServer.handle, "--json", saved])
        let savedText = String(decoding: try Data(contentsOf: URL(fileURLWithPath: saved)).prefix(300), as: UTF8.self)
        #expect(imported.status == 0, "\(imported.errors) \(savedText)")
        let counts = try JSONSerialization.jsonObject(with: Data(imported.output.utf8)) as? [String: Any]
        #expect(counts?["format"] as? String == "bluesky")
        #expect(counts?["messages"] as? Int ?? 0 >= 20, "\(imported.output)")
        #expect(counts?["new_messages"] as? Int == 0, "\(imported.output)")
        #expect(try scenario.sqlite("SELECT count(*) FROM messages") == before)

        let mixed = try scenario.timeline.run(["import", "--account", BlueskyTestServer.handle, "--format", "mastodon", saved])
        #expect(mixed.status == 64)
        #expect(mixed.errors.contains("is a Bluesky account") && mixed.errors.contains("--format mastodon"), "\(mixed.errors)")
        #expect(try scenario.sqlite("SELECT count(*) FROM messages") == before)
    }

    @Test func depthSetsHowFarAFirstSyncReaches() throws {
        let server = try BlueskyTestServer.start(posts: 100)
        let scenario = try Self.loggedIn(to: server)
        let sync = try scenario.timeline.run(["sync", "--depth", "30", "--json"])
        #expect(sync.output.contains("\"new_statuses\":30"), "\(sync.output) \(sync.errors)")
        #expect(try scenario.timeline.run(["sync", "--depth", "0"]).status == 64)
    }

    @Test func anExpiredSessionIsRefreshedAndStoredAndARevokedOneAsksToLogInAgain() throws {
        let server = try BlueskyTestServer.start(posts: 20)
        let scenario = try Self.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        try server.control("expire", [:])
        let refreshed = try scenario.timeline.run(["sync"])
        #expect(refreshed.status == 0, "\(refreshed.errors)")
        #expect(try Self.calls(server, "com.atproto.server.refreshSession").count == 1)
        // The new session was stored: the next run uses it without refreshing again.
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        #expect(try Self.calls(server, "com.atproto.server.refreshSession").count == 1)

        // The session ended elsewhere (the app password revoked): log in again, exit 77.
        let accounts = try String(contentsOfFile: scenario.directory + "/config/timeline/accounts.json", encoding: .utf8)
        try server.control("revoke", [:])
        let refused = try scenario.timeline.run(["sync"])
        #expect(refused.status == 77, "\(refused.errors)")
        #expect(refused.errors.contains("timeline login"), "\(refused.errors)")
        // Nothing was changed in the accounts file by the failed refresh.
        #expect(try String(contentsOfFile: scenario.directory + "/config/timeline/accounts.json", encoding: .utf8) == accounts)
    }

    @Test func aRateLimitThatResetsLaterStopsWithExit75AndSaysWhen() throws {
        let server = try BlueskyTestServer.start(posts: 20)
        let scenario = try Self.loggedIn(to: server)
        let reset = Int(Date().timeIntervalSince1970) + 3600
        try server.control("faults", [["nsid": "app.bsky.feed.getTimeline", "status": 429, "error": "RateLimitExceeded",
                                       "headers": ["ratelimit-remaining": "0", "ratelimit-reset": "\(reset)"]]])
        let limited = try scenario.timeline.run(["sync"])
        #expect(limited.status == 75, "\(limited.errors)")
        #expect(limited.errors.contains("rate limit"), "\(limited.errors)")
    }

    @Test func postPublishesWithFacetsRepliesInTheThreadAndStoresTheMessage() throws {
        let server = try BlueskyTestServer.start(posts: 20)
        let scenario = try Self.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        let text = "Héllo @user1.loopback.test, see https://example.com/x. #swift"
        var french = scenario.timeline
        french.environment["LANG"] = "fr_CA.UTF-8"
        let posted = try french.run(["post", "--json", text])
        #expect(posted.status == 0, "\(posted.errors)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(posted.output.utf8)) as? [String: Any])
        let id = try #require(object["id"] as? String)
        #expect(id.hasPrefix("at://\(BlueskyTestServer.did)/app.bsky.feed.post/"))
        let created = try #require(try server.state()["created"] as? [[String: Any]])
        let record = try #require(created.first?["record"] as? [String: Any])
        #expect(record["text"] as? String == text)
        #expect(record["langs"] as? [String] == ["fr"])
        let facets = try #require(record["facets"] as? [[String: Any]])
        // Byte offsets in UTF-8: "Héllo " is 7 bytes.
        let bytes = Array(text.utf8)
        var found: [String] = []
        for facet in facets {
            let index = facet["index"] as! [String: Int]
            let feature = (facet["features"] as! [[String: Any]])[0]
            let covered = String(decoding: bytes[index["byteStart"]! ..< index["byteEnd"]!], as: UTF8.self)
            found.append("\(feature["$type"]!) \(covered) \(feature["did"] ?? feature["uri"] ?? feature["tag"]!)")
        }
        #expect(found == [
            "app.bsky.richtext.facet#mention @user1.loopback.test \(BlueskyTestServer.user1DID)",
            "app.bsky.richtext.facet#link https://example.com/x https://example.com/x",
            "app.bsky.richtext.facet#tag #swift swift",
        ])
        #expect(try scenario.sqlite("SELECT count(*) FROM messages WHERE id = '\(id)' AND seq NOT IN (SELECT seq FROM unread_messages)") == "1")

        // A reply to a reply names the thread's root and its parent.
        let reply = try scenario.sqlite("SELECT id FROM messages WHERE reply_to_id IS NOT NULL AND id LIKE 'at://%' LIMIT 1")
        let replied = try scenario.timeline.run(["post", "--reply-to", reply, "agreed"])
        #expect(replied.status == 0, "\(replied.errors)")
        let replyRecord = try #require((try server.state()["created"] as? [[String: Any]])?.last?["record"] as? [String: Any])
        let references = try #require(replyRecord["reply"] as? [String: [String: String]])
        #expect(references["parent"]?["uri"] == reply)
        #expect(references["root"]?["uri"] != reply)
        #expect(try scenario.timeline.run(["post", "--cw", "spoilers", "x"]).status == 64)
    }

    @Test func aMixedTimelineOfMastodonAndBlueskyIsInTimeOrderWithEachEntryMarked() throws {
        let mastodon = try MastodonTestServer(statuses: 30)
        let bluesky = try BlueskyTestServer.start(posts: 30)
        let scenario = try SyncCommandTests.loggedIn(to: mastodon)
        let login = try scenario.timeline.run(["login", "bluesky", BlueskyTestServer.handle, "--service", bluesky.baseURL, "--app-password-stdin"],
                                              input: Data((BlueskyTestServer.password + "\n").utf8))
        #expect(login.status == 0, "\(login.errors)")
        let sync = try scenario.timeline.run(["sync"])
        #expect(sync.status == 0, "\(sync.errors)")
        #expect(sync.output.hasPrefix("Synced 2 accounts: 60 new messages"), "\(sync.output)")

        // The servers' newest posts are 30 s apart: a Mastodon status at 12:00, a Bluesky post
        // at 11:59:30, then 11:59, … The paint alternates, each entry saying where it came from.
        var unicode = scenario.timeline
        unicode.environment["LANG"] = "C.UTF-8"
        let shown = try unicode.run(["show", "-n", "6", "--color", "never"])
        let headers = shown.output.split(separator: "\n").filter { $0.hasPrefix("●") || $0.hasPrefix("  ") && $0.contains(" · 20") }
        let marks = headers.compactMap { line -> String? in line.hasSuffix("🦋") ? "bluesky" : line.hasSuffix("🐘") ? "mastodon" : nil }
        #expect(marks.count >= 6, "\(shown.output)")
        #expect(Array(marks.prefix(4)) == ["mastodon", "bluesky", "mastodon", "bluesky"], "\(shown.output)")
        let json = try scenario.timeline.run(["show", "-n", "10", "--json"])
        let times = json.output.split(separator: "\n").compactMap { line -> String? in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["created_at"] as? String
        }
        #expect(times == times.sorted(by: >), "\(times)")
        // ASCII terminals get words.
        var plain = scenario.timeline
        plain.environment["LANG"] = "C"
        let ascii = try plain.run(["show", "-n", "2", "--color", "never"])
        #expect(ascii.output.contains(" - masto") && ascii.output.contains(" - bsky"), "\(ascii.output)")
    }

    @Test(.timeLimit(.minutes(5)))
    func followingABlueskyAccountSyncsItAndShowsWhatArrives() throws {
        let server = try BlueskyTestServer.start(posts: 10)
        let scenario = try Self.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        try server.control("posts", ["count": 2])
        // The follow's first round syncs at once (then every 2 minutes): the two new posts show.
        let follow = try FollowingProcess(scenario, ["show", "--follow", "--json", "-n", "1"])
        #expect(follow.waitForOutput { $0.contains("Sky post 11") }, "\(follow.output) \(follow.errors)")
        follow.signal(SIGTERM)
        _ = follow.waitForExit()
        #expect(follow.errors.isEmpty, "\(follow.errors)")
        // The first sync's page, then the follow's probe and the ten below it.
        #expect(try Self.calls(server, "app.bsky.feed.getTimeline").count == 3)
    }

    @Test func logoutEndsTheSessionAtTheServerAndForgetsTheAccount() throws {
        let server = try BlueskyTestServer.start(posts: 5)
        let scenario = try Self.loggedIn(to: server)
        let logout = try scenario.timeline.run(["logout", BlueskyTestServer.handle])
        #expect(logout.status == 0, "\(logout.errors)")
        #expect(logout.output.contains("Its session was ended"))
        #expect(try server.state()["live_refresh_tokens"] as? Int == 0)
        #expect(try scenario.timeline.run(["accounts", "--json"]).output.isEmpty)
    }
}
