import Foundation
import Testing

/// `timeline mark-read` with an account: the server's home read marker moves at once when the
/// server answers, and a server that does not answer costs a note, never the local marking.
@Suite struct ReadMarkerCommandTests {
    private static func homeMarker(_ server: MastodonTestServer) throws -> String? {
        let markers = try server.state()["markers"] as? [String: Any]
        return (markers?["home"] as? [String: Any])?["last_read_id"] as? String
    }

    private static func markerPosts(_ server: MastodonTestServer) throws -> Int {
        try server.requests().filter { ($0["path"] as? String) == "/api/v1/markers" && ($0["method"] as? String) == "POST" }.count
    }

    @Test func markingTheNewestMessagesReadSetsTheServersMarkerAtOnce() throws {
        let server = try MastodonTestServer(statuses: 30)
        let scenario = try SyncCommandTests.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        #expect(try Self.homeMarker(server) == nil)

        let newest = try #require(try server.state()["newest_status_id"] as? String)
        let result = try scenario.timeline.run(["mark-read", "--all", "--json"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.errors.isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(object["markers_set"] as? Int == 1)
        #expect(try Self.homeMarker(server) == newest)
        #expect(!(result.output + result.errors).contains(MastodonTestServer.token))
    }

    @Test func offlineOrUnreachableTheMarkingStandsAndTheNextSyncSetsTheMarker() throws {
        let server = try MastodonTestServer(statuses: 30)
        let scenario = try SyncCommandTests.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        let newest = try #require(try server.state()["newest_status_id"] as? String)

        // --offline: no request at all; the next sync sets the marker.
        let before = try server.requests().count
        let offline = try scenario.timeline.run(["mark-read", "--offline", "--all"])
        #expect(offline.status == 0 && offline.output.hasPrefix("Marked "), "\(offline.errors)")
        #expect(try server.requests().count == before)
        #expect(try Self.homeMarker(server) == nil)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        #expect(try Self.homeMarker(server) == newest)

        // A server that fails: the message stays read here, a note says what happens next.
        let added = try #require((try server.control("statuses", ["count": 1]) as? [String: Any])?["added"] as? [String])
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        let id = "127.0.0.1:\(server.port)/\(added[0])"
        try server.control("faults", ["path": "/api/v1/markers", "status": 500, "times": 1])
        let failed = try scenario.timeline.run(["mark-read", id])
        #expect(failed.status == 0)
        #expect(failed.output == "Marked 1 message read.\n")
        #expect(failed.errors.contains("the next `timeline sync` sets it"), "\(failed.errors)")
        #expect(try scenario.sqlite("SELECT count(*) FROM unread_messages JOIN messages USING (seq) WHERE id = '\(id)'") == "0")
        #expect(try Self.homeMarker(server) == newest)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        #expect(try Self.homeMarker(server) == added[0])

        // Marking unread tells the server nothing: a marker never moves back.
        let posts = try Self.markerPosts(server)
        #expect(try scenario.timeline.run(["mark-read", "--unread", id]).status == 0)
        #expect(try Self.markerPosts(server) == posts)

        // Messages of no account (a local post) ask no server.
        #expect(try scenario.timeline.run(["user", "me", "--handle", "me", "--name", "Me"]).status == 0)
        let local = try scenario.timeline.run(["post", "--local", "--as", "me", "a note", "--json"])
        let localID = try #require((try JSONSerialization.jsonObject(with: Data(local.output.utf8)) as? [String: Any])?["id"] as? String)
        let requests = try server.requests().count
        #expect(try scenario.timeline.run(["mark-read", "--unread", localID]).status == 0)
        #expect(try scenario.timeline.run(["mark-read", localID]).status == 0)
        #expect(try server.requests().count == requests)
    }
}
