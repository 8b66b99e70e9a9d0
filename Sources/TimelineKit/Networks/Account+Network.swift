extension Account {
    /// A network (a source of accounts) and everything the command line needs to know about it
    /// without naming it: the word a person types (`mastodon`), how a login goes
    /// (``LoginMethod``, or none), what its sessions can do (``SessionCapabilities``), and how a
    /// session of one of its accounts is made (``AccountStore/session(for:transport:policy:clock:)``).
    ///
    /// This is the one description of a source: its ``AccountSession`` conformance does the
    /// work, and this value says everything else as fields, each with a default, so that a
    /// minimal source gives a word, a name and how its session is made:
    ///
    /// ```swift
    /// let weather = Account.Network("weather", displayName: "Weather") { account, _ in
    ///     WeatherSession(account: account)
    /// }
    /// try Account.Network.register(weather)
    /// ```
    ///
    /// The networks are values, not cases: the built-in ones are declared in their own folders
    /// (``Account/Network/mastodon`` in `Mastodon/`, ``Account/Network/bluesky`` in `Bluesky/`),
    /// an embedder's are registered with ``register(_:)``, and ``registered`` lists them all; two
    /// are equal when their words are. An accounts-file entry whose network is not registered is
    /// kept as it is (a newer timeline, or another tool, wrote it).
    public struct Network: Sendable, Hashable, CustomStringConvertible {
        /// The word a person types and the accounts file stores: `mastodon`, `bluesky`. It is
        /// also the ``MessageSource`` of the messages its sessions store (``source``).
        public let rawValue: String
        /// The name said in sentences: `Mastodon`, `Bluesky`.
        public let displayName: String
        /// The server logged in to when none is given (`https://bsky.social`); `nil` when the
        /// server is always given (a Mastodon server is the login's second word).
        public let defaultServer: String?
        /// How a person logs in, and the words said about it; `nil` for a network whose accounts
        /// are not made by `timeline login` (the tool that registers it saves them:
        /// ``AccountStore/save(_:replacing:)``).
        public let login: LoginMethod?
        /// What a session of this network can do beyond syncing.
        public let capabilities: SessionCapabilities
        /// Makes a session of one of its accounts (see ``AccountStore/session(for:transport:policy:clock:)``).
        let makeSession: @Sendable (Account, SessionContext) throws(AccountError) -> any AccountSession
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

        /// A network: its word and name, and how a session of one of its accounts is made; the
        /// rest has a default that fits a source without a login or a server of its own.
        ///
        /// - Parameters:
        ///   - rawValue: the word (a valid ``MessageSource`` name; ``register(_:)`` checks it).
        ///   - displayName: the name said in sentences.
        ///   - defaultServer: the server logged in to when none is given.
        ///   - login: how `timeline login` logs in; `nil`: it does not.
        ///   - capabilities: what its sessions do beyond syncing; ``SessionCapabilities/none`` by default.
        ///   - ownUserID: the stored ID of an account's own user (default: its `accountID`).
        ///   - loginArguments: the words after `timeline login <word>` (default: its `acct`).
        ///   - endsAtServer: whether a logout ends the access at the server (default: no).
        ///   - storedSecret: where an account's secret is kept, given the accounts file's path.
        ///   - storedAccountProblem: what makes a stored account of it unusable, or `nil`.
        ///   - makeSession: the session of an account (``AccountSession``), given what the
        ///     session may use (``SessionContext``); throws when the account's entry cannot make one.
        public init(
            _ rawValue: String, displayName: String, defaultServer: String? = nil, login: LoginMethod? = nil,
            capabilities: SessionCapabilities = .none,
            ownUserID: @escaping @Sendable (Account) -> String = { $0.accountID },
            loginArguments: @escaping @Sendable (Account) -> [String] = { [$0.acct] },
            endsAtServer: @escaping @Sendable (Account) -> Bool = { _ in false },
            storedSecret: @escaping @Sendable (Account, String) -> String = { _, path in "secret in \(path)" },
            storedAccountProblem: @escaping @Sendable (Account) -> String? = { _ in nil },
            makeSession: @escaping @Sendable (Account, SessionContext) throws(AccountError) -> any AccountSession
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

        /// The source of the messages this network's sessions store: its word.
        public var source: MessageSource { MessageSource(unchecked: rawValue) }

        /// Why this network's sessions cannot do `action`, or `nil` when they can (a session may
        /// lack more: ask it, ``AccountSession/refusal(of:)``).
        public func refusal(of action: SourceAction) -> SourceError? {
            capabilities.refusal(of: action, source: displayName)
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
