extension Account {
    /// A network `timeline` can log in to, and everything the command line needs to know about
    /// it without naming it: the word a person types (`mastodon`), how a login goes
    /// (``LoginMethod``), what its sessions can do (``SessionCapabilities``), and how a session
    /// of one of its accounts is made (``AccountStore/session(for:transport:policy:clock:)``).
    ///
    /// The networks are values, not cases: each is declared in its own folder
    /// (``Account/Network/mastodon`` in `Mastodon/`, ``Account/Network/bluesky`` in `Bluesky/`)
    /// and listed once in ``registered``; two are equal when their words are. An accounts-file
    /// entry whose network is not registered is kept as it is (a newer timeline wrote it).
    public struct Network: Sendable, Hashable, CustomStringConvertible {
        /// The word a person types and the accounts file stores: `mastodon`, `bluesky`.
        public let rawValue: String
        /// The name said in sentences: `Mastodon`, `Bluesky`.
        public let displayName: String
        /// The server logged in to when none is given (`https://bsky.social`); `nil` when the
        /// server is always given (a Mastodon server is the login's second word).
        public let defaultServer: String?
        /// How a person logs in, and the words said about it.
        public let login: LoginMethod
        /// What a session of this network can do beyond syncing.
        public let capabilities: SessionCapabilities
        /// Makes a session of one of its accounts (see ``AccountStore/session(for:transport:policy:clock:)``).
        let makeSession: @Sendable (Account, AccountStore, any HTTPTransport, RequestPolicy, SyncClock) throws(AccountError) -> any AccountSession
        /// The stored ID of an account's own user: the author of the posts it wrote.
        let ownUserID: @Sendable (Account) -> String
        /// The words after `timeline login <word>` that log in to an account again.
        let loginArguments: @Sendable (Account) -> [String]
        /// Whether logging out ends the account's access at the server.
        let endsAtServer: @Sendable (Account) -> Bool
        /// Where an account's secret is kept, said by `accounts` (given the accounts file's path);
        /// a token command is said the same way for every network.
        let storedSecret: @Sendable (Account, String) -> String
        /// What is wrong with an account read from the accounts file, in the network's own terms
        /// (a Bluesky account's ID must be a DID), or `nil`: the file's reader names the entry.
        let storedAccountProblem: @Sendable (Account) -> String?

        /// A network: its word and name, its login and capabilities, and how its accounts'
        /// sessions, user IDs, login commands, revocability and secrets are told, and what makes a
        /// stored account of it unusable. Only a
        /// network's own folder makes one; ``registered`` lists it.
        init(
            rawValue: String, displayName: String, defaultServer: String?, login: LoginMethod, capabilities: SessionCapabilities,
            makeSession: @escaping @Sendable (Account, AccountStore, any HTTPTransport, RequestPolicy, SyncClock) throws(AccountError) -> any AccountSession,
            ownUserID: @escaping @Sendable (Account) -> String,
            loginArguments: @escaping @Sendable (Account) -> [String],
            endsAtServer: @escaping @Sendable (Account) -> Bool,
            storedSecret: @escaping @Sendable (Account, String) -> String,
            storedAccountProblem: @escaping @Sendable (Account) -> String? = { _ in nil }
        ) {
            self.rawValue = rawValue
            self.displayName = displayName
            self.defaultServer = defaultServer
            self.login = login
            self.capabilities = capabilities
            self.makeSession = makeSession
            self.ownUserID = ownUserID
            self.loginArguments = loginArguments
            self.endsAtServer = endsAtServer
            self.storedSecret = storedSecret
            self.storedAccountProblem = storedAccountProblem
        }

        /// The registered network whose word is `rawValue` (`mastodon`), if any.
        public init?(rawValue: String) {
            guard let network = Self.registered.first(where: { $0.rawValue == rawValue }) else { return nil }
            self = network
        }

        /// The network's word, as the accounts file and `login` write it.
        public var description: String { rawValue }

        /// Networks are equal when their words are.
        public static func == (lhs: Network, rhs: Network) -> Bool { lhs.rawValue == rhs.rawValue }

        /// Hashes the network's word.
        public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    }

    /// The stored ID of the account's own user (`mastodon.social/1234`, a Bluesky DID): the
    /// author of the posts it wrote.
    public var storedUserID: String { network.ownUserID(self) }

    /// Whether `timeline logout` ends this account's access at the server (a token `login`
    /// created is revoked, a session is ended); `false` for a token made in the server's
    /// settings, which is revoked there.
    public var isRevocable: Bool { network.endsAtServer(self) }

    /// Where the account's secret comes from, as `timeline accounts` says it: `token from its
    /// token_command`, `token in PATH`, `bluesky, session in PATH` (`accountsPath`: the file).
    public func secretSource(accountsPath: String) -> String {
        if case .command = secret { return "token from its token_command" }
        return network.storedSecret(self, accountsPath)
    }
}
