import Foundation
import Testing

/// `post` on Bluesky with a link in its text (issue 36): the card the command makes from a page
/// a loopback web server serves (`tools/hostile-server/`, which records every request with its
/// `Authorization`), posted to the loopback Bluesky server and taken by the official SDK.
@Suite(.serialized) struct LinkCardCommandTests {
    /// The web server's pages: a page with OpenGraph tags and entities, its picture, a page past
    /// the size limit and a redirect loop.
    static func web() throws -> HostileServer {
        let web = try HostileServer()
        let html = ["Content-Type": "text/html; charset=utf-8"]
        try web.routes([
            "/page": HostileServer.answer(headers: html, body: """
                <!doctype html><html><head><title>Not this one</title>
                <meta property="og:title" content="Rock &amp; roll">
                <meta property="og:description" content="Fish &amp; chips &#8212; &quot;fresh&quot; &lt;today&gt;">
                <meta property="og:image" content="/card.png">
                </head><body>The page</body></html>
                """),
            "/card.png": ["status": 200, "headers": ["Content-Type": "image/png"],
                          "body_base64": Data(BrowsePictureReplyCommandTests.png).base64EncodedString()],
            // Past the 1 MB a card's page may be: its title comes too late to be read.
            "/big": ["status": 200, "headers": html, "body": "<html><head>",
                     "repeat": ["text": String(repeating: "<!-- padding -->", count: 64), "count": 1100],
                     "after": "<title>Too far</title></head></html>"],
            "/loop": HostileServer.answer(status: 302, headers: ["Location": "/loop"]),
        ])
        return web
    }

    /// The records of the posts the Bluesky server made, oldest first.
    static func posts(_ server: MastodonTestServer) throws -> [[String: Any]] {
        (try server.state()["created"] as? [[String: Any]] ?? []).filter { ($0["uri"] as? String)?.contains("/app.bsky.feed.post/") == true }
            .compactMap { $0["record"] as? [String: Any] }
    }

    @Test func aLinkGetsItsPagesCardWithItsPictureAndThePageNeverSeesAToken() async throws {
        let server = try BlueskyTestServer.start(posts: 10)
        let scenario = try BlueskyCommandTests.loggedIn(to: server)
        let web = try Self.web()
        let link = web.baseURL + "/page"

        let posted = try await scenario.timeline.runOffThePool(["post", "see \(link) today"])
        #expect(posted.status == 0 && !posted.errors.contains("link card"), "\(posted.errors)")
        let record = try #require(try Self.posts(server).last)
        let embed = try #require(record["embed"] as? [String: Any], "\(record)")
        #expect(embed["$type"] as? String == "app.bsky.embed.external")
        let external = try #require(embed["external"] as? [String: Any])
        #expect(external["uri"] as? String == link)
        #expect(external["title"] as? String == "Rock & roll")
        #expect(external["description"] as? String == #"Fish & chips — "fresh" <today>"#, "\(external)")
        let blob = try #require((try server.state()["blobs"] as? [[String: Any]])?.last)
        #expect(blob["mimeType"] as? String == "image/png" && blob["size"] as? Int == BrowsePictureReplyCommandTests.png.count, "\(blob)")
        let thumb = try #require(external["thumb"] as? [String: Any])
        #expect((thumb["ref"] as? [String: Any])?["$link"] as? String == blob["cid"] as? String, "\(thumb)")
        #expect(thumb["mimeType"] as? String == "image/png")
        // The page and its picture were read as a stranger reads them.
        let asked = try web.requests()
        #expect(asked.map { $0["path"] as? String } == ["/page", "/card.png"], "\(asked)")
        #expect(asked.allSatisfy { $0["authorization"] is NSNull || $0["authorization"] == nil }, "\(asked)")
        // The official SDK takes the record.
        let verdicts = try #require(try AtprotoSDKRecords.verdicts([record]))
        #expect(verdicts.first is NSNull, "\(verdicts)")

        // --no-card: no embed, and the page is not read.
        let plain = try await scenario.timeline.runOffThePool(["post", "--no-card", "again \(link)"])
        #expect(plain.status == 0, "\(plain.errors)")
        let second = try #require(try Self.posts(server).last)
        #expect(second["text"] as? String == "again \(link)" && second["embed"] == nil, "\(second)")
        #expect(try web.requests().count == 2)
    }

    @Test func aPageTooLargeOrARedirectLoopPostsWithoutACardAndSaysWhy() async throws {
        let server = try BlueskyTestServer.start(posts: 10)
        let scenario = try BlueskyCommandTests.loggedIn(to: server)
        let web = try Self.web()

        let big = try await scenario.timeline.runOffThePool(["post", "large \(web.baseURL)/big"])
        #expect(big.status == 0, "\(big.errors)")
        #expect(big.errors.contains("the post goes without a link card: \(web.baseURL)/big could not be read"), "\(big.errors)")
        let loop = try await scenario.timeline.runOffThePool(["post", "round \(web.baseURL)/loop"])
        #expect(loop.status == 0, "\(loop.errors)")
        #expect(loop.errors.contains("more than 3 redirects"), "\(loop.errors)")
        // Both posted, neither with a card: the post is never lost for its card.
        let records = try Self.posts(server)
        #expect(records.map { $0["text"] as? String } == ["large \(web.baseURL)/big", "round \(web.baseURL)/loop"], "\(records)")
        #expect(records.allSatisfy { $0["embed"] == nil })
        // The loop: the first request and 3 redirects followed.
        #expect(try web.requests().filter { $0["path"] as? String == "/loop" }.count == 4)
        #expect((try server.state()["blobs"] as? [[String: Any]] ?? []).isEmpty)
    }
}
