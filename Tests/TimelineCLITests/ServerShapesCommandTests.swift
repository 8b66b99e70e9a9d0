import Foundation
import Testing

/// What real servers of the Mastodon API send, through the loopback server's imitations of them:
/// IDs of every shape real servers use, JSON keys in any order, attachments of type `unknown`,
/// content warnings carrying HTML. IDs are opaque strings: paging, gaps, replies and the read
/// marker work whatever their shape.
@Suite(.timeLimit(.minutes(5)))
struct ServerShapesCommandTests {
    /// Mastodon's snowflakes, GoToSocial's ULIDs, Akkoma's flake IDs, Mitra's UUIDv7 and
    /// Sharkey's aids, each with the JSON keys of every object in a random order.
    // One case at a time: each starts a server and several processes (two cores starve otherwise).
    @Test(.serialized, arguments: ["snowflake", "ulid", "flake", "uuid7", "aid"])
    func aServerOfAnyIDShapeSyncsPagesMarksAndReplies(shape: String) throws {
        let server = try MastodonTestServer(statuses: 100, arguments: ["--id-shape", shape])
        try server.control("settings", ["shuffle_keys": true])
        let scenario = try SyncCommandTests.loggedIn(to: server)
        let prefix = "127.0.0.1:\(server.port)/"

        // The first sync pages through all 100 (three pages of at most 40).
        let first = try scenario.timeline.run(["sync", "--json"])
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.output.contains("\"new_statuses\":100"), "\(first.output)")
        let ids = try #require(try server.state()["status_ids"] as? [String])
        let newest = ids[0]
        #expect(try scenario.sqlite("SELECT count(*) FROM messages WHERE id = '\(prefix)\(newest)'") == "1")

        // New statuses on top: only they are stored, above what was there.
        let added = try #require((try server.control("statuses", ["count": 3]) as? [String: Any])?["added"] as? [String])
        let second = try scenario.timeline.run(["sync", "--json"])
        #expect(second.status == 0, "\(second.errors)")
        #expect(second.output.contains("\"new_statuses\":3"), "\(second.output)")
        #expect(try scenario.sqlite("SELECT count(*) FROM synced_entries WHERE timeline = 'home'") == "103")

        // The read marker is set to the newest status, by its ID as the server wrote it.
        let marked = try scenario.timeline.run(["mark-read", "--all", "--json"])
        #expect(marked.output.contains("\"markers_set\":1"), "\(marked.output)\(marked.errors)")
        let state = try server.state()
        let markers = state["markers"] as? [String: [String: Any]]
        let top = (state["status_ids"] as? [String])?.first
        #expect(added.contains(top ?? ""))
        #expect(markers?["home"]?["last_read_id"] as? String == top, "\(String(describing: markers))")

        // A reply names its target by the server's ID, whatever its shape.
        let reply = try scenario.timeline.run(["post", "--reply-to", prefix + ids[5], "--json", "a reply"])
        #expect(reply.status == 0, "\(reply.errors)")
        let posted = try #require(try server.requests().last { ($0["path"] as? String) == "/api/v1/statuses" })
        #expect((posted["body_length"] as? Int ?? 0) > 0)
    }

    /// A file the server could not fetch (`type: unknown`, no `url`) is kept as an attachment
    /// with its remote address and description; a content warning in HTML reads as text.
    @Test func anUnknownAttachmentAndAContentWarningInHTMLArriveAsAPersonWouldReadThem() throws {
        let server = try MastodonTestServer(statuses: 100)
        let scenario = try SyncCommandTests.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        let attachments = try scenario.sqlite("SELECT attachments FROM messages WHERE text LIKE 'Generated status 53:%'")
        #expect(attachments.contains("\"kind\":\"unknown\"") && attachments.contains("https://remote.example/media/53.bin")
                && attachments.contains("a file from far away"), "\(attachments)")
        let warning = try scenario.sqlite("SELECT content_warning FROM messages WHERE text LIKE 'Generated status 52:%'")
        #expect(warning == "Spoilers for Dune & its ending (52)")
    }
}
