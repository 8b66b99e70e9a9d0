import Foundation
import Testing
@testable import TimelineKit

/// The pieces of `CurlTransport` that need no network: URL checks, the config curl reads, the
/// header dump parser, the exit status mapping. `Tests/TimelineCLITests/CurlTransportTests`
/// runs the whole against a real server.
@Suite struct CurlPartsTests {
    @Test func requestURLsAreSplitAndLoopbackIsRecognised() throws {
        let url = try RequestURL("HTTPS://Mastodon.Social:8443/api/v1/timelines/home?limit=40")
        #expect(url.scheme == "https")
        #expect(url.host == "mastodon.social")
        #expect(url.port == 8443)
        #expect(url.pathAndQuery == "/api/v1/timelines/home?limit=40")
        #expect(url.origin == "https://mastodon.social:8443")
        #expect(try RequestURL("http://[::1]:3000").origin == "http://[::1]:3000")
        #expect(try RequestURL("http://127.255.0.9?x").pathAndQuery == "/?x")
        #expect(try RequestURL("http://LOCALHOST/").host == "localhost")
        for host in ["127.0.0.1", "127.1.2.3", "127.255.255.255", "localhost", "::1"] {
            #expect(RequestURL.isLoopback(host), "\(host)")
        }
        for host in ["128.0.0.1", "127.0.0", "127.0.0.1.", "127.00.0.1", "127.0.0.256", "0x7f.0.0.1", "::2", "localhost.", "127.0.0.1.nip.io"] {
            #expect(!RequestURL.isLoopback(host), "\(host)")
        }
    }

    @Test func theConfigurationHoldsEverySafeguardAndQuotesValues() throws {
        let request = HTTPRequest(method: .post, url: "https://example.social/api/v1/statuses?a[]=1",
                                  headers: [HTTPHeader(name: "Authorization", value: #"Bearer a"b\c"#),
                                            HTTPHeader(name: "Idempotency-Key", value: "")],
                                  body: [1, 2, 3], timeout: .milliseconds(2500), maximumResponseBytes: 4096)
        let lines = String(decoding: try CurlConfiguration(request, streaming: false, userAgent: "timeline/test").text, as: UTF8.self)
            .split(separator: "\n").map(String.init)
        for expected in ["silent", "show-error", "globoff", "suppress-connect-headers", #"proto = "=https,http""#,
                         #"dump-header = "/dev/fd/4""#, #"url = "https://example.social/api/v1/statuses?a[]=1""#,
                         #"request = "POST""#, #"header = "Expect:""#, "max-time = 2.500", "max-filesize = 4096",
                         #"header = "Authorization: Bearer a\"b\\c""#, #"header = "Idempotency-Key;""#,
                         #"data-binary = "@/dev/fd/3""#, #"user-agent = "timeline/test""#] {
            #expect(lines.contains(expected), "\(expected)")
        }
        // Never: skipping certificate checks, following redirects, or a proxy bypass for https.
        #expect(!lines.contains { $0.hasPrefix("insecure") || $0.hasPrefix("location") || $0.hasPrefix("noproxy") || $0.hasPrefix("include") })
        // The arguments are the same for every request: nothing of it is in them.
        #expect(CurlConfiguration.arguments == ["curl", "-q", "--config", "-"])

        let loopback = String(decoding: try CurlConfiguration(HTTPRequest(url: "http://127.0.0.1:9/"), streaming: true, userAgent: "t").text, as: UTF8.self)
        #expect(loopback.contains("\nnoproxy = \"*\"\n"))
        #expect(loopback.contains("\nno-buffer\n"))
        #expect(!loopback.contains("max-time") && !loopback.contains("data-binary"))
    }

    @Test func headerNamesAndValuesThatWouldInjectAreRefused() {
        for header in [HTTPHeader(name: "X", value: "a\r\nInjected: 1"), HTTPHeader(name: "X", value: "a\nb"),
                       HTTPHeader(name: "X", value: "a\u{0}"), HTTPHeader(name: "Bad Name", value: "v"), HTTPHeader(name: "", value: "v")] {
            #expect(throws: HTTPTransportError.self) {
                try CurlConfiguration(HTTPRequest(url: "https://example.social/", headers: [header]), streaming: false, userAgent: "t")
            }
        }
    }

    @Test func theHeadIsTheFirstFinalBlockOfTheDump() throws {
        var parser = ResponseHeadParser()
        let dump = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n"
            + "HTTP/1.1 429 Too Many Requests\r\nX-RateLimit-Remaining:  0 \r\nLink: <a>; rel=\"next\",\r\n <b>; rel=\"prev\"\r\nx-ratelimit-reset: 2024-01-01T00:00:00Z\r\n\r\n"
            + "X-Trailer: ignored\r\n\r\n"
        // Fed in pieces as small as a byte: a pipe splits anywhere.
        for byte in Array(dump.utf8) { try parser.append([byte]) }
        let head = try #require(parser.head)
        #expect(head.status == 429)
        #expect(head.headers == [HTTPHeader(name: "X-RateLimit-Remaining", value: "0"),
                                 HTTPHeader(name: "Link", value: #"<a>; rel="next", <b>; rel="prev""#),
                                 HTTPHeader(name: "x-ratelimit-reset", value: "2024-01-01T00:00:00Z")])
        let response = HTTPResponse(status: head.status, headers: head.headers)
        #expect(response.header("X-RATELIMIT-RESET") == "2024-01-01T00:00:00Z")

        var http2 = ResponseHeadParser()
        try http2.append(Array("HTTP/2 200\ncontent-type: application/json\n\n".utf8))
        #expect(http2.head?.status == 200)
        #expect(http2.head?.headers == [HTTPHeader(name: "content-type", value: "application/json")])

        var garbage = ResponseHeadParser()
        #expect(throws: ResponseHeadParser.Failure.notHTTP(line: "SSH-2.0-OpenSSH_9.2")) {
            try garbage.append(Array("SSH-2.0-OpenSSH_9.2\r\n".utf8))
        }
        var endless = ResponseHeadParser()
        try endless.append(Array("HTTP/1.1 200 OK\r\n".utf8))
        #expect(throws: ResponseHeadParser.Failure.tooLarge) {
            for _ in 0..<10_000 { try endless.append(Array("X-Filler: \(String(repeating: "x", count: 100))\r\n".utf8)) }
        }
    }

    @Test func curlsExitStatusesBecomeTransportErrors() {
        let request = HTTPRequest(url: "https://example.social/", timeout: .seconds(7), maximumResponseBytes: 99)
        func error(_ status: Int32) -> HTTPTransportError {
            CurlFailure.error(exitStatus: status, message: "curl: (\(status)) something", request: request)
        }
        #expect(error(28) == .timedOut(url: request.url, after: .seconds(7)))
        // curl's other limit, the same status: its message says which.
        let slow = CurlFailure.error(exitStatus: 28, message: "curl: (28) Operation too slow. Less than 256 bytes/sec transferred the last 10 seconds", request: request)
        #expect(slow == .tooSlow(url: request.url, bytesPerSecond: 256, window: .seconds(10)))
        #expect(slow.description.contains("sent less than 256 bytes a second for 10 seconds"))
        #expect(error(63) == .responseTooLarge(url: request.url, limit: 99))
        #expect(error(3) == .invalidURL(request.url))
        for (status, words) in [(6, "could not be resolved"), (7, "refused"), (35, "TLS"), (60, "certificate"), (56, "broke")] {
            guard case let .cannotConnect(_, reason) = error(Int32(status)) else {
                Issue.record("\(status) is not cannotConnect")
                continue
            }
            #expect(reason.contains(words), "\(status): \(reason)")
        }
        for status: Int32 in [18, 52, 8] {
            guard case .malformedResponse = error(status) else {
                Issue.record("\(status) is not malformedResponse")
                continue
            }
        }
        // curl's message reaches a terminal: only printable ASCII of its last line is kept.
        #expect(CurlFailure.message(fromStandardError: Array("warning\ncurl: (7) \u{1B}[31mred\u{7}\n".utf8)) == "curl: (7) [31mred")
    }

    @Test func formEncodingKeepsOnlyUnreservedBytes() {
        #expect(FormEncoding.encode([("status", "a&b=c+d é 🚀"), ("home[last_read_id]", "1")])
                == "status=a%26b%3Dc%2Bd%20%C3%A9%20%F0%9F%9A%80&home%5Blast_read_id%5D=1")
        #expect(FormEncoding.escape("AZaz09-._~") == "AZaz09-._~")
    }
}
