import Foundation
import Synchronization
import Testing
import TimelineFeeds
import TimelineKit

/// A transport that answers from a table by URL and records every request.
final class TableTransport: HTTPTransport {
    let answers: [String: HTTPResponse]
    let sent = Mutex<[HTTPRequest]>([])

    init(_ answers: [String: HTTPResponse]) { self.answers = answers }

    func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
        sent.withLock { $0.append(request) }
        guard let answer = answers[request.url] else { throw .cannotConnect(url: request.url, reason: "no route") }
        return answer
    }

    func stream(_ request: HTTPRequest, receive: @Sendable (Int, [UInt8]) -> Bool) async throws(HTTPTransportError) -> HTTPResponse {
        throw .unavailable(reason: "no streams here")
    }
}

@Suite struct FeedFetcherTests {
    static let feed = Array("<rss version=\"2.0\"><channel><title>T</title></channel></rss>".utf8)

    static func redirect(_ status: Int, to location: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader(name: "Location", value: location)])
    }

    @Test func validatorsGoBackExactlyAsReceivedAndA304IsNotModified() async throws {
        let transport = TableTransport(["https://a.example/f": HTTPResponse(status: 304)])
        let validators = FeedValidators(etag: #"W/"abc""#, lastModified: "Tue, 01 Dec 2026 10:00:00 GMT")
        let result = try await FeedFetcher(transport: transport).fetch("https://a.example/f", validators: validators)
        #expect(result.outcome == .notModified)
        #expect(result.validators == validators)
        let request = try #require(transport.sent.withLock { $0.first })
        #expect(request.headers.first { $0.matches("If-None-Match") }?.value == #"W/"abc""#)
        #expect(request.headers.first { $0.matches("If-Modified-Since") }?.value == "Tue, 01 Dec 2026 10:00:00 GMT")
        #expect(request.headers.first { $0.matches("User-Agent") }?.value == FeedFetcher.defaultUserAgent)
        #expect(request.maximumResponseBytes == 10 << 20)
    }

    @Test func aFetchWithoutValidatorsSendsNoConditionalHeadersAndKeepsTheAnswersValidators() async throws {
        let transport = TableTransport(["https://a.example/f": HTTPResponse(
            status: 200, headers: [HTTPHeader(name: "ETag", value: #"W/"x1""#), HTTPHeader(name: "Last-Modified", value: "Mon")], body: Self.feed)])
        let result = try await FeedFetcher(transport: transport).fetch("https://a.example/f")
        #expect(result.outcome == .fetched(body: Self.feed))
        #expect(result.validators == FeedValidators(etag: #"W/"x1""#, lastModified: "Mon"))
        #expect(transport.sent.withLock { $0[0].headers.contains { $0.matches("If-None-Match") || $0.matches("If-Modified-Since") } } == false)
    }

    @Test func a301IsReportedAsAMoveAndA302IsFollowedWithoutOne() async throws {
        let transport = TableTransport([
            "https://a.example/old": Self.redirect(301, to: "/new"),
            "https://a.example/new": Self.redirect(302, to: "https://b.example/today"),
            "https://b.example/today": HTTPResponse(status: 200, body: Self.feed),
            "https://a.example/temporary": Self.redirect(302, to: "/new2"),
            "https://a.example/new2": HTTPResponse(status: 200, body: Self.feed),
        ])
        let moved = try await FeedFetcher(transport: transport).fetch("https://a.example/old")
        #expect(moved.finalURL == "https://b.example/today")
        #expect(moved.movedPermanentlyTo == "https://a.example/new")
        let temporary = try await FeedFetcher(transport: transport).fetch("https://a.example/temporary")
        #expect(temporary.finalURL == "https://a.example/new2")
        #expect(temporary.movedPermanentlyTo == nil)
    }

    @Test func aRedirectFromHTTPSToHTTPIsRefused() async {
        let transport = TableTransport(["https://a.example/f": Self.redirect(301, to: "http://a.example/f")])
        await #expect(throws: FeedFetchError.insecureRedirect(from: "https://a.example/f", to: "http://a.example/f")) {
            try await FeedFetcher(transport: transport).fetch("https://a.example/f")
        }
    }

    @Test func theSixthRedirectInARowIsRefused() async {
        let transport = TableTransport(["https://a.example/loop": Self.redirect(302, to: "/loop")])
        await #expect(throws: FeedFetchError.tooManyRedirects(url: "https://a.example/loop", limit: 5)) {
            try await FeedFetcher(transport: transport).fetch("https://a.example/loop")
        }
        #expect(transport.sent.withLock { $0.count } == 6)
    }

    @Test func anErrorStatusIsThrownNamingTheURL() async {
        let transport = TableTransport(["https://a.example/f": HTTPResponse(status: 404)])
        await #expect(throws: FeedFetchError.status(404, url: "https://a.example/f")) {
            try await FeedFetcher(transport: transport).fetch("https://a.example/f")
        }
    }
}
