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
    /// The server refused the token it had just issued through the browser (its scopes are not
    /// what it wants, as Takahē's 403 `out_of_scope_for_token` said to granular scopes). Logging
    /// in the same way again would fail the same way, so the advice is a token made in the
    /// server's settings instead.
    case issuedTokenRefused(server: String, status: Int, message: String)
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
        case let .issuedTokenRefused(server, status, message):
            "\(server) refused the token it had just issued (HTTP \(status)\(message.isEmpty ? "" : ": \(message)")), so logging in through the browser again would fail the same way. Make a token in the server's settings (Preferences → Development, or its app settings) with the scopes read and write, and give it: timeline login mastodon \(server) --token-stdin"
        case let .temporaryFailure(url, status, message):
            "\(url) answered HTTP \(status)\(message.isEmpty ? "" : " (\(message))"): the server is busy or failing. Try again later."
        case let .unexpectedAnswer(url, status, reason):
            "\(url) answered HTTP \(status), which is not what a Mastodon-API server sends (\(reason)). Check the server's address."
        case .invalidCode:
            "The authorization code is empty or malformed. Copy the whole code the server showed and try again."
        }
    }
}
