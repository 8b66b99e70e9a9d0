/// How a person logs in to a network's account, and the words `timeline login` says about it.
/// The command line handles the two methods (a page to approve in a browser; an app password
/// at a prompt), never the networks: each network's value (``Account/Network``) brings its own,
/// or none (``Account/Network/login``).
public struct LoginMethod: Sendable {
    /// The two ways a login goes.
    public enum Kind: Sendable {
        /// OAuth in a browser: the login's second word is the server's address; an access token
        /// may be given instead (`--token-stdin`, `--token-command`).
        case browserAuthorization(@Sendable (_ server: String, _ transport: any HTTPTransport) throws(LoginError) -> any BrowserAuthorization)
        /// An app password, typed at a prompt or piped (`--app-password-stdin`): the second
        /// word is the account's handle; `--service` names the server to log in to.
        case appPassword(AppPasswordLogin)
    }

    /// The way this network logs in.
    public let kind: Kind
    /// How `timeline logs in to …` names the network (`bluesky`, `mastodon servers (…)`).
    public let phrase: String
    /// Said when the login's second word is missing: `say which server: timeline login mastodon example.social`.
    public let missingAddress: String
    /// Said when the options of the other method are given (`--token-stdin` to an app-password
    /// login, `--service` to a browser one).
    public let otherMethodsOptions: String
    /// What the login's second word is, as a hint writes it: `example.social`, `HANDLE`
    /// (`timeline login mastodon example.social`).
    public let addressPlaceholder: String
    /// The network's part of `timeline login --help`: how its login goes, and examples.
    public let help: String
    /// Whether an address typed where the network's word goes is one of this network's
    /// (a Bluesky handle ends in `.bsky.social`).
    let claims: @Sendable (String) -> Bool

    /// A login of `kind`, said as `phrase` in `timeline logs in to …`; `missingAddress` and
    /// `otherMethodsOptions` are said when the login's second word is missing or the other
    /// method's options are given; `addressPlaceholder` writes the second word in hints, `help`
    /// is the network's paragraph of `login --help`; `claims` tells whether an address typed
    /// where the network's word goes is one of this network's.
    public init(kind: Kind, phrase: String, missingAddress: String, otherMethodsOptions: String,
                addressPlaceholder: String = "ADDRESS", help: String = "",
                claims: @escaping @Sendable (String) -> Bool = { _ in false }) {
        self.kind = kind
        self.phrase = phrase
        self.missingAddress = missingAddress
        self.otherMethodsOptions = otherMethodsOptions
        self.addressPlaceholder = addressPlaceholder
        self.help = help
        self.claims = claims
    }

    /// Whether `address` (typed where the network's word goes) looks like one of this network's.
    public func claimsAddress(_ address: String) -> Bool { claims(address) }
}

/// A login that a person approves in a browser (OAuth's out-of-band flow): register, show the
/// page, exchange the code the server shows for a token, and see whose it is.
/// ``MastodonAuthorization`` is one.
public protocol BrowserAuthorization: Sendable {
    /// What ``begin()`` gives: the page to open, and what the exchange needs.
    associatedtype Pending: PendingBrowserAuthorization
    /// The server's base URL, normalised (`https://mastodon.social`).
    var server: String { get }
    /// Registers the application and gives the page the person approves on.
    func begin() async throws(LoginError) -> Pending
    /// The token for the code the person copied from the page.
    func exchange(code: String, for pending: Pending) async throws(LoginError) -> AccessToken
    /// Whose `token` is (and that it works).
    func verifyCredentials(_ token: AccessToken) async throws(LoginError) -> VerifiedAccount
    /// The account to store for a verified login, named `name` or by default.
    func account(for verified: VerifiedAccount, named name: String?, client: OAuthClient?, secret: Account.Secret) -> Account
}

/// An authorization that waits for the person's approval.
public protocol PendingBrowserAuthorization: Sendable {
    /// The page to open.
    var authorizationURL: String { get }
    /// The application registered for it, kept with the account to revoke its token at logout.
    var client: OAuthClient { get }
}

/// A login with an app password (Bluesky's): the password is sent once and not stored; the
/// session it opens is.
public struct AppPasswordLogin: Sendable {
    /// Where the login goes when `--service` does not say: `https://bsky.social`.
    public let defaultService: String
    /// Said (after `timeline: `) when no password was given: where to make one.
    public let missingPassword: String
    /// Said when the server refused the password (401): an app password, not the account's own.
    public let refusedPassword: String
    /// Opens a session for `identifier` with `password` at `service`: the account to store,
    /// named `name` or by default.
    let open: @Sendable (_ service: ServerAddress, _ identifier: String, _ password: String, _ name: String?,
                         _ transport: any HTTPTransport) async throws(ServerError) -> Account

    /// A login with an app password at `defaultService` (unless `--service` says), saying
    /// `missingPassword` and `refusedPassword` when it has none or the server refuses it; `open`
    /// logs in once and gives the account to store.
    public init(defaultService: String, missingPassword: String, refusedPassword: String,
         open: @escaping @Sendable (ServerAddress, String, String, String?, any HTTPTransport) async throws(ServerError) -> Account) {
        self.defaultService = defaultService
        self.missingPassword = missingPassword
        self.refusedPassword = refusedPassword
        self.open = open
    }

    /// Logs in to `identifier` (a handle) at `service` with the app password `password`, one
    /// attempt (a person waits at the keyboard: a server that cannot be reached is said at
    /// once), and gives the account to store, named `name` or by default.
    ///
    /// - Throws: `ServerError`: `.unreachable`, `.rejected` with status 401 for a refused password.
    public func logIn(service: ServerAddress, identifier: String, password: String, name: String?,
                      transport: any HTTPTransport) async throws(ServerError) -> Account {
        try await open(service, identifier, password, name, transport)
    }
}
