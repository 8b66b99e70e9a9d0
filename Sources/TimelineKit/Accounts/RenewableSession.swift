/// A session that a password login opens and the server renews: the short-lived token sent with
/// each request, the long-lived one that asks for a new pair, and the server the account's
/// requests go to when it is not the one logged in to.
///
/// The accounts file keeps it as it keeps a token; what the two tokens mean, when to renew them
/// and which servers may receive them is the network's own code (Bluesky's `BlueskySession` and
/// `BlueskyClient`), so an account's secret names no network. A renewal retires the old refresh
/// token, so the renewed session is written back to the file at once.
public struct RenewableSession: Sendable, Equatable, CustomStringConvertible {
    /// The token sent with each request (Bluesky's `accessJwt`).
    public var accessToken: AccessToken
    /// The token that makes a new session (Bluesky's `refreshJwt`).
    public var refreshToken: AccessToken
    /// The server requests go to (Bluesky's PDS), when the session named one; `nil` sends them to
    /// the server logged in to (``Account/server``).
    public var service: String?

    public init(accessToken: AccessToken, refreshToken: AccessToken, service: String?) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.service = service
    }

    /// Names no token: a session that ends up in a log or an error message leaks nothing.
    public var description: String { "RenewableSession(tokens: …, service: \(service ?? "the server logged in to"))" }
}
