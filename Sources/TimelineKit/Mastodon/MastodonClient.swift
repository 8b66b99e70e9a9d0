#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// Requests to one Mastodon-API server (Mastodon, Pleroma, Akkoma, GoToSocial, …) as one
/// account, over any `HTTPTransport`: the token in an `Authorization: Bearer` header, a
/// `User-Agent`, JSON bodies, and the server's limits and faults handled in one place.
///
/// ```swift
/// let client = MastodonClient(server: try MastodonServer("https://mastodon.social"),
///                             token: AccessToken(token)!, transport: transport)
/// let marker = try await client.homeMarker()
/// ```
///
/// What `send` does with each answer:
/// - **2xx**: returned (206 excepted).
/// - **206 Partial Content** (Mastodon is rebuilding the home timeline), **5xx**, a time-out,
///   a refused or cut-off connection: sent again after 1 s, 2 s, 4 s… up to
///   `policy.maximumAttempts`, then `MastodonError.timelineBeingRebuilt`, `.serverFailed` or
///   `.unreachable`.
/// - **429**: waits until the rate limit resets when that is within
///   `policy.maximumRateLimitWait`, else `.rateLimited` saying when to try again.
/// - **401**: `.unauthorized` at once (log in again); any other 4xx: `.rejected` with the
///   server's reason, made safe to print.
///
/// Before each request, the rate limit the previous answers announced is honoured: when
/// `X-RateLimit-Remaining` is down to `policy.rateLimitReserve`, the client waits for
/// `X-RateLimit-Reset` (or stops, when that is too far) rather than being refused.
///
/// A client is `Sendable` and keeps the rate limit across requests; use one per account and
/// run. The token is never part of its description or of any error.
public final class MastodonClient: Sendable, CustomStringConvertible {
    /// The server requests go to.
    public let server: MastodonServer
    /// How requests are sent.
    public let transport: any HTTPTransport
    /// Retries, back-off and rate-limit patience.
    public let policy: MastodonRequestPolicy
    /// The time, and how waiting is done.
    public let clock: SyncClock
    /// The `User-Agent` sent with every request.
    public let userAgent: String
    private let token: AccessToken
    private let state = Mutex(State())

    private struct State {
        var rateLimit: RateLimit?
        var requestsSent = 0
    }

    /// A client of `server` acting with the access token `token`.
    public init(
        server: MastodonServer, token: AccessToken, transport: any HTTPTransport,
        policy: MastodonRequestPolicy = MastodonRequestPolicy(), clock: SyncClock = .system,
        userAgent: String = "timeline/\(timelineKitVersion)"
    ) {
        self.server = server
        self.token = token
        self.transport = transport
        self.policy = policy
        self.clock = clock
        self.userAgent = userAgent
    }

    public var description: String { "MastodonClient(\(server.baseURL), token: …)" }

    /// How many requests were sent so far, retries included.
    public var requestsSent: Int { state.withLock { $0.requestsSent } }

    /// The headers every request carries: the token, the agent, and that JSON is wanted.
    func headers(accept: String = "application/json") -> [HTTPHeader] {
        [token.authorizationHeader,
         HTTPHeader(name: "User-Agent", value: userAgent),
         HTTPHeader(name: "Accept", value: accept)]
    }

    /// Sends a request to `url` (on this server's origin) and returns the first successful
    /// answer, handling limits and faults as the type's documentation says.
    ///
    /// - Parameters:
    ///   - json: a JSON body, sent with `Content-Type: application/json`.
    ///   - headers: further headers (an `Idempotency-Key`).
    public func send(
        _ method: HTTPRequest.Method, _ url: String, json: [UInt8]? = nil, headers extra: [HTTPHeader] = []
    ) async throws(MastodonError) -> HTTPResponse {
        guard server.isOnOrigin(url) else {
            // A token must never reach a host the person did not name (a Link, a redirect).
            throw .invalidResponse(url: url, problem: "it is not on \(server.origin), the server the token belongs to.")
        }
        var request = HTTPRequest(method: method, url: url, headers: headers() + extra, body: json, timeout: policy.requestTimeout)
        if json != nil { request.headers.append(HTTPHeader(name: "Content-Type", value: "application/json")) }
        var attempt = 0
        var rateLimitWaits = 0
        while true {
            try await waitForRateLimit(url: url)
            attempt += 1
            state.withLock { $0.requestsSent += 1 }
            let response: HTTPResponse
            do {
                response = try await transport.send(request)
            } catch {
                if case .cancelled = error { throw .cancelled }
                guard Self.isPassing(error), attempt < policy.maximumAttempts else {
                    throw .unreachable(error, attempts: attempt)
                }
                try await pause(policy.backoff(afterAttempt: attempt))
                continue
            }
            let now = clock.now()
            if let limit = RateLimit(response, now: now) {
                state.withLock { $0.rateLimit = limit }
            }
            switch response.status {
            case 206, 500 ..< 600:
                guard attempt < policy.maximumAttempts else {
                    if response.status == 206 { throw .timelineBeingRebuilt(url: url, attempts: attempt) }
                    throw .serverFailed(url: url, status: response.status, attempts: attempt)
                }
                try await pause(policy.backoff(afterAttempt: attempt))
            case 200 ..< 300:
                return response
            case 401:
                throw .unauthorized(server: server.baseURL)
            case 429:
                let retryAt = RateLimit.retryDate(after: response, now: now)
                let wait = retryAt.map { Self.duration(from: now, to: $0) } ?? policy.backoff(afterAttempt: attempt)
                rateLimitWaits += 1
                guard wait <= policy.maximumRateLimitWait, rateLimitWaits <= 2 else {
                    throw .rateLimited(url: url, retryAt: retryAt)
                }
                try await pause(wait)
                attempt -= 1  // waiting out the limit is not a failed attempt
            default:
                throw .rejected(url: url, status: response.status, reason: MastodonError.reason(inBody: response.body))
            }
        }
    }

    /// Before a request: when the last answer said the limit is down to the reserve, waits for
    /// its reset, or stops when that is too far.
    private func waitForRateLimit(url: String) async throws(MastodonError) {
        guard let limit = state.withLock({ $0.rateLimit }), limit.remaining <= policy.rateLimitReserve else { return }
        guard let reset = limit.reset else { return }
        let now = clock.now()
        guard reset > now else { return }
        let wait = Self.duration(from: now, to: reset)
        guard wait <= policy.maximumRateLimitWait else { throw .rateLimited(url: url, retryAt: reset) }
        try await pause(wait)
        state.withLock { $0.rateLimit = nil }
    }

    private func pause(_ duration: Duration) async throws(MastodonError) {
        do {
            try await clock.sleep(duration)
        } catch {
            throw .cancelled
        }
    }

    /// Transport failures that may pass when the request is sent again.
    static func isPassing(_ error: HTTPTransportError) -> Bool {
        switch error {
        case .timedOut, .cannotConnect, .malformedResponse: true
        default: false
        }
    }

    static func duration(from start: Date, to end: Date) -> Duration {
        .milliseconds(max(0, MillisecondTime.milliseconds(from: end) - MillisecondTime.milliseconds(from: start)))
    }
}
