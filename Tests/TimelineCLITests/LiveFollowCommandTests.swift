import Foundation
import Testing

/// `timeline show --follow` with a Mastodon account: the server's event stream feeds the
/// database, and the follow shows what it stores, against the loopback server.
@Suite(.timeLimit(.minutes(5)))
struct LiveFollowCommandTests {
    /// How many event streams the server has open (a broadcast of an event the tool ignores).
    static func openStreams(_ server: MastodonTestServer) throws -> Int {
        let answer = try server.control("stream", ["event": "filters_changed", "payload": ""]) as? [String: Any]
        return answer?["streams"] as? Int ?? -1
    }

    private static func stored(_ scenario: Scenario, _ server: MastodonTestServer, _ id: String, _ column: String = "count(*)") throws -> String {
        try scenario.sqlite("SELECT \(column) FROM messages WHERE id = '127.0.0.1:\(server.port)/\(id)'")
    }

    @Test func newEditedAndDeletedStatusesArriveFromTheServersStreamAndNoRequestOutlivesTheFollow() throws {
        let server = try MastodonTestServer(statuses: 30)
        try server.control("settings", ["heartbeat": 0.2])
        let scenario = try SyncCommandTests.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)

        let follow = try FollowingProcess(scenario, ["show", "--follow", "--json", "-n", "2"])
        #expect(follow.waitForOutput { $0.split(separator: "\n").count == 2 })
        #expect(follow.waitUntil { (try? Self.openStreams(server)) == 1 }, "\(follow.errors)")

        // A new status: stored from the stream and printed as one more line.
        let added = try #require((try server.control("statuses", ["count": 1]) as? [String: Any])?["added"] as? [String])
        #expect(follow.waitForOutput { $0.contains("\"id\":\"127.0.0.1:\(server.port)/\(added[0])\"") }, "\(follow.errors)")
        #expect(try Self.stored(scenario, server, added[0]) == "1")

        // An edit and a deletion are stored as they come, so every terminal sees them.
        try server.control("edit", ["id": added[0], "text": "edited on the phone"])
        #expect(follow.waitUntil { (try? Self.stored(scenario, server, added[0], "text")) == "edited on the phone" })
        try server.control("delete", ["id": added[0]])
        #expect(follow.waitUntil { (try? Self.stored(scenario, server, added[0])) == "0" })
        // …and the snapshot follows, so the next `show` paints the truth.
        #expect(follow.waitUntil { (try? scenario.timeline.run(["snapshot", "--check"]).status) == 0 })

        follow.signal(SIGTERM)
        let ending = follow.waitForExit()
        #expect(ending.reason == .uncaughtSignal && ending.status == SIGTERM)
        #expect(follow.errors.isEmpty, "\(follow.errors)")
        // curl was stopped with the follow: the server sees the stream close at its next heartbeat.
        #expect(follow.waitUntil { (try? Self.openStreams(server)) == 0 })
        #expect(!(follow.output + follow.errors).contains(MastodonTestServer.token))
    }

    @Test func whereTheServerRefusesToStreamTheFollowStillStartsWithASync() throws {
        let server = try MastodonTestServer(statuses: 30)
        try server.control("settings", ["streaming": false])
        let scenario = try SyncCommandTests.loggedIn(to: server)
        try scenario.importSample()  // a database to follow, without any of the server's statuses

        let follow = try FollowingProcess(scenario, ["show", "--follow", "--json", "-n", "1"])
        let newest = try #require(try server.state()["newest_status_id"] as? String)
        #expect(follow.waitForOutput { $0.contains("\"id\":\"127.0.0.1:\(server.port)/\(newest)\"") }, "\(follow.errors)")
        #expect(follow.waitUntil {
            (try? scenario.sqlite("SELECT count(*) FROM synced_entries WHERE timeline = 'home'")) == "30"
        })
        #expect(follow.waitUntil {
            (try? server.requests().contains { ($0["path"] as? String) == "/api/v1/streaming/user" }) == true
        })
        // The note follows the server's answer: waited for, not assumed (CI's loaded run ended
        // the follow between the two).
        #expect(follow.waitUntil { follow.errors.contains("checking for them every") }, "\(follow.errors)")
        follow.signal(SIGTERM)
        _ = follow.waitForExit()
        // Polling instead is said once (the server answers 503 here).
        #expect(follow.errors.split(separator: "\n").count == 1, "\(follow.errors)")
        #expect(follow.errors.contains("checking for them every 30 seconds"), "\(follow.errors)")
        // Issue 37: one plain sentence, then the server's answer as its own; no brackets in brackets.
        #expect(!follow.errors.contains("(") || !follow.errors.contains(").)"), "\(follow.errors)")
        #expect(follow.errors.contains("seconds instead. "), "\(follow.errors)")
    }

    /// A token the server no longer accepts ends following the server with a note that says
    /// what to do; following the database goes on.
    @Test func aRefusedTokenIsSaidOnceAndTheDatabaseIsStillFollowed() throws {
        let server = try MastodonTestServer(statuses: 30)
        let scenario = try SyncCommandTests.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        try server.control("faults", ["path": "/api/v1/timelines/home", "status": 401, "times": 5])

        let follow = try FollowingProcess(scenario, ["show", "--follow", "--json", "-n", "1"])
        #expect(follow.waitUntil { follow.errors.contains("timeline login") }, "\(follow.errors)")
        #expect(follow.errors.split(separator: "\n").count == 1)
        #expect(follow.errors.contains("tester@127.0.0.1:\(server.port)"))
        #expect(!follow.errors.contains(MastodonTestServer.token))

        let user = try scenario.timeline.run(["user", "local-1", "--handle", "local", "--name", "Local"])
        #expect(user.status == 0, "\(user.errors)")
        #expect(try scenario.timeline.run(["post", "--local", "--as", "local", "still followed"]).status == 0)
        #expect(follow.waitForOutput { $0.contains("still followed") })
        follow.signal(SIGTERM)
        _ = follow.waitForExit()
    }
}
