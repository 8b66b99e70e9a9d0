/// How TimelineKit reaches a server. The sync logic (paging, markers, limits, storage) talks
/// only to this protocol, so it is tested without a network and a program that embeds the
/// library can bring its own transport (URLSession on macOS, AsyncHTTPClient on a server).
///
/// A transport must:
/// - refuse `http://` to anything but a loopback address (127.0.0.0/8, `::1`, `localhost`),
///   and always verify TLS certificates;
/// - not follow redirects (a token must never reach a host the user did not name);
/// - end the exchange after the request's `timeout` and refuse bodies larger than its
///   `maximumResponseBytes`;
/// - keep header values (tokens) out of process arguments, logs and error messages.
///
/// A response with any status, 4xx and 5xx included, is returned, not thrown: what a status
/// means is the caller's decision.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the whole response.
    func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse

    /// Sends `request` and hands the body to `receive` as it arrives, for long-lived streams
    /// (server-sent events). Returns the status and headers when the stream ends: the server
    /// closed it, `receive` returned `false`, or the task was cancelled. The request's
    /// `timeout` bounds the time to the response's head and any silence longer than it;
    /// `maximumResponseBytes` does not apply.
    func stream(
        _ request: HTTPRequest,
        receive: @Sendable (_ status: Int, _ chunk: [UInt8]) -> Bool
    ) async throws(HTTPTransportError) -> HTTPResponse
}
