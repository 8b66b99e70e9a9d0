/// Who a login belongs to, as the server verified it (Mastodon's `verify_credentials`): what
/// every network's login names the account by.
public struct VerifiedAccount: Sendable, Equatable {
    /// The account's ID on its server.
    public let id: String
    /// The username (`alice`).
    public let username: String
    /// The `acct` (`alice` for the server's own accounts).
    public let acct: String
    /// The display name (may be empty).
    public let displayName: String?

    /// An account as `verify_credentials` describes it.
    public init(id: String, username: String, acct: String, displayName: String?) {
        self.id = id
        self.username = username
        self.acct = acct
        self.displayName = displayName
    }
}
