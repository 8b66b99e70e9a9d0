import Foundation
import Testing
import TimelineKit

/// Issue 24: what a hostile or broken server can do to the built `timeline`, tried against the
/// scripted loopback server of `tools/hostile-server/` (over https with a certificate made for
/// the test where the defect needs it).
@Suite struct HostileServerTests {
    static let token = "hostile-test-token-0123456789abcdef"

    /// A Mastodon account of `@name` with ID 1.
    static func account(_ username: String = "tester") -> String {
        #"{"id":"1","username":"\#(username)","acct":"\#(username)","display_name":"T","url":"https://x.test/@t"}"#
    }

    /// A status JSON with `content`, by account 2.
    static func status(_ id: String, content: String = "<p>hello</p>") -> String {
        #"{"id":"\#(id)","created_at":"2024-03-01T12:00:00.000Z","content":"\#(content)","account":{"id":"2","username":"bob","acct":"bob","display_name":"Bob"}}"#
    }

    /// The routes every Mastodon sync asks for: the account, an empty home timeline and
    /// notifications, markers.
    static func mastodonRoutes(home: String = "[]", notifications: String = "[]", username: String = "tester") -> [String: Any] {
        [
            "/api/v1/accounts/verify_credentials": HostileServer.answer(body: account(username)),
            // The page, then nothing older.
            "/api/v1/timelines/home": [HostileServer.answer(body: home), HostileServer.answer(body: "[]")],
            "/api/v1/notifications": [HostileServer.answer(body: notifications), HostileServer.answer(body: "[]")],
            "/api/v1/markers": HostileServer.answer(body: "{}"),
        ]
    }

    /// A scenario with a Mastodon account on `server`, logged in with `token`.
    static func loggedIn(to server: HostileServer, certificate: TestCertificate? = nil, name: String? = nil) throws -> Scenario {
        let (scenario, _) = AccountCommandTests.scenario()
        if let certificate { scenario.timeline.environment["CURL_CA_BUNDLE"] = certificate.certificatePath }
        var arguments = ["login", "mastodon", server.baseURL, "--token-stdin"]
        if let name { arguments += ["--name", name] }
        let login = try scenario.timeline.run(arguments, input: Data((token + "\n").utf8))
        precondition(login.status == 0, "login failed: \(login.errors)")
        return scenario
    }

    // MARK: 1. One oversized or broken post

    @Test func oneOversizedStatusIsCutWithAMarkAndOneBrokenOneIsSkippedAndSaidOnce() throws {
        let server = try HostileServer()
        let huge = String(repeating: "a", count: 150_000)
        let broken = #"{"id":{"no":1},"created_at":"2024-03-01T12:00:00.000Z","account":{"id":"2","acct":"bob"}}"#
        let home = "[" + [Self.status("103"), Self.status("102", content: "<p>\(huge)</p>"), broken, Self.status("100")]
            .joined(separator: ",") + "]"
        let notification = #"[{"id":"9","type":"favourite","created_at":"2024-03-01T12:00:00.000Z","account":{"id":"3","acct":"carol"},"status":"# + Self.status("101", content: huge) + "}]"
        try server.routes(Self.mastodonRoutes(home: home, notifications: notification))
        let scenario = try Self.loggedIn(to: server)
        let sync = try scenario.timeline.run(["sync", "--json"])
        #expect(sync.status == 0, "\(sync.errors)")
        #expect(sync.output.contains("\"new_statuses\":3"), "\(sync.output)")
        #expect(sync.output.contains("\"new_notifications\":1"), "\(sync.output)")
        #expect(sync.output.contains("\"skipped\":1"), "\(sync.output)")
        // Said once, with where.
        #expect(sync.errors.components(separatedBy: "left out 1 entry").count == 2, "\(sync.errors)")
        #expect(sync.errors.contains("[2].id"), "\(sync.errors)")
        let host = "127.0.0.1:\(server.port)"
        #expect(try scenario.sqlite("SELECT count(*) FROM messages WHERE id IN ('\(host)/103', '\(host)/100')") == "2")
        let cut = try scenario.sqlite("SELECT length(CAST(text AS BLOB)) <= 100000, substr(text, -120) FROM messages WHERE id = '\(host)/102'")
        #expect(cut.hasPrefix("1|"), "\(cut)")
        #expect(cut.contains("[cut by timeline: the post has 150000 bytes"), "\(cut)")
        #expect(try scenario.sqlite("SELECT count(*) FROM messages WHERE id = '\(host)/101' AND text LIKE '%[cut by timeline%'") == "1")
    }

    @Test func aBlueskyPostWhoseLinkFacetsExpandBeyondTheLimitIsCutAndTheFeedStored() throws {
        let server = try HostileServer()
        // 40 one-letter links, each standing for a 3,000-byte URL: 121 KB once written out.
        let url = "https://example.com/" + String(repeating: "p", count: 3000)
        let facets = (0 ..< 40).map { #"{"index":{"byteStart":\#($0 * 2),"byteEnd":\#($0 * 2 + 1)},"features":[{"$type":"app.bsky.richtext.facet#link","uri":"\#(url)"}]}"# }
        let text = String(repeating: "x ", count: 40)
        func item(_ key: String, text: String, facets: [String] = []) -> String {
            #"{"post":{"uri":"at://did:plc:bob/app.bsky.feed.post/\#(key)","cid":"c","author":{"did":"did:plc:bob","handle":"bob.test"},"record":{"$type":"app.bsky.feed.post","text":"\#(text)","createdAt":"2024-03-01T12:00:00.000Z","facets":[\#(facets.joined(separator: ","))]},"indexedAt":"2024-03-01T12:00:00.000Z"}}"#
        }
        var routes = Self.emptyBlueskyRoutes()
        routes["/xrpc/com.atproto.server.createSession"] = HostileServer.answer(body: Self.session(pds: server.baseURL))
        routes["/xrpc/app.bsky.feed.getTimeline"] = [
            HostileServer.answer(body: #"{"cursor":"c1","feed":["# + [item("3a", text: "before"), item("2b", text: text, facets: facets), item("1c", text: "after")].joined(separator: ",") + "]}"),
            HostileServer.answer(body: #"{"feed":[]}"#),
        ]
        try server.routes(routes)
        let (scenario, _) = AccountCommandTests.scenario()
        let login = try scenario.timeline.run(["login", "bluesky", "alice.test", "--service", server.baseURL, "--app-password-stdin"],
                                              input: Data("app-pass-word\n".utf8))
        #expect(login.status == 0, "\(login.errors)")
        let sync = try scenario.timeline.run(["sync", "--json"])
        #expect(sync.status == 0, "\(sync.errors)")
        #expect(sync.output.contains("\"new_statuses\":3"), "\(sync.output)")
        let cut = try scenario.sqlite("SELECT length(CAST(text AS BLOB)) <= 100000, text LIKE '%[cut by timeline: the post has %' FROM messages WHERE id LIKE '%/2b'")
        #expect(cut == "1|1", "\(cut)")
    }

    // MARK: 2. No credential from https to plain http

    /// Requests that reached the plain-http port with a credential.
    static func credentialsInClear(_ server: HostileServer) throws -> [[String: Any]] {
        try server.requests().filter { ($0["scheme"] as? String) == "http" && $0["authorization"] is String }
    }

    @Test func aStreamingURLOverPlainHTTPNamedByAnHTTPSServerNeverGetsTheToken() throws {
        let certificate = try TestCertificate()
        let server = try HostileServer(tls: certificate)
        var routes = Self.mastodonRoutes()
        routes["/api/v2/instance"] = HostileServer.answer(body: #"{"configuration":{"urls":{"streaming":"ws://127.0.0.1:\#(server.plainPort)"}}}"#)
        routes["/api/v1/streaming/user"] = HostileServer.answer(headers: ["Content-Type": "text/event-stream"], body: ":)\n", hold: 20)
        try server.routes(routes)
        let scenario = try Self.loggedIn(to: server, certificate: certificate)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        let follow = try FollowingProcess(scenario, ["show", "--follow", "--json", "-n", "1"])
        #expect(follow.waitUntil { (try? server.requests().contains { ($0["path"] as? String) == "/api/v1/streaming/user" }) == true },
                "\(follow.errors)")
        follow.signal(SIGTERM)
        _ = follow.waitForExit()
        #expect(try Self.credentialsInClear(server).isEmpty)
        // The stream went to the server's own https address instead.
        #expect(try server.requests().contains { ($0["path"] as? String) == "/api/v1/streaming/user" && ($0["scheme"] as? String) == "https" })
    }

    /// A Bluesky session whose DID document names the PDS `pds`.
    static func session(pds: String, handle: String = "alice.test") -> String {
        ##"{"did":"did:plc:alice","handle":"\##(handle)","accessJwt":"access-1","refreshJwt":"refresh-1","didDoc":{"id":"did:plc:alice","service":[{"id":"#atproto_pds","type":"AtprotoPersonalDataServer","serviceEndpoint":"\##(pds)"}]}}"##
    }

    static func emptyBlueskyRoutes() -> [String: Any] { [
        "/xrpc/app.bsky.feed.getTimeline": HostileServer.answer(body: #"{"feed":[]}"#),
        "/xrpc/app.bsky.notification.listNotifications": HostileServer.answer(body: #"{"notifications":[]}"#),
    ] }

    @Test func aPDSOverPlainHTTPInAnHTTPSEntrywaysDIDDocumentNeverGetsTheToken() throws {
        let certificate = try TestCertificate()
        let server = try HostileServer(tls: certificate)
        var routes = Self.emptyBlueskyRoutes()
        routes["/xrpc/com.atproto.server.createSession"] = HostileServer.answer(body: Self.session(pds: server.plainURL))
        try server.routes(routes)
        let (scenario, _) = AccountCommandTests.scenario()
        scenario.timeline.environment["CURL_CA_BUNDLE"] = certificate.certificatePath
        let login = try scenario.timeline.run(["login", "bluesky", "alice.test", "--service", server.baseURL, "--app-password-stdin"],
                                              input: Data("app-pass-word\n".utf8))
        #expect(login.status != 0)
        #expect(login.errors.contains("plain http"), "\(login.errors)")
        _ = try scenario.timeline.run(["sync"])
        #expect(try Self.credentialsInClear(server).isEmpty)
    }

    // MARK: 3. A token quoted back is never shown

    /// Waits (up to 10 s) until the file at `path` holds `text`.
    static func waitForFile(_ path: String, containing text: String) -> String {
        var contents = ""
        _ = FollowCommandTests.waitUntil {
            contents = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            return contents.contains(text)
        }
        return contents
    }

    @Test func aTokenTheServerQuotesBackIsHiddenInErrorsJSONAndTheSyncLog() throws {
        let server = try HostileServer()
        var routes = Self.mastodonRoutes()
        routes["/api/v1/timelines/home"] = HostileServer.answer(status: 403, body: #"{"error":"This action is not allowed with Authorization: {AUTH}"}"#)
        try server.routes(routes)
        let scenario = try Self.loggedIn(to: server)
        let plain = try scenario.timeline.run(["sync"])
        let json = try scenario.timeline.run(["sync", "--json"])
        #expect(plain.status != 0 && json.status != 0)
        #expect(plain.errors.contains(Secrets.mark), "\(plain.errors)")
        #expect(json.output.contains(Secrets.mark), "\(json.output)")
        #expect(try scenario.timeline.run(["sync", "--background"]).status == 0)
        let log = Self.waitForFile(scenario.databasePath + ".sync.log", containing: Secrets.mark)
        #expect(log.contains(Secrets.mark), "\(log)")
        for text in [plain.output, plain.errors, json.output, json.errors, log] {
            #expect(!text.contains(Self.token), "\(text)")
        }
    }

    @Test func aRefreshTokenTheServerQuotesBackIsHidden() throws {
        let server = try HostileServer()
        var routes = Self.emptyBlueskyRoutes()
        routes["/xrpc/com.atproto.server.createSession"] = HostileServer.answer(body: Self.session(pds: server.baseURL))
        routes["/xrpc/app.bsky.feed.getTimeline"] = HostileServer.answer(status: 400, body: #"{"error":"ExpiredToken","message":"Token has expired"}"#)
        routes["/xrpc/com.atproto.server.refreshSession"] = HostileServer.answer(status: 400, body: #"{"error":"Revoked","message":"refresh token {AUTH} was revoked"}"#)
        try server.routes(routes)
        let (scenario, _) = AccountCommandTests.scenario()
        let login = try scenario.timeline.run(["login", "bluesky", "alice.test", "--service", server.baseURL, "--app-password-stdin"],
                                              input: Data("app-pass-word\n".utf8))
        #expect(login.status == 0, "\(login.errors)")
        let sync = try scenario.timeline.run(["sync", "--json"])
        #expect(sync.status != 0)
        #expect(sync.output.contains("was revoked"), "\(sync.output)")
        #expect(!sync.output.contains("refresh-1") && !sync.errors.contains("refresh-1"), "\(sync.output)")
    }

    // MARK: 4, 5. Server-chosen names

    @Test func aUsernameWithAnEscapeSequenceOrABidiOverrideIsPrintedNeutralisedAtLogin() throws {
        let server = try HostileServer()
        // JSON escapes: OSC 52 (a clipboard write) ended by BEL, then a right-to-left override.
        try server.routes(Self.mastodonRoutes(username: #"x\u001b]52;c;aGVsbG8=\u0007y\u202ez"#))
        let (scenario, _) = AccountCommandTests.scenario()
        let login = try scenario.timeline.run(["login", "mastodon", server.baseURL, "--token-stdin"], input: Data((Self.token + "\n").utf8))
        #expect(login.status == 0, "\(login.errors)")
        let said = login.output + login.errors
        #expect(!said.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{202E}" }, "\(said.debugDescription)")
        let listed = try scenario.timeline.run(["accounts"])
        #expect(!(listed.output + listed.errors).unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" })
    }

    @Test func aUsernameWithASpaceAndALineBreakMakesAValidNameAndEveryCommandStillWorks() throws {
        let server = try HostileServer()
        try server.routes(Self.mastodonRoutes(username: #"bad name\nnext"#))
        let (scenario, _) = AccountCommandTests.scenario()
        let login = try scenario.timeline.run(["login", "mastodon", server.baseURL, "--token-stdin"], input: Data((Self.token + "\n").utf8))
        #expect(login.status == 0, "\(login.errors)")
        let name = "bad_name_next@127.0.0.1:\(server.port)"
        #expect(login.output.contains("(account \(name)"), "\(login.output)")
        let accounts = try scenario.timeline.run(["accounts"])
        #expect(accounts.status == 0, "\(accounts.errors)")
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        #expect(try scenario.timeline.run(["logout", name]).status == 0)
    }

    @Test func oneUnusableEntryOfTheAccountsFileLeavesTheOthersWorking() throws {
        let server = try HostileServer()
        try server.routes(Self.mastodonRoutes())
        let (scenario, file) = AccountCommandTests.scenario()
        let good = try Self.loggedIn(to: server)  // a second scenario's file; copy its entry over
        let goodFile = good.directory + "/config/timeline/accounts.json"
        var text = try String(contentsOfFile: goodFile, encoding: .utf8)
        // A second entry as an older timeline wrote it from a username with a space.
        text = text.replacingOccurrences(of: "\n  ]", with: #",{"name": "bad name", "network": "mastodon", "server": "\#(server.baseURL)", "account_id": "1", "acct": "bad name", "token": "\#(Self.token)"}"# + "\n  ]")
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: file, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
        let accounts = try scenario.timeline.run(["accounts"])
        #expect(accounts.status == 0, "\(accounts.errors)")
        #expect(accounts.output.contains("tester@127.0.0.1:\(server.port)"))
        #expect(accounts.errors.contains(#"timeline logout "bad name""#) && accounts.errors.contains("cannot be used"), "\(accounts.errors)")
        let sync = try scenario.timeline.run(["sync"])
        #expect(sync.status == 0, "\(sync.errors)")
        #expect(sync.output.contains("Synced tester@"), "\(sync.output)")
        #expect(try scenario.timeline.run(["logout", "bad name"]).status == 0)
        let after = try scenario.timeline.run(["accounts"])
        #expect(after.errors.isEmpty && after.status == 0, "\(after.errors)")
    }

    // MARK: 8. Names of the two networks never collide

    @Test func aBlueskyHandleEqualToAMastodonAccountsNameNeverReplacesIt() throws {
        let server = try HostileServer()
        let mastodonName = "tester@127.0.0.1:\(server.port)"
        var routes = Self.mastodonRoutes()
        routes["/xrpc/com.atproto.server.createSession"] = HostileServer.answer(body: Self.session(pds: server.baseURL, handle: mastodonName))
        try server.routes(routes)
        let scenario = try Self.loggedIn(to: server)
        func bluesky(_ extra: [String]) throws -> TimelineProcess.Result {
            try scenario.timeline.run(["login", "bluesky", "alice.test", "--service", server.baseURL, "--app-password-stdin"] + extra,
                                      input: Data("app-pass-word\n".utf8))
        }
        let login = try bluesky([])
        #expect(login.status == 0, "\(login.errors)")
        #expect(!login.output.contains("replacing"), "\(login.output)")
        let listed = try scenario.timeline.run(["accounts", "--json"]).output
        #expect(listed.contains(#""name":"\#(mastodonName)","network":"mastodon""#), "\(listed)")
        #expect(listed.contains(#""network":"bluesky""#), "\(listed)")
        // Naming it so on purpose needs --replace.
        let taken = try bluesky(["--name", mastodonName])
        #expect(taken.status == 64)
        #expect(taken.errors.contains("--replace"), "\(taken.errors)")
        #expect(try scenario.timeline.run(["accounts", "--json"]).output.contains(#""name":"\#(mastodonName)","network":"mastodon""#))
        let replaced = try bluesky(["--name", mastodonName, "--replace"])
        #expect(replaced.status == 0, "\(replaced.errors)")
        #expect(try scenario.timeline.run(["accounts", "--json"]).output.contains(#""name":"\#(mastodonName)","network":"bluesky""#))
    }

    // MARK: 6. Every sync bounded in time

    /// A home timeline that answers after `delay` seconds, one status a page, always with an
    /// older page to fetch.
    static func slowRoutes(delay: Double) -> [String: Any] {
        var routes = mastodonRoutes()
        let page = HostileServer.answer(headers: ["Link": #"<{BASE}/api/v1/timelines/home?max_id={ID}>; rel="next""#],
                                        body: "[" + status("{ID}") + "]", delay: delay)
        routes["/api/v1/timelines/home"] = page
        routes["/api/v1/notifications"] = page
        return routes
    }

    @Test func aSyncOfASlowServerStopsAtItsTimeLimitStoresWhatCameAndReleasesTheLock() throws {
        let server = try HostileServer()
        try server.routes(Self.slowRoutes(delay: 1))
        let scenario = try Self.loggedIn(to: server)
        let started = Date()
        let sync = try scenario.timeline.run(["sync", "--time-limit", "4s"])
        let seconds = Date().timeIntervalSince(started)
        #expect(sync.status == 75, "\(sync.errors)")
        #expect(sync.errors.contains("time limit of 4 s"), "\(sync.errors)")
        #expect(seconds < 7, "\(seconds) s")
        let requests = try server.requests().filter { ($0["path"] as? String) == "/api/v1/timelines/home" }.count
        #expect((3 ... 5).contains(requests), "\(requests) requests")
        // What came in time is stored, and the lock is free at once for the next sync.
        #expect(Int(try scenario.sqlite("SELECT count(*) FROM messages")) ?? 0 >= 2)
        let next = try scenario.timeline.run(["sync", "--time-limit", "2s"])
        #expect(next.status == 75 && !next.errors.contains("another"), "\(next.errors)")
    }

    @Test func anAnswerTricklingSlowerThanTheMinimumRateEndsLongBeforeItsTimeout() async throws {
        let server = try HostileServer()
        try server.route("/trickle", HostileServer.answer(body: String(repeating: "x", count: 200), trickle: 2))
        var request = HTTPRequest(url: server.baseURL + "/trickle", timeout: .seconds(30))
        request.slowTransferWindow = .seconds(2)
        await #expect(throws: HTTPTransportError.tooSlow(url: request.url, bytesPerSecond: 256, window: .seconds(2))) {
            _ = try await CurlTransport().send(request)
        }
        // Timed by the server (this test's own resumption may wait for busy threads): curl
        // hung up within a few seconds, far from the 30 s timeout and the 100 s the body takes.
        // The server notices at its next byte that curl has gone.
        _ = FollowCommandTests.waitUntil { (try? server.requests().first?["ended_at"]) is Double }
        let answered = try #require(try server.requests().first)
        let seconds = try #require(answered["ended_at"] as? Double) - (try #require(answered["started_at"] as? Double))
        #expect(answered["outcome"] as? String == "closed")
        #expect(seconds < 10, "\(seconds) s")
    }

    // MARK: 7. Streams reopened with back-off

    /// A follow (`show -f`) of an account on a server whose stream answers `stream`.
    static func following(_ stream: [String: Any]) throws -> (HostileServer, Scenario, FollowingProcess) {
        let server = try HostileServer()
        var routes = mastodonRoutes()
        routes["/api/v1/streaming/user"] = stream
        routes["/api/v2/instance"] = HostileServer.answer(body: "{}")
        try server.routes(routes)
        let scenario = try loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        return (server, scenario, try FollowingProcess(scenario, ["show", "--follow", "--json", "-n", "1"]))
    }

    @Test func aStreamThatEndsAtOnceOrIsCutIsReopenedWithBackOff() throws {
        // Connections at about 0, 1, 3 and 7 s (1 s, 2 s, 4 s between): 4 in 8 s, not 8.
        let closed = try Self.following(HostileServer.answer(headers: ["Content-Type": "text/event-stream"], body: ":)\n"))
        let cut = try Self.following(["drop": true])
        Thread.sleep(forTimeInterval: 8)
        for (server, _, follow) in [closed, cut] {
            follow.signal(SIGTERM)
            _ = follow.waitForExit()
            let count = try server.requests().filter { ($0["path"] as? String) == "/api/v1/streaming/user" }.count
            #expect((2 ... 5).contains(count), "\(count) connections")
        }
    }

    // MARK: 9. No more taken than asked

    @Test func aNotificationsPageFarLargerThanAskedCausesNoMoreRequestsThanThePageSizeAllows() throws {
        let server = try HostileServer()
        let likes = (0 ..< 5000).map { index in
            #"{"uri":"at://did:plc:fan\#(index)/app.bsky.feed.like/\#(index)","cid":"c","author":{"did":"did:plc:fan\#(index)","handle":"fan\#(index).test"},"reason":"like","reasonSubject":"at://did:plc:alice/app.bsky.feed.post/p\#(index)","record":{},"isRead":false,"indexedAt":"2024-03-01T12:00:00.000Z"}"#
        }
        var routes = Self.emptyBlueskyRoutes()
        routes["/xrpc/com.atproto.server.createSession"] = HostileServer.answer(body: Self.session(pds: server.baseURL))
        routes["/xrpc/app.bsky.notification.listNotifications"] = [
            HostileServer.answer(body: #"{"cursor":"next","notifications":["# + likes.joined(separator: ",") + "]}"),
            HostileServer.answer(body: #"{"notifications":[]}"#),
        ]
        routes["/xrpc/app.bsky.feed.getPosts"] = HostileServer.answer(body: #"{"posts":[]}"#)
        try server.routes(routes)
        let (scenario, _) = AccountCommandTests.scenario()
        let login = try scenario.timeline.run(["login", "bluesky", "alice.test", "--service", server.baseURL, "--app-password-stdin"],
                                              input: Data("app-pass-word\n".utf8))
        #expect(login.status == 0, "\(login.errors)")
        let sync = try scenario.timeline.run(["sync", "--json"])
        #expect(sync.status == 0, "\(sync.errors)")
        #expect(sync.output.contains("\"new_notifications\":100"), "\(sync.output)")
        let asked = try server.requests().filter { ($0["path"] as? String) == "/xrpc/app.bsky.notification.listNotifications" }
        let limit = try #require(asked.first?["query"] as? String)
        #expect(limit.contains("limit=100"), "\(limit)")
        // 100 notifications kept, their posts asked 25 at a time: 4 requests, not 200.
        let posts = try server.requests().filter { ($0["path"] as? String) == "/xrpc/app.bsky.feed.getPosts" }.count
        #expect(posts == 4, "\(posts) getPosts requests")
    }

    @Test func aHomePageLargerThanAskedStoresOnlyWhatWasAsked() throws {
        let server = try HostileServer()
        let home = "[" + (0 ..< 100).map { Self.status(String(1000 - $0)) }.joined(separator: ",") + "]"
        try server.routes(Self.mastodonRoutes(home: home))
        let scenario = try Self.loggedIn(to: server)
        let sync = try scenario.timeline.run(["sync", "--json"])
        #expect(sync.status == 0, "\(sync.errors)")
        #expect(sync.output.contains("\"new_statuses\":40"), "\(sync.output)")
        // The next page is asked below the last status kept, not where the server pointed.
        let second = try server.requests().filter { ($0["path"] as? String) == "/api/v1/timelines/home" }.dropFirst().first
        #expect((second?["query"] as? String)?.contains("max_id=961") == true, "\(String(describing: second))")
    }

    // MARK: 10. The stream's curl dies with show -f

    /// The processes whose parent is `parent`, from /proc.
    static func children(of parent: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == parent
        }
    }

    static func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        // A zombie (Z) has ended; only its parent's wait is missing.
        return !stat.contains(") Z ")
    }

    @Test func theStreamsCurlDiesWithAKilledFollowOnASilentServer() throws {
        let server = try HostileServer()
        var routes = Self.mastodonRoutes()
        routes["/api/v2/instance"] = HostileServer.answer(body: "{}")
        routes["/api/v1/streaming/user"] = HostileServer.answer(headers: ["Content-Type": "text/event-stream"], body: ":)\n", hold: 60)
        try server.routes(routes)
        let scenario = try Self.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        let follow = try FollowingProcess(scenario, ["show", "--follow", "--json", "-n", "1"])
        #expect(follow.waitUntil { (try? server.requests().contains { ($0["path"] as? String) == "/api/v1/streaming/user" }) == true })
        var curl: [Int32] = []
        #expect(follow.waitUntil {
            curl = Self.children(of: follow.processIdentifier).filter {
                ((try? String(contentsOfFile: "/proc/\($0)/comm", encoding: .utf8)) ?? "").hasPrefix("curl")
            }
            return !curl.isEmpty
        })
        follow.signal(SIGKILL)
        // Not Foundation's wait for the follow, which may wait for what it left behind.
        #expect(FollowCommandTests.waitUntil(seconds: 15) { !Self.isAlive(follow.processIdentifier) })
        #expect(FollowCommandTests.waitUntil(seconds: 15) { curl.allSatisfy { !Self.isAlive($0) } }, "curl \(curl) outlived show -f")
        _ = follow.waitForExit()
    }
}
