import Foundation
import Testing

/// `show -f` as a person meets it: right after login, with no database yet, and while the
/// server goes away and comes back (issue 23, items 1 and 4).
@Suite struct FollowOnTheFirstDayTests {
    @Test func followingRightAfterLoginCreatesTheDatabaseAndShowsWhatTheSyncBrings() throws {
        let server = try MastodonTestServer(statuses: 30)
        let home = try NextStepTests.loggedIn(server)
        let follow = try FollowingProcess(environment: home.timeline.environment, ["show", "--follow", "--json", "-n", "1"])
        let newest = try #require(try server.state()["newest_status_id"] as? String)
        #expect(follow.waitForOutput { $0.contains("/\(newest)\"") }, "\(follow.errors)")
        #expect(home.permissions(".local/share/timeline") == 0o700)
        follow.signal(SIGTERM)
        _ = follow.waitForExit()
    }

    @Test func aServerThatStopsAnsweringIsSaidOnceAndItsReturnToo() throws {
        let server = try MastodonTestServer(statuses: 30)
        try server.control("settings", ["heartbeat": 0.2])
        let home = try NextStepTests.loggedIn(server)
        #expect(try home.timeline.run(["sync"]).status == 0)
        let follow = try FollowingProcess(environment: home.timeline.environment, ["show", "--follow", "--json", "-n", "1"])
        #expect(follow.waitUntil { (try? LiveFollowCommandTests.openStreams(server)) == 1 }, "\(follow.errors)")

        // The server fails every request of the next round (all its retries), then answers again.
        try server.control("faults", ["path": "/api/v1/timelines/home", "status": 503, "times": 4])
        _ = try server.control("end_streams", [String: Any]())
        #expect(FollowCommandTests.waitUntil(seconds: 30) { follow.errors.contains("cannot reach the server") }, "\(follow.errors)")
        #expect(follow.waitUntil { (try? LiveFollowCommandTests.openStreams(server)) == 1 }, "\(follow.errors)")
        _ = try server.control("end_streams", [String: Any]())
        #expect(FollowCommandTests.waitUntil(seconds: 20) { follow.errors.contains("the server answers again") }, "\(follow.errors)")
        follow.signal(SIGTERM)
        _ = follow.waitForExit()
        #expect(follow.errors.components(separatedBy: "cannot reach the server").count == 2, "said once: \(follow.errors)")
    }
}
