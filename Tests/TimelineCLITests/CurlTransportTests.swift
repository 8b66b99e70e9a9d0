import Foundation
import Synchronization
import Testing
import TimelineKit

/// `CurlTransport` against the loopback server: the real `curl` program, real sockets.
/// Serialized, because several tests count this process's `curl` children. The time limit only
/// turns a hang (a curl that was never killed) into a failure.
@Suite(.serialized, .timeLimit(.minutes(5))) struct CurlTransportTests {
    let transport = CurlTransport()

    static func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8($0 & 0xFF) } }

    @Test func aResponseComesBackWithItsStatusHeadersAndExactBody() async throws {
        let server = try MastodonTestServer()
        for query in ["n=70000", "n=70000&chunked=1", "n=70000&chunked=1&trailers=1", "n=0"] {
            let response = try await transport.send(HTTPRequest(url: "\(server.baseURL)/_bytes?\(query)"))
            #expect(response.status == 200)
            #expect(response.header("content-type") == "application/octet-stream")
            // Trailers are headers, not body: the body is exact byte for byte.
            #expect(response.body == Self.pattern(query.hasPrefix("n=0") ? 0 : 70000), "\(query)")
        }
    }

    @Test func theRequestArrivesWithItsMethodHeadersAndBinaryBody() async throws {
        let server = try MastodonTestServer()
        let body: [UInt8] = Array("name=a b&x=\u{0}\"\\\n".utf8) + Self.pattern(300_000)
        let request = HTTPRequest(
            method: .post, url: "\(server.baseURL)/_echo?timeline[]=home&a=%20",
            headers: [HTTPHeader(name: "Authorization", value: "Bearer secret \"quoted\" \\ value"),
                      HTTPHeader(name: "Content-Type", value: "application/octet-stream"),
                      HTTPHeader(name: "Idempotency-Key", value: "")],
            body: body)
        let response = try await transport.send(request)
        let echo = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        #expect(echo["method"] as? String == "POST")
        #expect(echo["query"] as? String == "timeline[]=home&a=%20")
        #expect(Data(base64Encoded: echo["body_base64"] as? String ?? "").map(Array.init) == body)
        let headers = (echo["headers"] as? [[String]] ?? []).map { ($0[0], $0[1]) }
        #expect(headers.contains { $0 == ("Authorization", "Bearer secret \"quoted\" \\ value") })
        #expect(headers.contains { $0 == ("Content-Type", "application/octet-stream") })
        #expect(headers.contains { $0 == ("Idempotency-Key", "") })
        #expect(!headers.contains { $0.0 == "Expect" })
        // Repeated response headers stay, in order.
        #expect(response.headers(named: "x-repeated") == ["one", "two"])

        let put = try await transport.send(HTTPRequest(method: .put, url: "\(server.baseURL)/_echo"))
        #expect((try JSONSerialization.jsonObject(with: Data(put.body)) as? [String: Any])?["method"] as? String == "PUT")
    }

    @Test func theTokenNeverAppearsInCurlsArguments() async throws {
        let server = try MastodonTestServer()
        let secret = "token-that-must-not-show-\(UUID().uuidString)"
        // The answer is held back, and curl waits for it, for ten minutes, so that curl is surely
        // there to be seen however long a busy machine takes to start the request or schedule
        // the look (before, curl's own 10 s slow-transfer window ended the wait, and CI's loaded
        // machine missed it); once seen, the request is cancelled, which kills curl
        // (`cancellingKillsAndReapsCurl`).
        var request = HTTPRequest(url: "\(server.baseURL)/_echo?_delay=600",
                                  headers: [HTTPHeader(name: "Authorization", value: "Bearer \(secret)")],
                                  timeout: .seconds(600))
        request.slowTransferWindow = .seconds(600)
        let task = Task { try await transport.send(request) }
        let children: [Int32]
        do {
            children = try await ChildProcesses.waitForCurl()
        } catch {
            task.cancel()
            Issue.record("the request ended without a curl child seen: \(await task.result)")
            throw error
        }
        let commandLines = children.map(ChildProcesses.commandLine)
        task.cancel()
        _ = try? await task.value
        // Tests running beside this one start curl too: every curl child, ours among them, has
        // only the configuration on standard input in its arguments.
        #expect(!commandLines.isEmpty)
        // (curl is started by its path when setpriv ties it to this process: issue 24.)
        #expect(commandLines.allSatisfy { $0.first?.split(separator: "/").last == "curl" && $0.dropFirst() == ["-q", "--config", "-"] },
                "\(commandLines)")
        #expect(!commandLines.joined().joined().contains(secret))
    }

    @Test func everyStatusIsReturnedNotThrown() async throws {
        let server = try MastodonTestServer()
        for status in [201, 206, 401, 404, 409, 429, 500, 503] {
            let response = try await transport.send(HTTPRequest(url: "\(server.baseURL)/_echo?_status=\(status)"))
            #expect(response.status == status)
            #expect(String(decoding: response.body, as: UTF8.self).contains("asked for \(status)"))
        }
    }

    @Test func aRedirectIsReturnedNotFollowed() async throws {
        let server = try MastodonTestServer()
        let response = try await transport.send(HTTPRequest(url: "\(server.baseURL)/_redirect"))
        #expect(response.status == 302)
        #expect(response.header("Location") == "\(server.baseURL)/_echo")
        #expect(try server.requests().map { $0["path"] as? String } == ["/_redirect"])
    }

    @Test func aBodyLargerThanTheBoundIsRefusedWithOrWithoutItsLength() async throws {
        let server = try MastodonTestServer()
        for query in ["n=300000", "n=300000&chunked=1"] {
            let url = "\(server.baseURL)/_bytes?\(query)"
            let error = await #expect(throws: HTTPTransportError.self) {
                try await transport.send(HTTPRequest(url: url, maximumResponseBytes: 100_000))
            }
            #expect(error == .responseTooLarge(url: url, limit: 100_000))
        }
        // Exactly at the bound is fine.
        let exact = try await transport.send(HTTPRequest(url: "\(server.baseURL)/_bytes?n=100000&chunked=1", maximumResponseBytes: 100_000))
        #expect(exact.body.count == 100_000)
        #expect(try await ChildProcesses.curl().isEmpty)
    }

    @Test func aServerSlowerThanTheTimeoutTimesOut() async throws {
        let server = try MastodonTestServer()
        // The server would answer after 20 s (a delay before the head) or never finish the
        // body (a stall): a 1 s timeout must end both, which the error's kind shows.
        for query in ["_delay=20", "_stall=20"] {
            let url = "\(server.baseURL)/_echo?\(query)"
            let error = await #expect(throws: HTTPTransportError.self) {
                try await transport.send(HTTPRequest(url: url, timeout: .seconds(1)))
            }
            #expect(error == .timedOut(url: url, after: .seconds(1)))
        }
        #expect(try await ChildProcesses.curl().isEmpty)
    }

    @Test func aBodyCutShortIsMalformed() async throws {
        let server = try MastodonTestServer()
        let url = "\(server.baseURL)/_echo?_cut=1"
        let error = await #expect(throws: HTTPTransportError.self) {
            try await transport.send(HTTPRequest(url: url))
        }
        guard case let .malformedResponse(failedURL, reason) = error else {
            Issue.record("expected malformedResponse, got \(String(describing: error))")
            return
        }
        #expect(failedURL == url)
        #expect(reason.contains("closed before the whole body"))
    }

    @Test func plainHTTPIsRefusedExceptToLoopback() async throws {
        for url in ["http://example.com/api", "http://127.0.0.1.example.com/", "http://10.0.0.1/", "http://[::2]/",
                    "http://127.1/", "http://0x7f.0.0.1/", "HTTP://mastodon.social/"] {
            await #expect(throws: HTTPTransportError.insecureURL(url)) {
                try await transport.send(HTTPRequest(url: url))
            }
        }
        for url in ["ftp://127.0.0.1/", "file:///etc/passwd", "https://user:pw@example.com/", "http://127.0.0.1@evil.example/",
                    "https://exa mple.com/", "https://example.com/\u{7}", "https://", "https://host:99999/", "mastodon.social"] {
            await #expect(throws: HTTPTransportError.invalidURL(url)) {
                try await transport.send(HTTPRequest(url: url))
            }
        }
        await #expect(throws: HTTPTransportError.invalidHeader(name: "Authorization")) {
            try await transport.send(HTTPRequest(url: "https://example.com/", headers: [HTTPHeader(name: "Authorization", value: "Bearer a\r\nX-Injected: 1")]))
        }
        // Loopback in each spelling is allowed (and reaches the server).
        let server = try MastodonTestServer()
        for host in ["127.0.0.1", "localhost"] {
            let response = try await transport.send(HTTPRequest(url: "http://\(host):\(server.port)/_echo"))
            #expect(response.status == 200)
        }
    }

    @Test func unreachableServersAndAMissingCurlSayWhy() async throws {
        let port = try ChildProcesses.unusedPort()
        let url = "http://127.0.0.1:\(port)/"
        let refused = await #expect(throws: HTTPTransportError.self) {
            try await transport.send(HTTPRequest(url: url))
        }
        guard case .cannotConnect(url, _) = refused else {
            Issue.record("expected cannotConnect, got \(String(describing: refused))")
            return
        }
        let missing = await #expect(throws: HTTPTransportError.self) {
            try await CurlTransport(executable: "/nonexistent/curl").send(HTTPRequest(url: url))
        }
        #expect(missing?.description.contains("install curl") == true)
        #expect(missing.map { if case .unavailable = $0 { true } else { false } } == true)
    }

    @Test func certificatesAreVerified() async throws {
        let server = try MastodonTestServer(tls: true)
        let url = "\(server.baseURL)/api/v2/instance"
        let error = await #expect(throws: HTTPTransportError.self) {
            try await transport.send(HTTPRequest(url: url))
        }
        guard case let .cannotConnect(_, reason) = error else {
            Issue.record("expected cannotConnect, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("certificate"))
    }

    @Test func aStreamDeliversChunksAsTheyArrive() async throws {
        let server = try MastodonTestServer()
        let received = Mutex<[[UInt8]]>([])
        let response = try await transport.stream(HTTPRequest(url: "\(server.baseURL)/_sse?count=4&interval=0.3")) { status, chunk in
            #expect(status == 200)
            received.withLock { $0.append(chunk) }
            return true
        }
        #expect(response.status == 200)
        #expect(response.header("content-type") == "text/event-stream")
        let chunks = received.withLock { $0 }
        let text = String(decoding: chunks.joined(), as: UTF8.self)
        #expect(text == ":)\n" + (0..<4).map { "event: tick\ndata: {\"n\": \($0)}\n\n" }.joined())
        // Events 0.3 s apart come in separate chunks: nothing waits for the end.
        #expect(chunks.count >= 4)
        #expect(try await ChildProcesses.curl().isEmpty)
    }

    @Test func aStreamStopsWhenTheReaderSaysSo() async throws {
        let server = try MastodonTestServer()
        let calls = Mutex(0)
        let response = try await transport.stream(HTTPRequest(url: "\(server.baseURL)/_sse?count=100&interval=0.05&then=hold")) { _, _ in
            calls.withLock { $0 += 1 }
            return calls.withLock { $0 } < 3
        }
        #expect(response.status == 200)
        #expect(calls.withLock { $0 } == 3)
        #expect(try await ChildProcesses.curl().isEmpty)
    }

    @Test func aSilentStreamTimesOut() async throws {
        let server = try MastodonTestServer()
        let url = "\(server.baseURL)/_echo?_stall=20"
        let error = await #expect(throws: HTTPTransportError.self) {
            try await transport.stream(HTTPRequest(url: url, timeout: .seconds(1))) { _, _ in true }
        }
        #expect(error == .timedOut(url: url, after: .seconds(1)))
    }

    @Test func cancellingKillsAndReapsCurl() async throws {
        let server = try MastodonTestServer()
        // Neither the server (an hour) nor curl (an hour) would end this exchange by itself.
        let url = "\(server.baseURL)/_echo?_delay=3600"
        let sending = Task { try await transport.send(HTTPRequest(url: url, timeout: .seconds(3600))) }
        _ = try await ChildProcesses.waitForCurl()
        sending.cancel()
        let result = await sending.result
        #expect(throws: HTTPTransportError.cancelled(url: url)) { try result.get() }
        #expect(try await ChildProcesses.curl().isEmpty)

        // Held as `show -f` holds a stream: a silent minute on a loaded machine must not end it.
        var held = HTTPRequest(url: "\(server.baseURL)/_sse?count=1&then=hold")
        held.minimumBytesPerSecond = 1
        held.slowTransferWindow = .seconds(600)
        let streaming = Task { [held] in
            try await transport.stream(held) { _, _ in true }
        }
        _ = try await ChildProcesses.waitForCurl()
        try await Task.sleep(for: .milliseconds(300))
        streaming.cancel()
        // A stream that was cancelled after its head ends normally, with that head.
        #expect(try await streaming.value.status == 200)
        #expect(try await ChildProcesses.curl().isEmpty)
    }
}

/// This process's children, read from /proc.
enum ChildProcesses {
    /// The `curl` processes whose parent is this process (zombies included).
    static func curl() async throws -> [Int32] {
        let me = getpid()
        return (try FileManager.default.contentsOfDirectory(atPath: "/proc")).compactMap(Int32.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let name = stat[stat.index(after: stat.firstIndex(of: "(")!)..<close]
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            return name == "curl" && fields.count > 1 && Int32(fields[1]) == me
        }
    }

    /// Waits (up to 10 s) until a curl child exists, and returns the children.
    /// The `curl` children once there are some. A deadline, not a count of looks: on a loaded
    /// machine a look at /proc can take longer than the whole wait was meant to.
    static func waitForCurl(within limit: Duration = .seconds(120)) async throws -> [Int32] {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            let found = try await curl()
            if !found.isEmpty { return found }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw MastodonTestServer.StartFailure(description: "no curl child appeared within \(limit)")
    }

    static func commandLine(_ pid: Int32) -> [String] {
        let bytes = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
        return bytes.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
    }

    /// A TCP port nothing listens on (bound, then released).
    static func unusedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
