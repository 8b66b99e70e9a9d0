/// Why a request got no response. URLs in these errors never hold a secret: tokens travel in
/// headers, and no transport puts a header into an error.
public enum HTTPTransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL cannot be used as written (no scheme, no host, spaces, …).
    case invalidURL(String)
    /// `http://` to a host that is not a loopback address: tokens would cross the network in
    /// clear text.
    case insecureURL(String)
    /// A request header cannot be sent as written (a name that is not an HTTP token, a value
    /// with a line break that would start another header). Only the name is given: the value
    /// may be a secret.
    case invalidHeader(name: String)
    /// The server could not be reached (name not resolved, connection refused, TLS failed).
    case cannotConnect(url: String, reason: String)
    /// No complete answer came within the request's timeout.
    case timedOut(url: String, after: Duration)
    /// The answer (or the wait for it) stayed slower than `bytesPerSecond` for a whole `window`
    /// (``HTTPRequest/minimumBytesPerSecond``, ``HTTPRequest/slowTransferWindow``): given up
    /// long before the timeout, so that a trickling server cannot hold a sync.
    case tooSlow(url: String, bytesPerSecond: Int, window: Duration)
    /// The body was larger than the request allows.
    case responseTooLarge(url: String, limit: Int)
    /// The connection closed in the middle of the response, or the response is not HTTP.
    case malformedResponse(url: String, reason: String)
    /// The transport itself cannot run here (e.g. the `curl` program is missing).
    case unavailable(reason: String)
    /// The task was cancelled before the response was complete.
    case cancelled(url: String)

    public var description: String {
        switch self {
        case let .invalidURL(url):
            "\(url) is not a URL a server can be reached at; write it as https://host or https://host/path."
        case let .insecureURL(url):
            "\(url) uses plain http, which would send your token in clear text; use https:// (plain http is allowed only to 127.0.0.1, ::1 and localhost)."
        case let .invalidHeader(name):
            "The request header \(name.isEmpty ? "with an empty name" : name) cannot be sent: its name is not a valid field name or its value holds a line break."
        case let .cannotConnect(url, reason):
            "Cannot reach \(url): \(reason). Check the address and your network, then try again."
        case let .timedOut(url, after):
            "\(url) did not answer within \(after). Try again later."
        case let .tooSlow(url, bytesPerSecond, window):
            "\(url) sent less than \(bytesPerSecond) bytes a second for \(window.components.seconds) seconds, so the request was given up. Try again later."
        case let .responseTooLarge(url, limit):
            "\(url) sent more than \(limit) bytes, more than any answer it should give; nothing was stored."
        case let .malformedResponse(url, reason):
            "\(url) sent a broken answer (\(reason)); nothing was stored. Try again later."
        case let .unavailable(reason):
            "Cannot make network requests: \(reason)."
        case let .cancelled(url):
            "The request to \(url) was cancelled."
        }
    }
}
