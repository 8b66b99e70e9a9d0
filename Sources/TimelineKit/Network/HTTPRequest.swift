/// One HTTP request as the sync code asks for it: a method, an absolute URL, headers and an
/// optional body, with the bounds every request to a server we do not control must have.
///
/// The URL is checked by the transport, not here: `https://` to any host, `http://` only to a
/// loopback address (see ``HTTPTransportError/insecureURL(_:)``).
///
/// Secrets (an `Authorization` header) travel in `headers`; a transport must never put them in
/// a process's arguments, a log line or an error message.
public struct HTTPRequest: Sendable, Hashable {
    /// The request method.
    public enum Method: String, Sendable, Hashable {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
        case delete = "DELETE"
    }

    /// The method.
    public var method: Method
    /// The absolute URL, query included.
    public var url: String
    /// Header fields in the order they are sent. Names are compared case-insensitively.
    public var headers: [HTTPHeader]
    /// The body, sent with the `Content-Type` given in `headers`.
    public var body: [UInt8]?
    /// The longest the whole exchange may take, connection included.
    public var timeout: Duration
    /// The largest body accepted; a larger one fails with
    /// ``HTTPTransportError/responseTooLarge(url:limit:)`` rather than filling memory.
    public var maximumResponseBytes: Int
    /// The slowest transfer accepted, in bytes a second, and for how long it may last: an
    /// answer (or the wait for it) slower than `minimumBytesPerSecond` throughout
    /// `slowTransferWindow` ends as ``HTTPTransportError/tooSlow(url:bytesPerSecond:window:)``, so a server
    /// that trickles a byte a second cannot hold a sync for the whole `timeout` (issue 24).
    /// On a stream, the window is its keep-alive: a silent stream is dropped after it.
    public var minimumBytesPerSecond: Int = 256
    /// See `minimumBytesPerSecond`.
    public var slowTransferWindow: Duration = .seconds(10)

    /// A request with the given parts; 30 seconds and 8 MiB unless told otherwise.
    public init(
        method: Method = .get,
        url: String,
        headers: [HTTPHeader] = [],
        body: [UInt8]? = nil,
        timeout: Duration = .seconds(30),
        maximumResponseBytes: Int = 8 << 20
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
    }
}

extension HTTPRequest {
    /// Checks `url` as every transport does before a byte leaves the machine: an absolute
    /// `https://` URL, or `http://` to a loopback address (127.0.0.0/8, `::1`, `localhost`), ASCII,
    /// no user name or password. For a caller that stores a URL to fetch later (a feed list's
    /// subscriptions) and should refuse now what no fetch would ever send.
    ///
    /// ```swift
    /// try HTTPRequest.checkURL("http://example.com/feed")  // throws .insecureURL
    /// ```
    ///
    /// - Throws: ``HTTPTransportError/invalidURL(_:)`` or ``HTTPTransportError/insecureURL(_:)``.
    public static func checkURL(_ url: String) throws(HTTPTransportError) {
        _ = try RequestURL(url)
    }
}

/// One header field.
public struct HTTPHeader: Sendable, Hashable {
    /// The field's name as sent or received; compare with ``matches(_:)``.
    public var name: String
    /// The field's value, without surrounding spaces.
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Whether this field is `name`, compared case-insensitively in ASCII as RFC 9110 says.
    public func matches(_ name: String) -> Bool {
        self.name.utf8.count == name.utf8.count
            && zip(self.name.utf8, name.utf8).allSatisfy { asciiLowercase($0) == asciiLowercase($1) }
    }
}

private func asciiLowercase(_ byte: UInt8) -> UInt8 {
    (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
}
