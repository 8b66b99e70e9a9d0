extension Account.Network {
    /// Every network `timeline` knows, in the order help and suggestions list them: the one
    /// place a network is registered. A network is a folder of its own (its ``AccountSession``
    /// conformance and its ``Account/Network`` value) plus its line here.
    public static let registered: [Account.Network] = [.mastodon, .bluesky]

    /// The registered network whose accounts a login address most likely belongs to, when a
    /// person typed the address where the network's word goes (`timeline login alice.bsky.social`):
    /// the one that claims it (``LoginMethod/claimsAddress(_:)``), else the first.
    public static func likely(forAddress address: String) -> Account.Network {
        registered.first { $0.login.claimsAddress(address) } ?? registered[0]
    }

    /// The networks as the sentence `timeline logs in to …` lists them.
    public static var loginList: String {
        registered.map(\.login.phrase).joined(separator: " and to ")
    }
}
