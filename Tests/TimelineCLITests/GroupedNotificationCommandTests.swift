import Foundation
import Testing

/// Issue 37, grouped notifications: Mastodon 4.3's `GET /api/v2/notifications` where the server
/// has it (the loopback server's `grouped_notifications` setting), the v1 list where it does
/// not (remembered); the notifications its filters hold back counted at sync, said under the
/// list, and listed by `show --notifications --requests`.
@Suite(.serialized) struct GroupedNotificationCommandTests {
    static func paths(_ server: MastodonTestServer) throws -> [String] {
        try server.requests().compactMap { $0["path"] as? String }
    }

    @Test func favouritesOfOnePostAreOneLineSayingHowManyAndAGroupThatGrowsReplacesItsLine() async throws {
        let server = try MastodonTestServer()
        _ = try server.control("settings", ["grouped_notifications": true])
        _ = try server.control("notifications", ["count": 5])
        _ = try server.control("notification_requests", ["count": 3])
        let scenario = try SyncCommandTests.loggedIn(to: server)
        #expect(try await scenario.timeline.runOffThePool(["sync"]).status == 0)
        let grouped = try server.requests().filter { $0["path"] as? String == "/api/v2/notifications" }
        #expect(!grouped.isEmpty && grouped.allSatisfy { ($0["query"] as? String)?.contains("grouped_types%5B%5D=favourite") == true }, "\(grouped)")
        #expect(!(try Self.paths(server)).contains("/api/v1/notifications"))

        let shown = try await scenario.timeline.runOffThePool(["show", "--notifications", "--only", "favourites", "-n", "50", "--color", "never"])
        #expect(shown.status == 0, "\(shown.errors)")
        let groupLines = shown.output.split(separator: "\n").filter { $0.contains(" and 4 others liked your post") }
        #expect(groupLines.count == 1, "\(shown.output)")
        #expect(shown.errors.contains("9 notifications from 3 accounts held back by your server's filters: timeline show --notifications --requests"),
                "\(shown.errors)")

        _ = try server.control("notifications", ["count": 2])
        #expect(try await scenario.timeline.runOffThePool(["sync"]).status == 0)
        let again = try await scenario.timeline.runOffThePool(["show", "--notifications", "--only", "favourites", "-n", "50", "--color", "never"])
        let lines = again.output.split(separator: "\n")
        #expect(lines.filter { $0.contains(" and 6 others liked your post") }.count == 1, "\(again.output)")
        #expect(!lines.contains { $0.contains(" and 4 others") }, "\(again.output)")

        let requests = try await scenario.timeline.runOffThePool(["show", "--notifications", "--requests"])
        #expect(requests.status == 0, "\(requests.errors)")
        let requestLines = requests.output.split(separator: "\n")
        #expect(requestLines.count == 3 && requestLines.allSatisfy { $0.hasPrefix("@") && $0.contains(" notifications") }, "\(requests.output)")
        let json = try await scenario.timeline.runOffThePool(["show", "--notifications", "--requests", "--json"])
        let counts = json.output.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["notifications"] as? Int
        }
        #expect(counts == [2, 3, 4])
    }

    @Test func aServerWithoutGroupsIsReadThroughTheV1ListAndNotAskedAgain() async throws {
        let server = try MastodonTestServer()
        let scenario = try SyncCommandTests.loggedIn(to: server)
        #expect(try await scenario.timeline.runOffThePool(["sync"]).status == 0)
        var paths = try Self.paths(server)
        #expect(paths.filter { $0 == "/api/v2/notifications" }.count == 1)
        #expect(paths.contains("/api/v1/notifications"))
        #expect(!paths.contains("/api/v1/notifications/policy"))
        let sync = try await scenario.timeline.runOffThePool(["sync", "--json"])
        #expect(sync.output.contains("\"server_lacks\":[]"), "\(sync.output)")
        paths = try Self.paths(server)
        #expect(paths.filter { $0 == "/api/v2/notifications" }.count == 1)

        let shown = try await scenario.timeline.runOffThePool(["show", "--notifications", "-n", "50"])
        #expect(shown.status == 0 && !shown.output.contains(" others "), "\(shown.output)")
        #expect(!shown.errors.contains("held back"))
        let requests = try await scenario.timeline.runOffThePool(["show", "--notifications", "--requests"])
        #expect(requests.status != 0)
        #expect(requests.errors.contains("filtered notification requests (Mastodon 4.3)"), "\(requests.errors)")
        #expect(requests.errors.split(separator: "\n").count == 1, "\(requests.errors)")
    }
}
