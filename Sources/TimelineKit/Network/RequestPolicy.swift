/// How patient a client of a server (`MastodonClient`, `BlueskyClient`) is: retries, back-off
/// and the rate limit.
///
/// The defaults suit a sync run from a shell's start-up in the background: a few quick retries
/// of failures that pass (5xx, time-outs, a cut-off answer, 206 while a timeline is rebuilt),
/// short waits for a rate limit that resets soon, and a clear error instead of a long wait.
public struct RequestPolicy: Sendable, Hashable {
    /// How many times one request is sent at most when it fails in a way that may pass
    /// (5xx, time-out, connection refused or cut, 206). 1 means never retried.
    public var maximumAttempts: Int
    /// The wait before the first retry; each further retry waits twice as long.
    public var initialBackoff: Duration
    /// The longest wait between retries.
    public var maximumBackoff: Duration
    /// The longest wait for a rate limit to reset (after a 429, or before a request when
    /// `X-RateLimit-Remaining` is at `rateLimitReserve`); a longer one ends the work with
    /// `ServerError.rateLimited`, which says when to try again.
    public var maximumRateLimitWait: Duration
    /// Requests left unused in each rate-limit window (Mastodon allows 300 per 5 minutes per
    /// account), for the person's other apps: when `X-RateLimit-Remaining` is at or below it,
    /// the client waits for the reset (or stops) instead of spending them.
    public var rateLimitReserve: Int
    /// The longest a request may take, connection included.
    public var requestTimeout: Duration

    public init(
        maximumAttempts: Int = 4,
        initialBackoff: Duration = .seconds(1),
        maximumBackoff: Duration = .seconds(30),
        maximumRateLimitWait: Duration = .seconds(60),
        rateLimitReserve: Int = 3,
        requestTimeout: Duration = .seconds(30)
    ) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
        self.maximumRateLimitWait = maximumRateLimitWait
        self.rateLimitReserve = max(0, rateLimitReserve)
        self.requestTimeout = requestTimeout
    }

    /// How long one account's sync may take in all, its requests, retries and waits included,
    /// unless told otherwise (`sync --time-limit`): two minutes, so that a sync started at a
    /// shell's start-up, which holds the sync lock, gives up within a couple of minutes however
    /// slowly a server answers, and stores what it fetched until then (issue 24).
    public static let defaultSyncTimeLimit: Duration = .seconds(120)

    /// The wait after failed attempt number `attempt` (1-based): 1 s, 2 s, 4 s… up to the maximum.
    func backoff(afterAttempt attempt: Int) -> Duration {
        var wait = initialBackoff
        for _ in 1 ..< max(1, attempt) {
            wait = wait * 2
            if wait >= maximumBackoff { return maximumBackoff }
        }
        return min(wait, maximumBackoff)
    }
}
