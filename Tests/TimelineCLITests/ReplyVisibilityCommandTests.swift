import Foundation
import Testing
import TimelineKit

/// Issue 34: `post --reply-to` of a direct message went out public. Against the loopback
/// Mastodon server, whose statuses answer with the visibility a test gives them.
@Suite(.serialized) struct ReplyVisibilityCommandTests {
    /// The newest status of `server`, made `visibility`, synced: its short reference.
    static func status(_ server: MastodonTestServer, _ home: Scenario, visibility: String) throws -> String {
        let serverID = try #require(try server.state()["newest_status_id"] as? String)
        try server.control("set_status", ["id": serverID, "fields": ["visibility": visibility] as [String: Any]])
        #expect(try home.timeline.run(["sync"]).status == 0)
        let line = try #require(try home.timeline.run(["show", "-n", "200", "--format", "{ref} {id}"]).output
            .split(separator: "\n").first { $0.hasSuffix("/" + serverID) })
        return String(line.split(separator: " ")[0])
    }

    static func lastPostVisibility(_ server: MastodonTestServer) throws -> String? {
        let posts = try server.requests().filter { ($0["method"] as? String) == "POST" && ($0["path"] as? String) == "/api/v1/statuses" }
        return (posts.last?["json"] as? [String: Any])?["visibility"] as? String
    }

    @Test func aReplyToADirectMessageIsDirectAndOneMadeWiderSaysSo() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        let ref = try Self.status(server, home, visibility: "direct")

        let quiet = try home.timeline.run(["post", "--reply-to", ref, "psst, back"])
        #expect(quiet.status == 0, "\(quiet.errors)")
        #expect(try Self.lastPostVisibility(server) == "direct")
        #expect(quiet.errors.isEmpty, "\(quiet.errors)")

        let loud = try home.timeline.run(["post", "--reply-to", ref, "--visibility", "public", "for everyone"])
        #expect(loud.status == 0, "\(loud.errors)")
        #expect(try Self.lastPostVisibility(server) == "public")
        #expect(loud.errors.contains("the reply is public, wider than the direct post it answers"), "\(loud.errors)")
    }
}
