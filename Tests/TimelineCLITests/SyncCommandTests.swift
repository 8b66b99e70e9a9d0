import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TimelineKit

/// `timeline sync` against the loopback Mastodon server, as a person and a shell start-up run it.
@Suite struct SyncCommandTests {
    /// A scenario logged in to `server` with `--token-stdin`.
    static func loggedIn(to server: MastodonTestServer) throws -> Scenario {
        let (scenario, _) = AccountCommandTests.scenario()
        let login = try scenario.timeline.run(["login", "mastodon", server.baseURL, "--token-stdin"],
                                              input: Data((MastodonTestServer.token + "\n").utf8))
        precondition(login.status == 0, "login failed: \(login.errors)")
        return scenario
    }

    static func homeRequests(_ server: MastodonTestServer) throws -> Int {
        try server.requests().filter { ($0["path"] as? String) == "/api/v1/timelines/home" }.count
    }

    @Test func aSyncStoresTheHomeTimelineAndSaysWhatItDidInOneLine() throws {
        let server = try MastodonTestServer(statuses: 300)
        let scenario = try Self.loggedIn(to: server)
        let sync = try scenario.timeline.run(["sync"])
        #expect(sync.status == 0, "\(sync.errors)")
        let lines = sync.output.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(sync.output.hasPrefix("Synced tester@127.0.0.1:\(server.port): 200 new messages, "), "\(sync.output)")
        #expect(!(sync.output + sync.errors).contains(MastodonTestServer.token))
        // The newest status on the server is what `show` paints first, from a fresh snapshot.
        let newest = try #require(try server.state()["newest_status_id"] as? String)
        #expect(try scenario.sqlite("SELECT count(*) FROM messages WHERE id = '127.0.0.1:\(server.port)/\(newest)'") == "1")
        #expect(try scenario.timeline.run(["show", "-n", "3"]).output.split(separator: "\n").count > 3)
        #expect(try scenario.timeline.run(["snapshot", "--check"]).status == 0)

        // Nothing new: one request for the home timeline, nothing stored.
        let before = try Self.homeRequests(server)
        let again = try scenario.timeline.run(["sync", "--json"])
        #expect(again.status == 0, "\(again.errors)")
        #expect(again.output.contains("\"new_statuses\":0"))
        #expect(try Self.homeRequests(server) == before + 1)
    }

    /// Issue 26: the summary line counts as every other line of timeline does (`Counted`: digits
    /// grouped, "1 message"); it had a count of its own that printed "1000 new messages".
    @Test func theSummaryLineGroupsItsDigits() throws {
        let server = try MastodonTestServer(statuses: 1_100)
        let scenario = try Self.loggedIn(to: server)
        let sync = try scenario.timeline.run(["sync", "--depth", "1000"])
        #expect(sync.status == 0, "\(sync.errors)")
        #expect(sync.output.hasPrefix("Synced tester@127.0.0.1:\(server.port): 1,000 new messages, "), "\(sync.output)")
    }

    /// The `received` object of one account's `sync --json` line.
    static func received(_ output: String) throws -> [String: Any] {
        let line = try #require(output.split(separator: "\n").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return try #require(object["received"] as? [String: Any])
    }

    /// Issue 28: a sync with nothing new asks only for what is newer than what is stored, and
    /// `sync --json` says what it received: under 2 KB of body per timeline; five new statuses
    /// are five entries decoded.
    @Test func aSyncWithNothingNewReceivesUnder2KBPerTimelineAndSaysSoInJSON() throws {
        let server = try MastodonTestServer(statuses: 300)
        let scenario = try Self.loggedIn(to: server)
        _ = try server.control("notifications", ["count": 30])
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        let count = try server.requests().count
        let again = try scenario.timeline.run(["sync", "--json"])
        #expect(again.status == 0, "\(again.errors)")
        let nothing = try Self.received(again.output)
        for timeline in ["home", "notifications"] {
            let traffic = try #require(nothing[timeline] as? [String: Any], "\(again.output)")
            #expect((traffic["bytes"] as? Int).map { $0 < 2048 } == true, "\(timeline): \(again.output)")
            #expect(traffic["entries"] as? Int == 0, "\(again.output)")
            #expect(traffic["requests"] as? Int == 1, "\(again.output)")
        }
        #expect((nothing["bytes"] as? Int).map { $0 < 3 * 2048 } == true, "\(again.output)")
        let pages = try server.requests().dropFirst(count).filter {
            ["/api/v1/timelines/home", "/api/v1/notifications"].contains($0["path"] as? String)
        }
        #expect(pages.count == 2 && pages.allSatisfy { ($0["query"] as? String)?.contains("since_id=") == true }, "\(pages)")

        _ = try server.control("statuses", ["count": 5])
        let five = try scenario.timeline.run(["sync", "--json"])
        #expect(five.output.contains("\"new_statuses\":5"), "\(five.output)")
        let home = try #require(try Self.received(five.output)["home"] as? [String: Any])
        #expect(home["entries"] as? Int == 5, "\(five.output)")
    }

    @Test func ifOlderSkipsARecentSyncWithoutARequestAndWithoutOutput() throws {
        let server = try MastodonTestServer()
        let scenario = try Self.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        let count = try server.requests().count
        let skipped = try scenario.timeline.run(["sync", "--if-older", "5m"])
        #expect(skipped.status == 0)
        #expect(skipped.output.isEmpty && skipped.errors.isEmpty)
        #expect(try server.requests().count == count)
        // Due again once the stamp is older than the age given.
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-600)],
                                              ofItemAtPath: scenario.databasePath + ".last-sync")
        #expect(try scenario.timeline.run(["sync", "--if-older", "5m"]).status == 0)
        #expect(try server.requests().count > count)
    }

    /// Ten terminals opening together start ten background syncs: one round of requests goes out.
    @Test func tenBackgroundSyncsStartedTogetherSendOneRoundOfRequests() throws {
        let server = try MastodonTestServer(statuses: 300)
        let scenario = try Self.loggedIn(to: server)
        // Slow answers keep the first sync holding the lock while the others start.
        try server.control("faults", ["path": "/api/v1/timelines/home", "delay": 0.3, "times": 3])
        let timeline = scenario.timeline
        DispatchQueue.concurrentPerform(iterations: 10) { _ in
            let result = try? timeline.run(["sync", "--if-older", "5m", "--background"])
            precondition(result?.status == 0 && result?.output.isEmpty == true, "background sync: \(result?.errors ?? "")")
        }
        // Wait for the background sync to finish: the stamp appears.
        let stamp = scenario.databasePath + ".last-sync"
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: stamp), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(FileManager.default.fileExists(atPath: stamp))
        Thread.sleep(forTimeInterval: 0.5)
        // One first sync of 200 statuses is 5 pages of 40; ten syncs would be 50 or more.
        #expect(try Self.homeRequests(server) == 5)
        #expect(try scenario.timeline.run(["stats", "--json"]).output.contains("\"messages\":204"), "200 statuses and the 4 originals they boost")
    }

    @Test func aBackgroundSyncReturnsBeforeTheServerAnswers() throws {
        let server = try MastodonTestServer()
        let scenario = try Self.loggedIn(to: server)
        try server.control("faults", ["path": "/api/v1/timelines/home", "delay": 3])
        let result = try scenario.timeline.run(["sync", "--background"])
        #expect(result.status == 0)
        #expect(result.output.isEmpty && result.errors.isEmpty)
        // The server holds its answer for 3 s: the command is back while the sync still waits.
        #expect(!FileManager.default.fileExists(atPath: scenario.databasePath + ".last-sync"))
        let stamp = scenario.databasePath + ".last-sync"
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: stamp), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(FileManager.default.fileExists(atPath: stamp))
    }

    @Test func aRefusedTokenSaysToLogInAgainWithStatus77() throws {
        let server = try MastodonTestServer()
        let scenario = try Self.loggedIn(to: server)
        try server.control("faults", ["path": "/api/v1/timelines/home", "status": 401])
        let sync = try scenario.timeline.run(["sync"])
        #expect(sync.status == 77)
        #expect(sync.errors.contains("timeline login"), "\(sync.errors)")
        #expect(!FileManager.default.fileExists(atPath: scenario.databasePath + ".last-sync"))
    }

    @Test func aRateLimitWithALongResetStopsWithStatus75AndSaysWhen() throws {
        let server = try MastodonTestServer()
        let scenario = try Self.loggedIn(to: server)
        try server.control("faults", ["path": "/api/v1/timelines/home", "status": 429, "reset_in": 3600, "times": 10])
        let sync = try scenario.timeline.run(["sync"])
        #expect(sync.status == 75, "\(sync.errors)")
        #expect(sync.errors.contains("rate limit"), "\(sync.errors)")
    }

    @Test func withoutAnAccountSyncSaysHowToLogInButShellStartUpStaysSilent() throws {
        let (scenario, _) = AccountCommandTests.scenario()
        let plain = try scenario.timeline.run(["sync"])
        #expect(plain.status == 66)
        #expect(plain.errors.contains("timeline login mastodon"))
        for arguments in [["sync", "--if-older", "5m"], ["sync", "--background"], ["sync", "--if-older", "5m", "--background"]] {
            let quiet = try scenario.timeline.run(arguments)
            #expect(quiet.status == 0 && quiet.output.isEmpty && quiet.errors.isEmpty, "\(arguments): \(quiet.errors)")
        }
        #expect(!FileManager.default.fileExists(atPath: scenario.databasePath))
    }

    @Test func postPublishesOnceThroughTheAccountAndStoresTheServersStatus() throws {
        let server = try MastodonTestServer()
        let scenario = try Self.loggedIn(to: server)
        let arguments = ["post", "--cw", "test", "--visibility", "unlisted", "--idempotency-key", "k-1", "hello from a terminal 🚀"]
        let posted = try scenario.timeline.run(arguments)
        #expect(posted.status == 0, "\(posted.errors)")
        #expect(posted.output.hasPrefix("Posted 127.0.0.1:\(server.port)/"), "\(posted.output)")
        // The same command again with the same key (a retry after a time-out): one status.
        let again = try scenario.timeline.run(arguments)
        #expect(again.output == posted.output)
        let statuses = try server.requests().filter { ($0["path"] as? String) == "/api/v1/statuses" && ($0["method"] as? String) == "POST" }
        #expect(statuses.count == 2)
        #expect(statuses.allSatisfy { ($0["idempotency_key"] as? String) == "k-1" })
        // "Posted ID URL." or "Posted ID."
        var id = String(posted.output.split(separator: " ")[1]).trimmingCharacters(in: .whitespacesAndNewlines)
        if id.hasSuffix(".") { id.removeLast() }
        let stored = try scenario.sqlite("SELECT content_warning || '|' || text FROM messages WHERE id = '\(id)'")
        #expect(stored == "test|hello from a terminal 🚀", "\(id): \(stored)")
        #expect(!(posted.output + posted.errors).contains(MastodonTestServer.token))
    }

    /// What you wrote elsewhere (the phone) comes back through your home timeline: read, since
    /// you wrote it; a status of someone else stays unread.
    @Test func yourOwnStatusesArriveReadThroughTheHomeTimeline() throws {
        let server = try MastodonTestServer(statuses: 10)
        let scenario = try Self.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        var request = URLRequest(url: URL(string: server.baseURL + "/api/v1/statuses")!)
        request.httpMethod = "POST"
        request.setValue("Bearer \(MastodonTestServer.token)", forHTTPHeaderField: "Authorization")
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data("status=written+on+the+phone".utf8)
        let posted = try JSONSerialization.jsonObject(with: MastodonTestServer.fetch(request)) as? [String: Any]
        let mine = try #require(posted?["id"] as? String)
        let theirs = try #require((try server.control("statuses", ["count": 1]) as? [String: Any])?["added"] as? [String])[0]
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        let unread = "SELECT count(*) FROM unread_messages JOIN messages USING (seq) WHERE id = '127.0.0.1:\(server.port)/%@'"
        #expect(try scenario.sqlite("SELECT text FROM messages WHERE id = '127.0.0.1:\(server.port)/\(mine)'") == "written on the phone")
        #expect(try scenario.sqlite(unread.replacingOccurrences(of: "%@", with: mine)) == "0")
        #expect(try scenario.sqlite(unread.replacingOccurrences(of: "%@", with: theirs)) == "1")
    }

    /// A saved page of the home timeline imported for the account meets what sync stored: no
    /// status is stored twice. Without --account the file's IDs are the server's bare ones.
    @Test func importForAnAccountMeetsTheSyncedMessages() throws {
        let server = try MastodonTestServer(statuses: 30)
        let scenario = try Self.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        var request = URLRequest(url: URL(string: server.baseURL + "/api/v1/timelines/home?limit=20")!)
        request.setValue("Bearer \(MastodonTestServer.token)", forHTTPHeaderField: "Authorization")
        let saved = scenario.directory + "/saved-home.json"
        try MastodonTestServer.fetch(request).write(to: URL(fileURLWithPath: saved))
        let before = try scenario.sqlite("SELECT count(*) FROM messages")

        let name = "tester@127.0.0.1:\(server.port)"
        let imported = try scenario.timeline.run(["import", "--account", name, "--json", saved])
        #expect(imported.status == 0, "\(imported.errors)")
        let counts = try JSONSerialization.jsonObject(with: Data(imported.output.utf8)) as? [String: Any]
        #expect(counts?["messages"] as? Int ?? 0 >= 20)
        #expect(counts?["new_messages"] as? Int == 0)
        #expect(try scenario.sqlite("SELECT count(*) FROM messages") == before)

        let unknown = try scenario.timeline.run(["import", "--account", "nobody@nowhere", saved])
        #expect(unknown.status != 0)
        #expect(unknown.errors.contains("nobody@nowhere"))
        #expect(try scenario.timeline.run(["import", "--account", name, "--format", "jsonl", saved]).status == 64)

        let bare = try scenario.timeline.run(["import", "--format", "mastodon", saved])
        #expect(bare.status == 0)
        #expect(try scenario.sqlite("SELECT count(*) FROM messages") != before)
    }

    @Test func withSeveralAccountsPostAsksWhichAndLocalPostsStayLocal() throws {
        let server = try MastodonTestServer()
        let scenario = try Self.loggedIn(to: server)
        _ = try scenario.timeline.run(["login", "mastodon", server.baseURL, "--token-stdin", "--name", "second"],
                                      input: Data((MastodonTestServer.token + "\n").utf8))
        let ambiguous = try scenario.timeline.run(["post", "which one?"])
        #expect(ambiguous.status == 64)
        #expect(ambiguous.errors.contains("--account"))
        #expect(try scenario.timeline.run(["user", "me", "--handle", "me", "--name", "Me"]).status == 0)
        let local = try scenario.timeline.run(["post", "--local", "--as", "me", "a note to self"])
        #expect(local.status == 0, "\(local.errors)")
        #expect(try server.requests().filter { ($0["path"] as? String) == "/api/v1/statuses" }.isEmpty)
    }

    @Test func notificationsSayWhoDidWhatNewestFirst() throws {
        let server = try MastodonTestServer()
        let scenario = try Self.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        let shown = try scenario.timeline.run(["show", "--notifications", "-n", "50"])
        #expect(shown.status == 0, "\(shown.errors)")
        let lines = shown.output.split(separator: "\n")
        #expect(lines.count > 5)
        #expect(lines.contains { $0.hasPrefix("♥ ") && $0.contains("liked your post") })
        #expect(lines.contains { $0.hasPrefix("+ ") && $0.contains("followed you") })
        let json = try scenario.timeline.run(["show", "--notifications", "--json", "-n", "3"])
        let objects = json.output.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.count == 3)
        let times = objects.compactMap { $0?["created_at"] as? String }
        #expect(times == times.sorted(by: >))
    }
}
