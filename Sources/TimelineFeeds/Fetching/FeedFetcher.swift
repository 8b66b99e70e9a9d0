import TimelineKit

/// Fetches a feed's URL over any ``HTTPTransport``: a bounded GET with a User-Agent, conditional
/// when validators are known, following redirects itself.
///
/// Transports do not follow redirects (HTTPTransport's contract: a token must never reach a host
/// the user did not name), so this fetcher does, for feeds, which carry no token: at most
/// ``maximumRedirects``, never from `https` to `http`, and it reports where a feed has moved for
/// good (``FeedFetchResult/movedPermanentlyTo``). `CurlTransport` asks for gzip and decompresses,
/// so the size limit applies to the decompressed body.
///
/// ```swift
/// let fetcher = FeedFetcher(transport: CurlTransport())
/// let result = try await fetcher.fetch("https://example.com/feed.xml", validators: subscription.validators)
/// if case let .fetched(body) = result.outcome { let feed = try FeedParser.parse(body, url: result.finalURL) }
/// ```
public struct FeedFetcher: Sendable {
    /// The largest body accepted: larger is refused, not cut (10 MB).
    public static let maximumBytes = 10 << 20
    /// The most redirects followed in a row.
    public static let maximumRedirects = 5
    /// The User-Agent sent unless told otherwise.
    public static let defaultUserAgent = "timeline/\(timelineKitVersion) (feed fetcher)"

    /// The transport requests go through.
    public var transport: any HTTPTransport
    /// The `User-Agent` header of every request.
    public var userAgent: String
    /// The longest one request may take.
    public var timeout: Duration

    /// A fetcher over `transport`.
    public init(transport: any HTTPTransport, userAgent: String = FeedFetcher.defaultUserAgent, timeout: Duration = .seconds(30)) {
        self.transport = transport
        self.userAgent = userAgent
        self.timeout = timeout
    }

    /// Fetches `url`, sending `validators` back as `If-None-Match` and `If-Modified-Since`.
    ///
    /// - Throws: ``FeedFetchError``: the transport's failure (unreachable, too slow, a body over
    ///   ``maximumBytes``, plain `http://` beyond loopback, which every `HTTPTransport` refuses),
    ///   a 429 or 503 (``FeedFetchError/retryLater(status:url:retryAfter:)``, with the server's
    ///   `Retry-After`), another status that is not 2xx or 304, or a redirect refused.
    public func fetch(_ url: String, validators: FeedValidators = FeedValidators()) async throws(FeedFetchError) -> FeedFetchResult {
        var current = url
        var movedPermanentlyTo: String?
        var stillPermanent = true
        var redirects = 0
        while true {
            let response: HTTPResponse
            do {
                response = try await transport.send(request(current, validators: validators))
            } catch {
                throw .transport(error)
            }
            switch response.status {
            case 200 ..< 300:
                // The transport must refuse a larger body (HTTPTransport's contract); an
                // embedder's transport that does not is still held to it here.
                guard response.body.count <= Self.maximumBytes else {
                    throw .transport(.responseTooLarge(url: current, limit: Self.maximumBytes))
                }
                return FeedFetchResult(
                    outcome: .fetched(body: response.body), finalURL: current, movedPermanentlyTo: movedPermanentlyTo,
                    validators: FeedValidators(etag: response.header("ETag"), lastModified: response.header("Last-Modified")),
                    contentType: response.header("Content-Type"))
            case 304:
                // A 304 may repeat the validators or leave them out; the stored ones still hold.
                let sent = FeedValidators(etag: response.header("ETag") ?? validators.etag,
                                          lastModified: response.header("Last-Modified") ?? validators.lastModified)
                return FeedFetchResult(outcome: .notModified, finalURL: current, movedPermanentlyTo: movedPermanentlyTo, validators: sent)
            case 301, 302, 303, 307, 308:
                guard redirects < Self.maximumRedirects else { throw .tooManyRedirects(url: url, limit: Self.maximumRedirects) }
                redirects += 1
                let location = response.header("Location")
                guard let location, let next = FeedURL.resolve(location, against: current), Self.isHTTP(next) else {
                    throw .invalidRedirect(from: current, location: location)
                }
                if Self.hasScheme("https", current) && !Self.hasScheme("https", next) {
                    throw .insecureRedirect(from: current, to: next)
                }
                // Only an unbroken chain of permanent moves from the subscribed URL moves the
                // subscription: past a temporary one, the next hop is the temporary host's word.
                stillPermanent = stillPermanent && (response.status == 301 || response.status == 308)
                if stillPermanent { movedPermanentlyTo = next }
                current = next
            case 429, 503:
                throw .retryLater(status: response.status, url: current, retryAfter: response.header("Retry-After"))
            default:
                throw .status(response.status, url: current)
            }
        }
    }

    private func request(_ url: String, validators: FeedValidators) -> HTTPRequest {
        var headers = [
            HTTPHeader(name: "User-Agent", value: userAgent),
            HTTPHeader(name: "Accept", value: "application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, text/xml;q=0.9, text/html;q=0.5, */*;q=0.1"),
        ]
        if let etag = validators.etag { headers.append(HTTPHeader(name: "If-None-Match", value: etag)) }
        if let lastModified = validators.lastModified { headers.append(HTTPHeader(name: "If-Modified-Since", value: lastModified)) }
        return HTTPRequest(url: url, headers: headers, timeout: timeout, maximumResponseBytes: Self.maximumBytes)
    }

    private static func isHTTP(_ url: String) -> Bool { hasScheme("http", url) || hasScheme("https", url) }

    /// Whether `url` starts with `scheme:`, the scheme compared case-insensitively (RFC 3986 §3.1).
    private static func hasScheme(_ scheme: String, _ url: String) -> Bool {
        guard let colon = url.firstIndex(of: ":") else { return false }
        return url[..<colon].lowercased() == scheme
    }
}
