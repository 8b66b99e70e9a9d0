/// Why logging in to (or out of) a server failed, with what to do about it. Messages quoted from
/// a server are neutralised for the terminal and shortened; none carries a token.
public enum LoginError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server's address cannot be used (see ``HTTPTransportError/invalidURL(_:)`` and
    /// ``HTTPTransportError/insecureURL(_:)``).
    case invalidServer(String, reason: String)
    /// The request got no answer: the server is unreachable, timed out, or curl is missing.
    case transport(HTTPTransportError)
    /// The server refused the token or the authorization code (401, 403, `invalid_grant`).
    case refused(server: String, status: Int, message: String)
    /// The server answered with a failure that may pass (429, 5xx, 206): try again later.
    case temporaryFailure(url: String, status: Int, message: String)
    /// The answer is not what the Mastodon API sends: not a Mastodon server, or not JSON.
    case unexpectedAnswer(url: String, status: Int, reason: String)
    /// The authorization code typed back is empty or cannot be one.
    case invalidCode

    public var description: String {
        switch self {
        case let .invalidServer(server, reason):
            "\(server) is not a server address timeline can use: \(reason)"
        case let .transport(error):
            "\(error)"
        case let .refused(server, status, message):
            "\(server) refused the credentials (HTTP \(status)\(message.isEmpty ? "" : ": \(message)")). Log in again: timeline login mastodon \(server)"
        case let .temporaryFailure(url, status, message):
            "\(url) answered HTTP \(status)\(message.isEmpty ? "" : " (\(message))"): the server is busy or failing. Try again later."
        case let .unexpectedAnswer(url, status, reason):
            "\(url) answered HTTP \(status), which is not what a Mastodon-API server sends (\(reason)). Check the server's address."
        case .invalidCode:
            "The authorization code is empty or malformed. Copy the whole code the server showed and try again."
        }
    }
}
