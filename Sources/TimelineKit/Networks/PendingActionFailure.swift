/// What a failed try of a queued action (``PendingAction``) means for the queue (issue 27,
/// "Offline and failures"). Only the server's own answer takes an action out: either it was
/// done, or the server refused it and a retry would be refused the same.
///
/// - **Unreachable** (kept, the next sync sends it; the command exits 0): the connection was
///   refused or broke, the host name could not be resolved, no answer came in time, the server
///   answered 5xx, 429 or 206 on every retry, or the sync's time limit ran out.
/// - **Refused** (taken out, said with the server's reason): the server answered 4xx (404, the
///   post was deleted; 403, blocked; 422, not allowed), the message is not on the account's
///   server, the server lacks the endpoint, or its answer could not be read (a 2xx whose body
///   a retry would not change).
/// - **Waiting for you** (kept, said, non-zero exit): the login expired (401), the account's
///   `token_command` failed, the database was busy, or the process was interrupted: the action
///   is sent by the first sync after that is put right.
public enum PendingActionFailure: Sendable, Hashable {
    case unreachable
    case refused
    case waitingForYou

    /// How `error`, thrown by `AccountSession.send(_:in:)`, is taken.
    public init(_ error: any Error) {
        // What the server said of the post (a poll that ended, no poll): a retry is refused the same.
        // The source lacks the action: a retry is refused the same. A picture the server does not
        // take (too large, a type it lacks) is refused the same every time.
        if error is PostChangeRefusal || error is SourceError || error is PostOptionRefusal || error is PictureError {
            self = .refused
            return
        }
        guard let error = error as? ServerError else {
            self = .waitingForYou
            return
        }
        switch error {
        case .rejected, .replyTargetElsewhere, .notSupported, .serverLacks, .invalidResponse, .answerTooDeep: self = .refused
        case .store: self = .waitingForYou
        default: self = error.isTemporary ? .unreachable : .waitingForYou
        }
    }
}

extension PendingActionFailure {
    /// Why an action or a change waits for the next sync, in a few words naming its server and
    /// what went wrong there (`example.social could not be reached (Connection refused)`,
    /// `example.social answered 503`): said on the line that says it is kept, so it names neither
    /// an endpoint (the failure may be an older action's, sent first: a boost said it could not
    /// reach `…/favourite`) nor the advice of the whole error, which ran to 400 characters.
    public static func waitingReason(_ error: any Error) -> String {
        guard let error = error as? ServerError else { return TerminalText.line("\(error)") }
        let said: String
        switch error {
        case let .unreachable(transport, _):
            switch transport {
            case let .cannotConnect(url, reason): said = "\(host(of: url)) could not be reached (\(reason))"
            case let .timedOut(url, after): said = "\(host(of: url)) did not answer within \(after)"
            case let .tooSlow(url, _, _): said = "\(host(of: url)) answered too slowly"
            case let .malformedResponse(url, _): said = "\(host(of: url)) sent a broken answer"
            default: said = "the server could not be reached"
            }
        case let .serverFailed(url, status, _): said = "\(host(of: url)) answered \(status)"
        case let .rateLimited(url, _): said = "\(host(of: url))'s rate limit is used up"
        case let .timelineBeingRebuilt(url, _): said = "\(host(of: url)) is rebuilding the timeline"
        case let .timeLimitReached(url, _): said = "\(host(of: url)) answered too slowly"
        case let .markerConflict(url, _): said = "\(host(of: url)) was changing the read position"
        default: said = "\(error)"
        }
        return TerminalText.line(said)
    }

    /// The host (and port) of `url`, a URL a request was made to, or `url` itself when it is not one.
    private static func host(of url: String) -> String {
        (try? RequestURL(url))?.authority ?? url
    }

    /// Whether the try that failed with `error` may have been done by the server all the same:
    /// a time-out, an answer cut off, an interrupted process. Not when the connection could not
    /// be made (refused, no such host) or the server answered that it did not do it (5xx, 429):
    /// such a try counts for nothing (``TimelineStore/forgetAttempt(of:)``), so the action can
    /// still be cancelled by its opposite without asking the server.
    public static func mayHaveReachedServer(_ error: any Error) -> Bool {
        guard let error = error as? ServerError else { return true }
        switch error {
        case let .unreachable(transport, _):
            if case .cannotConnect = transport { return false }
            return true
        case .serverFailed, .rateLimited, .timelineBeingRebuilt: return false
        default: return true
        }
    }
}

/// An action that could not be sent for a reason the person must put right first (an expired
/// login, a failing `token_command`): it is kept in the queue, and `reason` says why.
public struct PendingActionKept: Error, Sendable, CustomStringConvertible {
    /// The queued action.
    public var action: PendingAction
    /// Why it could not be sent.
    public var reason: any Error

    public var description: String { "\(reason)" }
}
