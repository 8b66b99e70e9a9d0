import Foundation
import Testing

/// `sync --json` names the pictures of a post that waited in the outbox and went out during the
/// sync (issue 36: "--json says the posted IDs, media IDs or blob CIDs"), as `post --json` names
/// those of a post sent at once: against the loopback servers, whose uploads fail while `post`
/// runs.
@Suite(.serialized) struct SyncPictureJSONCommandTests {
    /// The `changes.sent` objects of the one account `sync --json` printed.
    static func sentChanges(_ output: String) throws -> [[String: Any]] {
        let line = try #require(output.split(separator: "\n").first, "\(output)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(output)")
        return try #require((object["changes"] as? [String: Any])?["sent"] as? [[String: Any]], "\(output)")
    }

    @Test func aMastodonPostThatWaitedWithPicturesIsSentWithItsMediaIDs() async throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        let first = home.directory + "/first.png", second = home.directory + "/second.png"
        try Data(BrowsePictureReplyCommandTests.png).write(to: URL(fileURLWithPath: first))
        try Data(BrowsePictureReplyCommandTests.png).write(to: URL(fileURLWithPath: second))
        // Both tries of the command's first upload answered 503: kept before any upload.
        try server.control("faults", ["path": "/api/v2/media", "status": 503, "times": 2])
        let kept = try await home.timeline.runOffThePool(["post", "--image", first, "--alt", "one", "--image", second, "--alt", "two", "Pictures later"])
        #expect(kept.status == 0 && kept.output.hasPrefix("Not sent yet:"), "\(kept.output)\(kept.errors)")

        let synced = try await home.timeline.runOffThePool(["sync", "--json"])
        #expect(synced.status == 0, "\(synced.errors)")
        let sent = try Self.sentChanges(synced.output)
        #expect(sent.count == 1, "\(synced.output)")
        #expect(sent.first?["kind"] as? String == "post")
        #expect(sent.first?["media"] as? [String] == ["7001", "7002"], "\(synced.output)")
        let status = try #require(try EditAndVoteCommandTests.sent(server, "POST", "/api/v1/statuses").last?["json"] as? [String: Any])
        #expect(status["media_ids"] as? [String] == ["7001", "7002"])
        // A post without pictures names none.
        try server.control("faults", ["path": "/api/v1/statuses", "status": 503, "times": 2])
        #expect(try await home.timeline.runOffThePool(["post", "Words later"]).output.hasPrefix("Not sent yet:"))
        let plain = try Self.sentChanges(try await home.timeline.runOffThePool(["sync", "--json"]).output)
        #expect(plain.count == 1 && plain.first?["media"] == nil && plain.first?["id"] != nil, "\(plain)")
    }

    @Test func aBlueskyPostThatWaitedWithAPictureIsSentWithItsBlobCID() async throws {
        let server = try BlueskyTestServer.start(posts: 10)
        let scenario = try BlueskyCommandTests.loggedIn(to: server)
        let picture = scenario.directory + "/cat.png"
        try Data(BrowsePictureReplyCommandTests.png).write(to: URL(fileURLWithPath: picture))
        try server.control("faults", ["nsid": "com.atproto.repo.uploadBlob", "status": 503, "times": 2])
        let kept = try await scenario.timeline.runOffThePool(["post", "--image", picture, "--alt", "A cat", "Cat later"])
        #expect(kept.status == 0 && kept.output.hasPrefix("Not sent yet:"), "\(kept.output)\(kept.errors)")

        let synced = try await scenario.timeline.runOffThePool(["sync", "--json"])
        #expect(synced.status == 0, "\(synced.errors)")
        let blobs = try #require(try server.state()["blobs"] as? [[String: Any]])
        #expect(blobs.count == 1)
        let sent = try Self.sentChanges(synced.output)
        #expect(sent.count == 1 && sent.first?["kind"] as? String == "post", "\(synced.output)")
        #expect(sent.first?["media"] as? [String] == [try #require(blobs.first?["cid"] as? String)], "\(synced.output)")
    }
}
