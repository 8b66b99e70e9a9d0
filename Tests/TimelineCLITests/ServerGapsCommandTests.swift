import Foundation
import Testing

/// What real servers of the Mastodon API lack (Takahē: no markers, no streaming; see
/// `../shared/real-servers/takahe/`), met through the loopback server's settings that copy them:
/// an optional endpoint missing is "not supported by this server", said once, remembered per
/// account, and never the end of a sync.
@Suite(.timeLimit(.minutes(2)))
struct ServerGapsCommandTests {
    private static func requests(_ server: MastodonTestServer, to path: String) throws -> Int {
        try server.requests().filter { ($0["path"] as? String) == path }.count
    }

    /// Every way a server says it has no such endpoint: Django's 404 page (Takahē), a JSON 404,
    /// 405, 410, 501, and a web app's page answered with 200.
    @Test(arguments: ["404-html", "404", "405", "410", "501", "200-html"])
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
}
