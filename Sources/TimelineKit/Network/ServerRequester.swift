#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// Sends one account's requests to its server and handles the server's limits and faults, for
/// every network's client (`MastodonClient`, `BlueskyClient`): each builds its requests (the
/// URL, its credentials) and this decides what an answer means.
///
/// - **2xx**: returned (206 excepted).
/// - **206 Partial Content**, **5xx** (but 501 Not Implemented), a time-out, a refused or cut-off connection: sent again
///   after `policy`'s back-off, up to `policy.maximumAttempts`, then `.timelineBeingRebuilt`,
///   `.serverFailed` or `.unreachable`.
/// - **429**: waits until the rate limit resets when that is within
///   `policy.maximumRateLimitWait` (twice at most), else `.rateLimited` saying when to retry.
/// - **A refused credential** (401, or what the caller's `isRefusedCredential` recognises):
///   `.unauthorized` at once; any other 4xx, and 501: `.rejected` with the server's reason.
///
/// Before each request, the rate limit the previous answers announced (``RateLimit``) is
/// honoured: at `policy.rateLimitReserve` requests left, it waits for the reset (or stops when
/// that is too far) rather than being refused.
final class ServerRequester: Sendable {
    let transport: any HTTPTransport
    let policy: RequestPolicy
    let clock: SyncClock
    let userAgent: String
    private let state = Mutex(State())

    private struct State {
        var rateLimit: RateLimit?
        var requestsSent = 0
        /// Body bytes of every answer received, refusals and retried faults included.
        var bytesReceived = 0
        /// When the work under way must end (``within(_:_:)``), and the limit it came from.
        var deadline: (at: Date, limit: Duration)?
    }

    /// Runs `body` with a time limit on all of its requests, retries and waits: from now on,
    /// no request starts, no wait goes on and no answer is waited for after `limit`, and the
    /// request under way then fails with `.timeLimitReached`. `nil`: no limit.
    func within<T>(_ limit: Duration?, _ body: () async throws(ServerError) -> T) async throws(ServerError) -> T {
        guard let limit else { return try await body() }
        let end = clock.now().addingTimeInterval(Self.seconds(limit))
        state.withLock { $0.deadline = (end, limit) }
        defer { state.withLock { $0.deadline = nil } }
        return try await body()
    }

    /// The time left before the deadline, if there is one; throws when none is left.
    private func timeLeft(url: String) throws(ServerError) -> Duration? {
        guard let deadline = state.withLock({ $0.deadline }) else { return nil }
        let left = Self.duration(from: clock.now(), to: deadline.at)
        guard left > .zero else { throw .timeLimitReached(url: url, limit: deadline.limit) }
        return left
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    init(transport: any HTTPTransport, policy: RequestPolicy, clock: SyncClock, userAgent: String) {
        self.transport = transport
        self.policy = policy
        self.clock = clock
        self.userAgent = userAgent
    }

    /// How many requests were sent so far, retries included.
    var requestsSent: Int { state.withLock { $0.requestsSent } }

    /// How many body bytes the answers received so far held (headers not counted), every
    /// answer included: what a sync cost the connection, beyond the protocol's own framing.
    var bytesReceived: Int { state.withLock { $0.bytesReceived } }

    /// The headers every request carries besides its credentials: the agent, and what is wanted.
    func headers(accept: String = "application/json") -> [HTTPHeader] {
        [HTTPHeader(name: "User-Agent", value: userAgent), HTTPHeader(name: "Accept", value: accept)]
    }

    /// Sends `request` until an answer settles it (see the type's comment). `server` names the
    /// server in `.unauthorized`. The error thrown never holds the request's credentials nor
    /// `secrets` (a password in its body), whatever the server quoted back (``Secrets``).
    func send(
        _ request: HTTPRequest, server: String, secrets: Secrets = Secrets([]),
        isRefusedCredential: (HTTPResponse) -> Bool = { $0.status == 401 }
    ) async throws(ServerError) -> HTTPResponse {
        let hidden = Secrets(request: request).adding(secrets)
        do {
            return try await settle(request, server: server, secrets: hidden, isRefusedCredential: isRefusedCredential)
        } catch {
            throw error.hiding(hidden)
        }
    }

    private func settle(
        _ request: HTTPRequest, server: String, secrets: Secrets, isRefusedCredential: (HTTPResponse) -> Bool
    ) async throws(ServerError) -> HTTPResponse {
        let url = request.url
        var attempt = 0
        var rateLimitWaits = 0
        while true {
            try await waitForRateLimit(url: url)
            var bounded = request
            if let left = try timeLeft(url: url) { bounded.timeout = min(request.timeout, left) }
            attempt += 1
            state.withLock { $0.requestsSent += 1 }
            let response: HTTPResponse
            do {
                response = try await transport.send(bounded)
            } catch {
                _ = try timeLeft(url: url)
                if case .cancelled = error { throw .cancelled }
                guard Self.isPassing(error), attempt < policy.maximumAttempts else {
                    throw .unreachable(error, attempts: attempt)
                }
                try await pause(policy.backoff(afterAttempt: attempt), url: url)
                continue
            }
            state.withLock { $0.bytesReceived += response.body.count }
            let now = clock.now()
            if let limit = RateLimit(response, now: now) {
                state.withLock { $0.rateLimit = limit }
            }
            if isRefusedCredential(response) { throw .unauthorized(server: server) }
            switch response.status {
            case 501:
                // Not Implemented is the server's lasting answer (an endpoint it lacks), not a fault that passes.
                throw .rejected(url: url, status: response.status, reason: ServerError.reason(inBody: response.body, hiding: secrets))
            case 206, 500 ..< 600:
                guard attempt < policy.maximumAttempts else {
                    if response.status == 206 { throw .timelineBeingRebuilt(url: url, attempts: attempt) }
                    throw .serverFailed(url: url, status: response.status, attempts: attempt)
                }
                try await pause(policy.backoff(afterAttempt: attempt), url: url)
            case 200 ..< 300:
                return response
            case 429:
                let retryAt = RateLimit.retryDate(after: response, now: now)
                let wait = retryAt.map { Self.duration(from: now, to: $0) } ?? policy.backoff(afterAttempt: attempt)
                rateLimitWaits += 1
                guard wait <= policy.maximumRateLimitWait, rateLimitWaits <= 2 else {
                    throw .rateLimited(url: url, retryAt: retryAt)
                }
                try await pause(wait, url: url)
                attempt -= 1  // waiting out the limit is not a failed attempt
            default:
                throw .rejected(url: url, status: response.status, reason: ServerError.reason(inBody: response.body, hiding: secrets))
            }
        }
    }

    /// Before a request: when the last answer said the limit is down to the reserve, waits for
    /// its reset, or stops when that is too far.
    private func waitForRateLimit(url: String) async throws(ServerError) {
        guard let limit = state.withLock({ $0.rateLimit }), limit.remaining <= policy.rateLimitReserve else { return }
        guard let reset = limit.reset else { return }
        let now = clock.now()
        guard reset > now else { return }
        let wait = Self.duration(from: now, to: reset)
        guard wait <= policy.maximumRateLimitWait else { throw .rateLimited(url: url, retryAt: reset) }
        try await pause(wait, url: url)
        state.withLock { $0.rateLimit = nil }
    }

    /// Waits `duration`, or throws `.timeLimitReached` at once when that would pass the deadline.
    private func pause(_ duration: Duration, url: String) async throws(ServerError) {
        if let left = try timeLeft(url: url), duration >= left {
            throw .timeLimitReached(url: url, limit: state.withLock { $0.deadline?.limit } ?? duration)
        }
        do {
            try await clock.sleep(duration)
        } catch {
            throw .cancelled
        }
    }

    /// Transport failures that may pass when the request is sent again.
    static func isPassing(_ error: HTTPTransportError) -> Bool {
        switch error {
        case .timedOut, .tooSlow, .cannotConnect, .malformedResponse: true
        default: false
        }
    }

    static func duration(from start: Date, to end: Date) -> Duration {
        .milliseconds(max(0, MillisecondTime.milliseconds(from: end) - MillisecondTime.milliseconds(from: start)))
    }
}
