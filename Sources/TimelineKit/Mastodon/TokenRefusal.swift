/// Whether a server of the Mastodon API refused the access token itself, however it words it:
/// such an answer means "log in again" (``ServerError/unauthorized(server:)``, exit 77), not a
/// refused request.
///
/// Mastodon says 401 (`{"error": "The access token is invalid"}`, "…was revoked", "…expired").
/// Others use 400 or 403 for the same thing:
/// - Takahē: 400 `Invalid Bearer token` as text/html for a revoked or unknown token;
/// - Pleroma and Akkoma: 403 `{"error": "Invalid credentials."}`;
/// - OAuth servers (Doorkeeper, RFC 6750): `invalid_token`.
/// A 400 or 403 without one of these (a suspended account, a missing scope, a bad parameter)
/// stays a refused request: logging in again would not help, and saying so would loop.
enum TokenRefusal {
    /// What servers say in a 400 or 403 body when the token is the problem, lowercased.
    static let phrases = [
        "invalid bearer token", "invalid_token", "access token is invalid", "access token was revoked",
        "access token expired", "invalid credentials", "token not supplied or invalid",
    ]

    /// How much of a body is searched: the phrases come first in every server's answer.
    static let searchedBytes = 4096

    /// Whether `response` refuses the token (see the type's comment).
    static func isRefusal(_ response: HTTPResponse) -> Bool {
        switch response.status {
        case 401: return true
        case 400, 403:
            let text = String(decoding: response.body.prefix(searchedBytes), as: UTF8.self).lowercased()
            return phrases.contains { text.contains($0) }
        default: return false
        }
    }
}
