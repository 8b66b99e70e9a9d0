import Foundation
import Synchronization
import Testing
@testable import TimelineKit

/// Bluesky link cards (issue 36): the page's head read by `HTMLHeadScanner` (bounded, any
/// input), the card built from it as the official app builds one, its record judged by the
/// official atproto SDK, and every failure leaving the post without a card.
@Suite(.serialized) struct BlueskyLinkCardTests {
    /// FakePDS for the PDS, and web pages of its own for any other address.
    final class Web: HTTPTransport, @unchecked Sendable {
        let pds = FakePDS()
        let pages = Mutex<[String: HTTPResponse]>([:])
        let asked = Mutex<[HTTPRequest]>([])

        func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
            if request.url.hasPrefix(FakePDS.entryway) || request.url.hasPrefix(FakePDS.pds) { return try await pds.send(request) }
            asked.withLock { $0.append(request) }
            return pages.withLock { $0[request.url] } ?? HTTPResponse(status: 404, headers: [], body: Array("not here".utf8))
        }

        func stream(
            _ request: HTTPRequest, receive: @Sendable (_ status: Int, _ chunk: [UInt8]) -> Bool
        ) async throws(HTTPTransportError) -> HTTPResponse {
            throw .unavailable(reason: "no streams here")
        }

        static func html(_ text: String) -> HTTPResponse {
            HTTPResponse(status: 200, headers: [HTTPHeader(name: "Content-Type", value: "text/html; charset=utf-8")], body: Array(text.utf8))
        }
    }

    static let blob = #"{"blob":{"$type":"blob","ref":{"$link":"bafkreibme22gw2h7y2h7tg2fhqotaqjucnbc24deqo72b6mkl2egezxhvy"},"mimeType":"image/png","size":4}}"#

    /// The sync, and the fixture that keeps its database (its directory goes with it).
    func sync(_ web: Web) async throws -> (BlueskySync, SyncFixture) {
        web.pds.answer("com.atproto.repo.createRecord", FakePDS.json(200, #"{"uri":"at://did:plc:x/app.bsky.feed.post/3l3qo2vuowo2b","cid":"bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm"}"#))
        web.pds.answer("com.atproto.repo.uploadBlob", FakePDS.json(200, Self.blob))
        let fixture = try SyncFixture()
        fixture.account = "alice.test"
        let client = BlueskyClient(service: try ServerAddress(FakePDS.entryway), session: nil, transport: web,
                                   policy: RequestPolicy(maximumAttempts: 1), clock: fixture.clock.clock)
        try await client.createSession(identifier: "alice.test", password: FakePDS.password)
        return (BlueskySync(store: fixture.store, account: fixture.account, client: client), fixture)
    }

    func records(_ web: Web) throws -> [[String: Any]] {
        try web.pds.requests.filter { $0.url.hasSuffix("/com.atproto.repo.createRecord") }.map { request in
            let body = try #require(try JSONSerialization.jsonObject(with: Data(request.body ?? [])) as? [String: Any])
            return try #require(body["record"] as? [String: Any])
        }
    }

    @Test func theHeadGivesOpenGraphBeforeTitleWithReferencesDecoded() {
        let page = """
            <!doctype html><html><head><!-- <title>commented</title> -->
            <script>var t = "<title>in a script</title>";</script>
            <title>The  page &amp; its
              title</title>
            <meta property="og:title" content="Caf&eacute; &quot;news&quot;">
            <META NAME=description CONTENT='Plain description'>
            <meta property="og:image" content="/img/card.png">
            </head><body><meta property="og:description" content="in the body"></body></html>
            """
        let head = HTMLHeadScanner(page: Array(page.utf8))
        #expect(head.title == "The page & its title")
        #expect(head.cardTitle == "Café \"news\"")
        #expect(head.cardDescription == "Plain description")
        #expect(head.openGraphImage == "/img/card.png")
        #expect(head.openGraphDescription == nil)
        #expect(HTMLHeadScanner(page: Array("<title>Only a title".utf8)).title == nil)
        #expect(HTMLHeadScanner(page: Array("<head><title>T</title></head>".utf8)).cardTitle == "T")
    }

    /// No input makes it crash or search again what it searched: random tag soup, and a
    /// megabyte of each pathological shape (unclosed comments, titles, quotes, endless tags).
    @Test func anyInputIsScannedInOnePass() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["<", ">", "<meta ", "property=", "\"og:title\"", "'", "\"", "content=", "<title>", "</title", "<!--", "-->",
                      "<script>", "</script>", "&amp;", "&#x", "</head>", "<body", "=", " ", "x", "\u{0}", "é", "\u{FFFD}"]
        for _ in 0 ..< 2_000 {
            let text = (0 ..< Int.random(in: 0 ..< 60, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            _ = HTMLHeadScanner(page: Array(text.utf8))
        }
        let megabyte = 1 << 20
        for shape in ["<", "<!--", "<title>", "<meta content=\"", "<a b=c ", "<script>", "&#x1F600"] {
            let page = Array(String(repeating: shape, count: megabyte / shape.utf8.count + 1).utf8)
            let head = HTMLHeadScanner(page: page)
            #expect(head.cardTitle.map { $0.count <= HTMLHeadScanner.valueLimit } ?? true)
        }
        // Past the byte limit nothing is read.
        let late = Array((String(repeating: " ", count: HTMLHeadScanner.byteLimit) + "<title>late</title>").utf8)
        #expect(HTMLHeadScanner(page: late).title == nil)
    }

    @Test func aLinkGetsTheCardOfItsPageWithAThumbnailAndNoTokenReachesThePage() async throws {
        let web = Web()
        let page = "https://news.example/article"
        web.pages.withLock {
            $0["https://news.example/short"] = HTTPResponse(status: 301, headers: [HTTPHeader(name: "Location", value: "/article")], body: [])
            $0[page] = Web.html(#"<head><title>Fallback</title><meta property="og:title" content="Rock &amp; roll"><meta property="og:description" content="All about it"><meta property="og:image" content="https://cdn.example/card.png"></head>"#)
            $0["https://cdn.example/card.png"] = HTTPResponse(status: 200, headers: [HTTPHeader(name: "Content-Type", value: "image/png")], body: [0x89, 0x50, 0x4E, 0x47])
        }
        let (sync, fixture) = try await sync(web)
        defer { withExtendedLifetime(fixture) {} }
        var post = BlueskyPost(text: "Read https://news.example/short and https://other.example/")
        post.linkCard = true
        try await sync.post(post)
        let record = try #require(try records(web).last)
        let embed = try #require(record["embed"] as? [String: Any])
        #expect(embed["$type"] as? String == "app.bsky.embed.external")
        let external = try #require(embed["external"] as? [String: Any])
        #expect(external["uri"] as? String == "https://news.example/short")
        #expect(external["title"] as? String == "Rock & roll")
        #expect(external["description"] as? String == "All about it")
        #expect(((external["thumb"] as? [String: Any])?["ref"] as? [String: Any])?["$link"] as? String == "bafkreibme22gw2h7y2h7tg2fhqotaqjucnbc24deqo72b6mkl2egezxhvy")
        let asked = web.asked.withLock { $0 }
        #expect(asked.map(\.url) == ["https://news.example/short", page, "https://cdn.example/card.png"])
        #expect(asked.allSatisfy { request in !request.headers.contains { $0.matches("Authorization") || $0.matches("Cookie") } })
        #expect(asked.allSatisfy { $0.maximumResponseBytes <= 1 << 20 })
        let verdicts = try #require(try AtprotoSDK.json("records", input: [record]) as? [Any])
        #expect(verdicts.first is NSNull, "\(verdicts)")
    }

    @Test func aPageThatGivesNoCardLeavesThePostWithoutOneAndSaysSo() async throws {
        let web = Web()
        let said = Mutex<[String]>([])
        LinkCardNotices.listen { sentence in said.withLock { $0.append(sentence) } }
        defer { LinkCardNotices.listen(nil) }
        web.pages.withLock {
            for hop in 1 ... 4 {
                $0["https://loop.example/\(hop)"] = HTTPResponse(status: 302, headers: [HTTPHeader(name: "Location", value: "/\(hop + 1)")], body: [])
            }
        }
        let (sync, fixture) = try await sync(web)
        defer { withExtendedLifetime(fixture) {} }
        for text in ["See https://gone.example/page", "Round https://loop.example/1", "Odd ftp://x.example"] {
            var post = BlueskyPost(text: text)
            post.linkCard = true
            try await sync.post(post)
        }
        let records = try records(web)
        #expect(records.count == 3)
        #expect(records.allSatisfy { $0["embed"] == nil })
        let sentences = said.withLock { $0 }
        #expect(sentences.count == 2, "\(sentences)")
        #expect(sentences.first?.contains("answered 404") == true && sentences.last?.contains("more than 3 redirects") == true, "\(sentences)")
        // Four requests for the loop: the first and three redirects.
        #expect(web.asked.withLock { $0.filter { $0.url.hasPrefix("https://loop.example/") }.count } == 4)

        // Without linkCard (--no-card): no page is read.
        let before = web.asked.withLock { $0.count }
        try await sync.post(BlueskyPost(text: "No card https://news.example/x"))
        #expect(web.asked.withLock { $0.count } == before)
    }
}
