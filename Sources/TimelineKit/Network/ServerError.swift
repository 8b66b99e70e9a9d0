#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why talking to a server failed (a Mastodon-API server, or Bluesky's), and what to do next.
///
/// Nothing is ever half-stored: a page is stored in one transaction with the sync position, so
/// after any of these the database holds what came before the failure, and the next sync goes
/// on from there. No description holds a token: tokens travel only in headers.
///
/// For a command line: `unauthorized` is "log in again" (`EX_NOPERM`, 77); the cases where
/// `isTemporary` is true are "try again later" (`EX_TEMPFAIL`, 75), `retryAt` saying when.
public enum ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server's address cannot be used.
    case invalidServer(String, reason: String)
    /// The access token holds what no token holds (spaces, line breaks, other than printable
    /// ASCII), which would corrupt the request's headers; it was not sent.
    case invalidToken
    /// The server refused the token (401, or its own words for it in a 400 or 403: see
    /// `TokenRefusal`; for Bluesky also an expired or invalid session that
    /// could not be refreshed): it was revoked, expired, or belongs elsewhere.
    case unauthorized(server: String)
    /// The server's rate limit is used up until `retryAt` (a 429, or `X-RateLimit-Remaining`
    /// at the reserve), and that is longer than the policy waits.
    case rateLimited(url: String, retryAt: Date?)
    /// The server answered 206 Partial Content on every attempt: Mastodon does so while it
    /// rebuilds the home timeline of an account that was away for long.
    case timelineBeingRebuilt(url: String, attempts: Int)
    /// The server failed (5xx) on every attempt.
    case serverFailed(url: String, status: Int, attempts: Int)
    /// No answer (time-out, connection refused, a cut-off response) on every attempt, or a
    /// request that could not be made at all (`attempts` is then 1).
    case unreachable(HTTPTransportError, attempts: Int)
    /// The server refused the request (a 4xx other than 401 and 429), with its reason.
    case rejected(url: String, status: Int, reason: String?)
    /// The server lacks an endpoint that servers of the API may leave out (the read markers, the
    /// event stream): it answered 404, 405, 410 or 501, or an HTML page where the API's JSON was
    /// asked for (`status` is then that page's). Not a failure of the sync: see
    /// ``ServerFeature``.
    case notSupported(url: String, status: Int)
    /// The answer cannot be read: not JSON, cut short, or not the shape the API documents.
    /// `problem` says where in the body and what was wrong.
    case invalidResponse(url: String, problem: String)
    /// The answer nests values more than `limit` levels deep, past what timeline reads (each
    /// level takes stack space): more than any answer it asks for needs, but not a broken API.
    case answerTooDeep(url: String, limit: Int)
    /// Setting the read marker met a newer marker (409 Conflict) on every attempt.
    case markerConflict(url: String, attempts: Int)
    /// A reply was asked to a message that did not come from this account's server.
    case replyTargetElsewhere(messageID: String, server: String)
    /// The server does not offer what was asked: as it says of itself (Mastodon's quote posts
    /// before its quotes API, in `/api/v2/instance`), or as its answer shows (an endpoint it
    /// does not have, such as Takahē's list timelines): `feature` says what, and which endpoint
    /// when one answered, `server` where.
    case serverLacks(server: String, feature: String)
    /// The sync's time limit (``RequestPolicy/defaultSyncTimeLimit``, `sync --time-limit`) ran
    /// out: the server answered too slowly. What was fetched before is stored.
    case timeLimitReached(url: String, limit: Duration)
    /// The work was cancelled (the task, or the person).
    case cancelled
    /// The database refused the write or read.
    case store(TimelineStoreError)

    /// Whether trying again later can succeed without anyone changing anything.
    public var isTemporary: Bool {
        switch self {
        case .rateLimited, .timelineBeingRebuilt, .serverFailed, .markerConflict, .timeLimitReached: true
        case let .unreachable(error, _):
            switch error {
            case .timedOut, .tooSlow, .cannotConnect, .malformedResponse: true
            default: false
            }
        case let .store(error):
            if case .busy = error { true } else { false }
        default: false
        }
    }

    /// When trying again makes sense, when the server said.
    public var retryAt: Date? {
        if case let .rateLimited(_, date) = self { return date }
        return nil
    }

    public var description: String {
        switch self {
        case let .invalidServer(text, reason):
            return "\(QuotedValue.quoted(text)) is not a server address timeline can use: \(reason)."
        case .invalidToken:
            return "The access token holds spaces, line breaks or other characters a token cannot have; it was not sent. Copy it again, or run `timeline login` again."
        case let .unauthorized(server):
            return "\(server) refused the access token: it was revoked or has expired. Run `timeline login` again for this account."
        case let .rateLimited(url, retryAt):
            let when = retryAt.map { "after \(Self.timestamp($0))" } ?? "in a few minutes"
            return "\(url): the server's rate limit is used up. Nothing more was fetched; what was fetched is stored. Try again \(when)."
        case let .timelineBeingRebuilt(url, attempts):
            return "\(url) answered 206 Partial Content \(Self.times(attempts)): the server is rebuilding this timeline (it does so for accounts that were away for a while). Nothing from it was stored; try again in a minute."
        case let .serverFailed(url, status, attempts):
            return "\(url) failed with status \(status) \(Self.times(attempts)). What was fetched before is stored; try again later."
        case let .unreachable(error, attempts):
            return attempts > 1 ? "\(error) (\(attempts) attempts)" : "\(error)"
        case let .rejected(url, status, reason):
            let said = reason.map { ": " + $0 } ?? ""
            return "\(url) refused the request with status \(status)\(said)."
        case let .notSupported(url, status):
            let answer = (200 ..< 300).contains(status) ? "an HTML page instead of the API's answer" : "status \(status)"
            return "\(url) is not supported by this server (it answered \(answer))."
        case let .invalidResponse(url, problem):
            return "\(url) sent an answer timeline cannot read: \(problem) Nothing from it was stored; if it happens again, the server may not speak its API as documented."
        case let .answerTooDeep(url, limit):
            return "\(url) sent an answer nested more than \(limit) levels deep, deeper than timeline reads (the deepest it asks for, a Bluesky thread of 80 parents, takes about 95). Nothing from it was stored; if a thread, `timeline thread` of a post higher up reads less of it."
        case let .markerConflict(url, attempts):
            return "\(url): the read position changed on the server while it was being set (409 Conflict, \(Self.times(attempts))). Run sync again."
        case let .serverLacks(server, feature):
            return "\(server) does not support \(feature). Nothing was changed there."
        case let .replyTargetElsewhere(messageID, server):
            return "Message \(QuotedValue.quoted(messageID)) did not come from \(server), so it has no ID there to reply to, quote or act on. Use a message synced from \(server)."
        case let .timeLimitReached(url, limit):
            return "The sync stopped at its time limit of \(limit.components.seconds) s, waiting for \(url): the server answers too slowly. What was fetched is stored, and the next sync goes on from there."
        case .cancelled:
            return "The request was cancelled."
        case let .store(error):
            return "\(error)"
        }
    }

    /// `date` as RFC 3339 in UTC, e.g. `2026-08-01T15:00:00Z`.
    static func timestamp(_ date: Date) -> String {
        var bytes: [UInt8] = []
        RFC3339Time.append(milliseconds: MillisecondTime.milliseconds(from: date), to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func times(_ attempts: Int) -> String {
        attempts == 1 ? "once" : "\(attempts) times"
    }

    /// The statuses that say an endpoint does not exist on the server, as opposed to refusing
    /// this request: Not Found, Method Not Allowed, Gone, Not Implemented.
    static let missingEndpointStatuses: Set<Int> = [404, 405, 410, 501]

    /// What a server says in the body of a refusal (`{"error": "…"}`), made safe to print as
    /// the login's errors print it, `secrets` hidden before it is shortened.
    static func reason(inBody body: [UInt8], hiding secrets: Secrets = Secrets([])) -> String? {
        let message = ServerResponseReader.errorMessage(body, hiding: secrets.values)
        return message.isEmpty ? nil : message
    }
}
