import Synchronization

extension Account.Network {
    /// The networks built into TimelineKit, in the order help and suggestions list them.
    public static let builtIn: [Account.Network] = [.mastodon, .bluesky]

    /// The networks registered in this process with ``register(_:)``, in their order.
    private static let added = Mutex<[Account.Network]>([])

    /// Every network this process knows: the built-in ones, then those registered with
    /// ``register(_:)``, in that order (help, suggestions and ``init(rawValue:)`` read it). The
    /// one place a network is listed: a network is a folder of its own (its ``AccountSession``
    /// conformance and its ``Account/Network`` value) plus its registration.
    public static var registered: [Account.Network] {
        builtIn + added.withLock { $0 }
    }

    /// Adds `network` to ``registered`` for the rest of the process, so that accounts of it are
    /// read from the accounts file and their sessions made (``AccountStore/session(for:transport:policy:clock:)``).
    /// Its word is checked as a ``MessageSource`` name is, since it names the source of the
    /// messages its sessions store; to paint those with a mark, register the source too
    /// (``MessageSource/register(_:mark:asciiMark:label:)``).
    ///
    /// - Throws: ``SourceError/invalidName(_:)`` for a word that cannot name a source,
    ///   ``SourceError/alreadyRegistered(_:)`` for one a registered network has (a built-in one
    ///   included); nothing is registered then.
    public static func register(_ network: Account.Network) throws(SourceError) {
        guard MessageSource.isValidName(network.rawValue) else { throw .invalidName(network.rawValue) }
        let added = added.withLock { networks -> Bool in
            guard !(builtIn + networks).contains(network) else { return false }
            networks.append(network)
            return true
        }
        if !added { throw .alreadyRegistered(network.rawValue) }
    }

    /// The registered network whose accounts a login address most likely belongs to, when a
    /// person typed the address where the network's word goes (`timeline login alice.bsky.social`):
    /// the one that claims it (``LoginMethod/claimsAddress(_:)``), else the first with a login.
    public static func likely(forAddress address: String) -> Account.Network {
        let loggingIn = registered.filter { $0.login != nil }
        return loggingIn.first { $0.login?.claimsAddress(address) == true } ?? loggingIn.first ?? registered[0]
    }

    /// How to log in to an account of a network that has `action` (of any network with a login,
    /// when `nil`), for the hint said when no account can do it:
    /// `timeline login mastodon example.social (or: login bluesky HANDLE)`.
    public static func loginHint(for action: SourceAction? = nil) -> String {
        let logins = registered.filter { network in action.map { network.refusal(of: $0) == nil } ?? true }
            .compactMap { network in network.login.map { "login \(network.rawValue) \($0.addressPlaceholder)" } }
        guard let first = logins.first else { return "timeline login" }
        return "timeline " + first + (logins.count > 1 ? " (or: " + logins.dropFirst().joined(separator: "; or: ") + ")" : "")
    }

    /// The networks `timeline login` logs in to, as the sentence `timeline logs in to …` lists them.
    public static var loginList: String {
        registered.compactMap(\.login?.phrase).joined(separator: " and to ")
    }
}
