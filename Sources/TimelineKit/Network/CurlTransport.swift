/// An ``HTTPTransport`` that runs the system's `curl` program, one process per request.
///
/// Why a program and not a library: the `timeline` binary is fully static and `show` must
/// launch as fast as `cat`. Linking an HTTP stack costs every launch (URLSession does not link
/// statically on Linux and loads full Foundation; AsyncHTTPClient adds 26 MB), while `curl` costs
/// the binary nothing and brings TLS, HTTP/2 and proxies (`https_proxy`, `no_proxy`) as the
/// system configures them. docs/network.md ("The transport: curl") has the measured costs.
///
/// What it guarantees, on top of ``HTTPTransport``'s contract:
/// - the request (URL, headers with the token, options) reaches curl on its standard input as
///   a config file (`curl -q --config -`), never in its arguments; `-q` keeps `~/.curlrc` out;
/// - certificates are always verified (no `--insecure`); `--proto =https,http`; no redirects;
///   plain `http://` only to loopback, and then never through a proxy;
/// - `--max-time` from the request's timeout, `--max-filesize` and a bound of its own while
///   reading; the body is exact (the header blocks come on a separate descriptor);
/// - curl runs on a thread of its own, never blocking Swift's cooperative pool; cancelling the
///   task kills curl and reaps it before the call returns.
///
/// ```swift
/// let transport = CurlTransport()
/// let response = try await transport.send(HTTPRequest(url: "https://mastodon.social/api/v2/instance"))
/// ```
public struct CurlTransport: HTTPTransport {
    /// The curl program: a path, or a name looked up on `PATH`.
    public var executable: String
    /// The `User-Agent` header sent with every request.
    public var userAgent: String

    /// A transport running `executable` (default: `curl` from `PATH`).
    public init(executable: String = "curl", userAgent: String = "timeline/\(timelineKitVersion)") {
        self.executable = executable
        self.userAgent = userAgent
    }

    public func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
        let exchange = try makeExchange(request, streaming: false)
        let result = await withTaskCancellationHandler {
            await DedicatedThread.run { exchange.run(chunks: nil) }
        } onCancel: {
            exchange.cancel()
        }
        return try result.get()
    }

    public func stream(
        _ request: HTTPRequest,
        receive: @Sendable (_ status: Int, _ chunk: [UInt8]) -> Bool
    ) async throws(HTTPTransportError) -> HTTPResponse {
        let exchange = try makeExchange(request, streaming: true)
        let (chunks, continuation) = AsyncStream.makeStream(of: CurlExchange.Chunk.self)
        // Detached, so that cancelling this task does not abandon the wait for curl's end.
        let runner = Task.detached {
            await DedicatedThread.run {
                let result = exchange.run(chunks: continuation)
                continuation.finish()
                return result
            }
        }
        await withTaskCancellationHandler {
            for await chunk in chunks where !receive(chunk.status, chunk.bytes) {
                exchange.stop()
                break
            }
        } onCancel: {
            exchange.cancel()
        }
        return try await runner.value.get()
    }

    private func makeExchange(_ request: HTTPRequest, streaming: Bool) throws(HTTPTransportError) -> CurlExchange {
        let configuration = try CurlConfiguration(request, streaming: streaming, userAgent: userAgent)
        if Task.isCancelled { throw .cancelled(url: request.url) }
        return try CurlExchange(request: request, configuration: configuration, executable: executable)
    }
}
