import Foundation
import Testing

/// What real servers of the Mastodon API lack (Takahē: no markers, no streaming; see
/// `../shared/real-servers/takahe/`), met through the loopback server's settings that copy them:
/// an optional endpoint missing is "not supported by this server", said once, remembered per
/// account, and never the end of a sync.
@Suite(.timeLimit(.minutes(5)))
struct ServerGapsCommandTests {
    private static func requests(_ server: MastodonTestServer, to path: String) throws -> Int {
        try server.requests().filter { ($0["path"] as? String) == path }.count
    }

    /// Every way a server says it has no such endpoint: Django's 404 page (Takahē), a JSON 404,
    /// 405, 410, 501, and a web app's page answered with 200.
    // One case at a time: each starts a server and several processes (two cores starve otherwise).
    @Test(.serialized, arguments: ["404-html", "404", "405", "410", "501", "200-html"])
    func aServerWithoutMarkersSyncsSuccessfullyAndSaysSoOnce(missingAs: String) throws {
        let server = try MastodonTestServer(statuses: 30)
        try server.control("settings", ["missing": ["/api/v1/markers"], "missing_as": missingAs])
        let scenario = try SyncCommandTests.loggedIn(to: server)

        let first = try scenario.timeline.run(["sync", "--json"])
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.output.contains("\"ok\":true") && first.output.contains("\"new_statuses\":30"), "\(first.output)")
        #expect(first.output.contains("\"server_lacks\":[\"markers\"]"), "\(first.output)")
        #expect(first.errors.contains("this server has no read markers"), "\(first.errors)")
        #expect(first.errors.split(separator: "\n").count == 1, "\(first.errors)")
        // A sync that succeeded counts: shell start-up's --if-older now skips.
        #expect(FileManager.default.fileExists(atPath: scenario.databasePath + ".last-sync"))
        let markerRequests = try Self.requests(server, to: "/api/v1/markers")
        #expect(markerRequests == 1)

        // The next sync remembers: nothing said, no markers asked for.
        let second = try scenario.timeline.run(["sync"])
        #expect(second.status == 0, "\(second.errors)")
        #expect(second.errors.isEmpty, "\(second.errors)")
        #expect(try Self.requests(server, to: "/api/v1/markers") == markerRequests)
    }

    @Test func markReadOnAServerWithoutMarkersPromisesNoMarkerAndSaysItOnce() throws {
        let server = try MastodonTestServer(statuses: 30)
        try server.control("settings", ["missing": ["/api/v1/markers"]])
        let scenario = try SyncCommandTests.loggedIn(to: server)
        // The sync that has not yet met the gap is not run: mark-read meets it first.
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        try scenario.sqlite("UPDATE synced_timelines SET state = json_remove(state, '$.lacking') WHERE timeline = 'home'")

        let first = try scenario.timeline.run(["mark-read", "--all", "--json"])
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.output.contains("\"markers_set\":0"))
        #expect(!first.errors.contains("next `timeline sync`"), "\(first.errors)")
        #expect(first.errors.contains("this server has no read markers: marked read on this computer only"), "\(first.errors)")

        let id = try #require(try scenario.sqlite("SELECT id FROM messages LIMIT 1").split(separator: "\n").first)
        #expect(try scenario.timeline.run(["mark-read", "--unread", String(id)]).status == 0)
        let second = try scenario.timeline.run(["mark-read", "--all"])
        #expect(second.status == 0)
        #expect(second.errors.isEmpty, "\(second.errors)")
    }

    /// A server that gets markers later (an upgrade) is asked again after a day, and its markers
    /// are used from then on.
    @Test func aLackIsAskedAgainAfterADayAndForgottenWhenTheServerHasTheEndpoint() throws {
        let server = try MastodonTestServer(statuses: 30)
        try server.control("settings", ["missing": ["/api/v1/markers"]])
        let scenario = try SyncCommandTests.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        try server.control("settings", ["missing": [String]()])
        try scenario.sqlite("UPDATE synced_timelines SET state = json_set(state, '$.lacking.markers', 1) WHERE timeline = 'home'")

        let sync = try scenario.timeline.run(["sync", "--json"])
        #expect(sync.status == 0, "\(sync.errors)")
        #expect(sync.output.contains("\"server_lacks\":[]"), "\(sync.output)")
        #expect(try Self.requests(server, to: "/api/v1/markers") >= 2)
    }

    /// Takahē's gaps together: no markers, no streaming (404), no streaming URL. `show -f` says
    /// once that it polls, and a status posted while it runs arrives by polling.
    @Test func showFollowOnAServerWithoutStreamingPollsAndSaysSoOnce() throws {
        let server = try MastodonTestServer(statuses: 30)
        try server.control("settings", ["missing": ["/api/v1/markers", "/api/v1/streaming"]])
        let scenario = try SyncCommandTests.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)

        let follow = try FollowingProcess(scenario, ["show", "--follow", "--json", "-n", "1"])
        #expect(follow.waitUntil { follow.errors.contains("checking for them every 30 seconds") }, "\(follow.errors)")
        let added = try #require((try server.control("statuses", ["count": 1]) as? [String: Any])?["added"] as? [String])
        #expect(follow.waitForOutput(seconds: 90) { $0.contains("\"id\":\"127.0.0.1:\(server.port)/\(added[0])\"") }, "\(follow.errors)")
        follow.signal(SIGTERM)
        _ = follow.waitForExit()
        // Said once; nothing stopped following.
        #expect(follow.errors.split(separator: "\n").count == 1, "\(follow.errors)")
        #expect(!follow.errors.contains("stopped following"))
        #expect(try scenario.timeline.run(["sync", "--json"]).output.contains("\"server_lacks\":[\"markers\",\"streaming\"]"))
    }

    /// An endpoint of one action that a real server lacks (Takahē has no list timelines; other
    /// servers have statuses but no edits, or no polls), however it says so: one line naming the
    /// server and the endpoint, exit 69 (unavailable), and nothing changed in the database.
    // One case at a time: each starts a server and several processes (two cores starve otherwise).
    @Test(.serialized, arguments: [
        ("edit", "PUT /api/v1/statuses/", "404-html", "editing posts (`PUT /api/v1/statuses/:id` answered status 404)"),
        ("edit", "PUT /api/v1/statuses/", "405", "editing posts (`PUT /api/v1/statuses/:id` answered status 405)"),
        ("vote", "/api/v1/polls/", "404-html", "polls (`POST /api/v1/polls/:id/votes` answered status 404)"),
        ("vote", "/api/v1/polls/", "501", "polls (`POST /api/v1/polls/:id/votes` answered status 501)"),
        ("list", "/api/v1/timelines/list/", "404-html", "list timelines (`GET /api/v1/timelines/list/:id` answered status 404)"),
        ("list", "/api/v1/timelines/list/", "200-html", "list timelines (`GET /api/v1/timelines/list/:id` answered a web page instead of the API's answer)"),
        ("lists", "/api/v1/lists", "404-html", "lists (`GET /api/v1/lists` answered status 404)"),
        ("tag", "/api/v1/timelines/tag/", "410", "hashtag timelines (`GET /api/v1/timelines/tag/:tag` answered status 410)"),
    ])
    func anActionsMissingEndpointIsOneLineNamingItAndChangesNothing(command: String, missing: String, missingAs: String, said: String) async throws {
        let server = try MastodonTestServer(statuses: 10)
        let scenario = try SyncCommandTests.loggedIn(to: server)
        let serverID = try #require(try server.state()["newest_status_id"] as? String)
        try server.control("set_status", ["id": serverID, "fields": ["mine": true, "poll": EditAndVoteCommandTests.poll(id: "55")] as [String: Any]])
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        let id = "127.0.0.1:\(server.port)/\(serverID)"
        // The poll is the post's own, so edit would refuse it before sending: edit another.
        let edited = try #require(try server.state()["status_ids"] as? [String]).dropFirst().first ?? serverID
        try server.control("set_status", ["id": edited, "fields": ["mine": true] as [String: Any]])
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        let before = try scenario.sqlite("SELECT id, text, edited_at FROM messages ORDER BY id")
        try server.control("settings", ["missing": [missing], "missing_as": missingAs])

        let arguments: [String] = switch command {
        case "edit": ["edit", "127.0.0.1:\(server.port)/\(edited)", "A new text"]
        case "vote": ["vote", id, "1"]
        case "list": ["list", "42"]
        case "tag": ["tag", "rust"]
        default: [command]
        }
        let answer = try await scenario.timeline.runOffThePool(arguments)
        #expect(answer.status == 69, "\(answer.errors)")
        #expect(answer.errors.split(separator: "\n").count == 1, "\(answer.errors)")
        #expect(answer.errors.contains("http://127.0.0.1:\(server.port) does not support \(said). Nothing was changed there."), "\(answer.errors)")
        #expect(!answer.errors.contains("<"), "\(answer.errors)")
        #expect(try scenario.sqlite("SELECT id, text, edited_at FROM messages ORDER BY id") == before)
        // A list's or a tag's database keeps nothing from the refusal.
        let kept = try FileManager.default.contentsOfDirectory(atPath: scenario.directory).filter { $0.hasPrefix("timeline.list-") || $0.hasPrefix("timeline.tag-") }
        for file in kept where file.hasSuffix(".sqlite") {
            #expect(try scenario.timeline.run(["--db", scenario.directory + "/" + file, "show", "-n", "5", "--format", "{id}"]).output.isEmpty)
        }
    }

    /// A revoked token, however the server words the refusal (Mastodon's 401, Takahē's 400
    /// `Invalid Bearer token` in text/html, Pleroma's 403 `invalid_token`), is "log in again":
    /// exit 77, for sync and for post.
    // One case at a time: each starts a server and several processes (two cores starve otherwise).
    @Test(.serialized, arguments: ["401", "400-html", "403"])
    func aRevokedTokenIsLogInAgainHoweverTheServerWordsIt(refusal: String) throws {
        let server = try MastodonTestServer(statuses: 5)
        try server.control("settings", ["token_refusal": refusal])
        let scenario = try SyncCommandTests.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        try server.control("revoke", ["token": MastodonTestServer.token])

        let sync = try scenario.timeline.run(["sync"])
        #expect(sync.status == 77, "\(sync.errors)")
        #expect(sync.errors.contains("Run `timeline login` again"), "\(sync.errors)")
        let post = try scenario.timeline.run(["post", "hello"])
        #expect(post.status == 77, "\(post.errors)")
        let login = try scenario.timeline.run(["login", "mastodon", server.baseURL, "--token-stdin"],
                                              input: Data((MastodonTestServer.token + "\n").utf8))
        #expect(login.status == 77, "\(login.errors)")
    }

    /// A refusal that is not about the token (a 403 for a suspended account) is not "log in
    /// again": that advice would loop.
    @Test func aForbiddenRequestThatIsNotAboutTheTokenIsNotLogInAgain() throws {
        let server = try MastodonTestServer(statuses: 5)
        let scenario = try SyncCommandTests.loggedIn(to: server)
        try server.control("faults", ["path": "/api/v1/timelines/home", "status": 403,
                                      "body": ["error": "Your login is currently disabled"]])
        let sync = try scenario.timeline.run(["sync"])
        #expect(sync.status == 76, "\(sync.errors)")
        #expect(!sync.errors.contains("timeline login"), "\(sync.errors)")
    }

    /// A server that knows only the classic scopes (Takahē) accepts the browser login: the
    /// token's scopes satisfy its `verify_credentials`.
    @Test func aBrowserLoginWorksOnAServerThatKnowsOnlyClassicScopes() throws {
        let server = try MastodonTestServer()
        try server.control("settings", ["classic_scopes_only": true])
        let (scenario, _) = AccountCommandTests.scenario()
        let login = try InteractiveLogin(scenario: scenario, arguments: ["login", "mastodon", server.baseURL])
        let result = try login.finish(code: try AccountCommandTests.approve(try login.authorizationURL()))
        #expect(result.status == 0, "\(result.errors)")
        #expect(try scenario.timeline.run(["sync"]).status == 0)
    }

    /// A server that refuses the token it has just issued: the advice is a token from its
    /// settings, never the same login again (which would loop).
    @Test func aTokenRefusedRightAfterTheBrowserLoginAdvisesATokenNotTheSameLoginAgain() throws {
        let server = try MastodonTestServer()
        try server.control("faults", ["path": "/api/v1/accounts/verify_credentials", "status": 403,
                                      "body": ["error": "out_of_scope_for_token"]])
        let (scenario, accountsFile) = AccountCommandTests.scenario()
        let login = try InteractiveLogin(scenario: scenario, arguments: ["login", "mastodon", server.baseURL])
        let result = try login.finish(code: try AccountCommandTests.approve(try login.authorizationURL()))
        #expect(result.status == 77, "\(result.errors)")
        #expect(result.errors.contains("--token-stdin"), "\(result.errors)")
        #expect(!result.errors.contains("Log in again"), "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: accountsFile))
    }

    /// Takahē ignores `Idempotency-Key`: the help promises only what the tool does (the same key
    /// on every retry) and leaves the rest to the server.
    @Test func postsHelpPromisesOnlyWhatTheToolDoesWithTheIdempotencyKey() throws {
        let (scenario, _) = AccountCommandTests.scenario()
        let help = try scenario.timeline.run(["post", "--help"]).output.replacingOccurrences(of: "\n", with: " ")
            .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        #expect(!help.contains("never publishes twice"), "\(help)")
        #expect(!help.contains("is safe"), "\(help)")
        #expect(help.contains("the same on every retry within one run"), "\(help)")
        #expect(help.contains("server's decision"), "\(help)")
    }
}
