/// The secrets of a request or an account (access and refresh tokens, an app password), and
/// the one rule that keeps them out of what timeline says: every error, log line and JSON
/// output has them replaced by `[secret hidden]`, wherever the text came from — a server that
/// quotes the `Authorization` header back in a refusal, a `Link` or a field of an answer that
/// repeats the token, a Bluesky server naming the refresh token it revoked (issue 24).
///
/// ```swift
/// throw error.hiding(Secrets(request: request))
/// ```
public struct Secrets: Sendable, Hashable {
    /// What replaces a secret.
    public static let mark = "[secret hidden]"

    /// The secrets, longest first (so that a secret holding another is hidden whole).
    public let values: [String]

    /// Secrets shorter than this are not looked for: no token or password is that short, and
    /// hiding every `a` of a message would hide the message.
    static let minimumLength = 6

    public init(_ values: [String]) {
        self.values = Array(Set(values.filter { $0.utf8.count >= Self.minimumLength })).sorted { $0.utf8.count > $1.utf8.count }
    }

    /// The credentials `request` carries: each `Authorization` value, and the part after its
    /// scheme (`Bearer TOKEN` quoted as `TOKEN`).
    public init(request: HTTPRequest) {
        var found: [String] = []
        for header in request.headers where header.matches("Authorization") {
            found.append(header.value)
            if let space = header.value.firstIndex(of: " ") {
                found.append(String(header.value[header.value.index(after: space)...]))
            }
        }
        self.init(found)
    }

    /// These secrets and `other`'s.
    public func adding(_ other: Secrets) -> Secrets { Secrets(values + other.values) }

    public var isEmpty: Bool { values.isEmpty }

    /// `text` with every secret replaced by ``mark``.
    public func hide(in text: String) -> String {
        var text = text
        for secret in values where text.contains(secret) { text = text.replacing(secret, with: Self.mark) }
        return text
    }
}

extension ServerError {
    /// This error with `secrets` hidden in everything it says.
    public func hiding(_ secrets: Secrets) -> ServerError {
        guard !secrets.isEmpty else { return self }
        let hide = secrets.hide(in:)
        return switch self {
        case let .invalidServer(text, reason): .invalidServer(hide(text), reason: hide(reason))
        case .invalidToken, .cancelled, .store: self
        case let .unauthorized(server): .unauthorized(server: hide(server))
        case let .rateLimited(url, retryAt): .rateLimited(url: hide(url), retryAt: retryAt)
        case let .timelineBeingRebuilt(url, attempts): .timelineBeingRebuilt(url: hide(url), attempts: attempts)
        case let .serverFailed(url, status, attempts): .serverFailed(url: hide(url), status: status, attempts: attempts)
        case let .unreachable(error, attempts): .unreachable(error.hiding(secrets), attempts: attempts)
        case let .rejected(url, status, reason): .rejected(url: hide(url), status: status, reason: reason.map(hide))
        case let .notSupported(url, status): .notSupported(url: hide(url), status: status)
        case let .invalidResponse(url, problem): .invalidResponse(url: hide(url), problem: hide(problem))
        case let .answerTooDeep(url, limit): .answerTooDeep(url: hide(url), limit: limit)
        case let .markerConflict(url, attempts): .markerConflict(url: hide(url), attempts: attempts)
        case let .timeLimitReached(url, limit): .timeLimitReached(url: hide(url), limit: limit)
        case let .replyTargetElsewhere(messageID, server): .replyTargetElsewhere(messageID: hide(messageID), server: hide(server))
        case let .serverLacks(server, feature): .serverLacks(server: hide(server), feature: feature)
        }
    }
}

extension HTTPTransportError {
    /// This error with `secrets` hidden in everything it says.
    public func hiding(_ secrets: Secrets) -> HTTPTransportError {
        let hide = secrets.hide(in:)
        return switch self {
        case let .invalidURL(url): .invalidURL(hide(url))
        case let .insecureURL(url): .insecureURL(hide(url))
        case .invalidHeader: self
        case let .cannotConnect(url, reason): .cannotConnect(url: hide(url), reason: hide(reason))
        case let .timedOut(url, after): .timedOut(url: hide(url), after: after)
        case let .tooSlow(url, bytesPerSecond, window): .tooSlow(url: hide(url), bytesPerSecond: bytesPerSecond, window: window)
        case let .responseTooLarge(url, limit): .responseTooLarge(url: hide(url), limit: limit)
        case let .malformedResponse(url, reason): .malformedResponse(url: hide(url), reason: hide(reason))
        case let .unavailable(reason): .unavailable(reason: hide(reason))
        case let .cancelled(url): .cancelled(url: hide(url))
        }
    }
}
