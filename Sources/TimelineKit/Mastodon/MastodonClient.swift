#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Requests to one Mastodon-API server (Mastodon, Pleroma, Akkoma, GoToSocial, …) as one
/// account, over any `HTTPTransport`: the token in an `Authorization: Bearer` header, a
/// `User-Agent`, JSON bodies, and the server's limits and faults handled in one place.
///
/// ```swift
/// let client = MastodonClient(server: try ServerAddress("https://mastodon.social"),
///                             token: AccessToken(token)!, transport: transport)
/// let marker = try await client.homeMarker()
/// ```
///
/// What `send` does with each answer (`ServerRequester`, which the Bluesky client shares):
/// - **2xx**: returned (206 excepted).
/// - **206 Partial Content** (Mastodon is rebuilding the home timeline), **5xx**, a time-out,
///   a refused or cut-off connection: sent again after 1 s, 2 s, 4 s… up to
///   `policy.maximumAttempts`, then `ServerError.timelineBeingRebuilt`, `.serverFailed` or
///   `.unreachable`.
/// - **429**: waits until the rate limit resets when that is within
///   `policy.maximumRateLimitWait`, else `.rateLimited` saying when to try again.
/// - **401**, or a 400/403 that refuses the token however the server words it
///   (`TokenRefusal`: Takahē's 400 `Invalid Bearer token`): `.unauthorized` at once (log in
///   again); any other 4xx: `.rejected` with the server's reason, made safe to print.
///
/// Before each request, the rate limit the previous answers announced is honoured: when
/// `X-RateLimit-Remaining` is down to `policy.rateLimitReserve`, the client waits for
/// `X-RateLimit-Reset` (or stops, when that is too far) rather than being refused.
///
/// A client is `Sendable` and keeps the rate limit across requests; use one per account and
/// run. The token is never part of its description or of any error.
public final class MastodonClient: Sendable, CustomStringConvertible {
    /// The server requests go to.
    public let server: ServerAddress
    /// How requests are sent, retried and paced.
    let requester: ServerRequester
    private let token: AccessToken

    /// How requests are sent.
    public var transport: any HTTPTransport { requester.transport }
    /// Retries, back-off and rate-limit patience.
    public var policy: RequestPolicy { requester.policy }
    /// The time, and how waiting is done.
    public var clock: SyncClock { requester.clock }
    /// The `User-Agent` sent with every request.
    public var userAgent: String { requester.userAgent }

    /// A client of `server` acting with the access token `token`.
    public init(
        server: ServerAddress, token: AccessToken, transport: any HTTPTransport,
        policy: RequestPolicy = RequestPolicy(), clock: SyncClock = .system,
        userAgent: String = "timeline/\(timelineKitVersion)"
    ) {
        self.server = server
        self.token = token
        requester = ServerRequester(transport: transport, policy: policy, clock: clock, userAgent: userAgent)
    }

    public var description: String { "MastodonClient(\(server.baseURL), token: …)" }

    /// What no error of this client may show: its token.
    public var secrets: Secrets { Secrets([token.value]) }

    /// How many requests were sent so far, retries included.
    public var requestsSent: Int { requester.requestsSent }
    /// Body bytes of the answers received so far, every request included.
    public var bytesReceived: Int { requester.bytesReceived }

    /// The headers every request carries: the token, the agent, and that JSON is wanted.
    func headers(accept: String = "application/json") -> [HTTPHeader] {
        [token.authorizationHeader] + requester.headers(accept: accept)
    }

    /// Sends a request to `url` (on this server's origin) and returns the first successful
    /// answer, handling limits and faults as the type's documentation says.
    ///
    /// - Parameters:
    ///   - method: the request's method.
    ///   - url: where it goes: on this server's origin, or it is refused before anything is sent.
    ///   - json: a JSON body, sent with `Content-Type: application/json`.
    ///   - extra: further headers (an `Idempotency-Key`).
    public func send(
        _ method: HTTPRequest.Method, _ url: String, json: [UInt8]? = nil, headers extra: [HTTPHeader] = []
    ) async throws(ServerError) -> HTTPResponse {
        guard server.isOnOrigin(url) else {
            // A token must never reach a host the person did not name (a Link, a redirect).
            throw .invalidResponse(url: url, problem: "it is not on \(server.origin), the server the token belongs to.")
        }
        var request = HTTPRequest(method: method, url: url, headers: headers() + extra, body: json, timeout: policy.requestTimeout)
        if json != nil { request.headers.append(HTTPHeader(name: "Content-Type", value: "application/json")) }
        return try await requester.send(request, server: server.baseURL, isRefusedCredential: TokenRefusal.isRefusal)
    }

    /// Sends `body` of `contentType` (a multipart form) to `url` on this server's origin, with
    /// `timeout` rather than the policy's (an upload takes longer than a JSON call); as `send`.
    func send(_ method: HTTPRequest.Method, _ url: String, body: [UInt8], contentType: String,
              timeout: Duration) async throws(ServerError) -> HTTPResponse {
        guard server.isOnOrigin(url) else {
            throw .invalidResponse(url: url, problem: "it is not on \(server.origin), the server the token belongs to.")
        }
        let request = HTTPRequest(method: method, url: url, headers: headers() + [HTTPHeader(name: "Content-Type", value: contentType)],
                                  body: body, timeout: timeout)
        return try await requester.send(request, server: server.baseURL, isRefusedCredential: TokenRefusal.isRefusal)
    }

    /// Sends a request to an endpoint that servers of the API may lack (``ServerFeature``): an
    /// answer saying the endpoint does not exist (404, 405, 410, 501) or an HTML page where JSON
    /// was asked for is ``ServerError/notSupported(url:status:)``; the rest as `send`.
    func sendOptional(_ method: HTTPRequest.Method, _ url: String, json: [UInt8]? = nil) async throws(ServerError) -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try await send(method, url, json: json)
        } catch {
            if case let .rejected(_, status, _) = error, ServerError.missingEndpointStatuses.contains(status) {
                throw .notSupported(url: url, status: status)
            }
            throw error
        }
        if response.isHTMLPage { throw .notSupported(url: url, status: response.status) }
        return response
    }

    /// Sends a request to an endpoint of one resource (a status's edit, a list's timeline) that
    /// some servers of the API do not have, and answers ``ServerError/serverLacks(server:feature:)``
    /// naming `feature` and the endpoint (`endpoint`, e.g. `PUT /api/v1/statuses/:id`) when the
    /// server says it has no such endpoint: 405, 410 or 501, a 404 without the API's JSON error
    /// (Takahē's Django page), or an HTML page where JSON was asked for. A 404 with the
    /// API's error (`{"error": "Record not found"}`) is about the resource, not the endpoint, and
    /// stays ``ServerError/rejected(url:status:reason:)``.
    func send(_ method: HTTPRequest.Method, _ url: String, json: [UInt8]? = nil,
              feature: String, endpoint: String) async throws(ServerError) -> HTTPResponse {
        func lack(_ status: Int) -> ServerError {
            let answer = (200 ..< 300).contains(status) ? "a web page instead of the API's answer" : "status \(status)"
            return .serverLacks(server: server.baseURL, feature: "\(feature) (`\(endpoint)` answered \(answer))")
        }
        let response: HTTPResponse
        do {
            response = try await send(method, url, json: json)
        } catch {
            if case let .rejected(_, status, reason) = error,
               [405, 410, 501].contains(status) || (status == 404 && reason == nil) {
                throw lack(status)
            }
            throw error
        }
        if response.isHTMLPage { throw lack(response.status) }
        return response
    }
}
