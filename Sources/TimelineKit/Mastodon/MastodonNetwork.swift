extension Account.Network {
    /// Mastodon and the servers speaking its API (Pleroma, Akkoma, GoToSocial, Takahē, …):
    /// logged in to in a browser (or with a token), with read markers, content warnings,
    /// visibilities and idempotency keys.
    public static let mastodon: Account.Network = Account.Network(
        rawValue: "mastodon", displayName: "Mastodon", defaultServer: nil,
        login: LoginMethod(
            kind: .browserAuthorization { server, transport throws(LoginError) in try MastodonAuthorization(server: server, transport: transport) },
            phrase: "mastodon servers (Mastodon and servers speaking its API)",
            missingAddress: "say which server: timeline login mastodon example.social",
            otherMethodsOptions: "--app-password-stdin and --service are for Bluesky; a Mastodon server is the second argument."),
        capabilities: SessionCapabilities(readMarker: true, notificationsSeen: false, postOptions: .all),
        makeSession: { account, _, transport, policy, clock in
            MastodonAccountSession(account: account, transport: transport, policy: policy, clock: clock)
        },
        ownUserID: { account in
            (try? ServerAddress(account.server)).map { MastodonNamespace(server: $0).id(account.accountID) } ?? account.accountID
        },
        loginArguments: { account in
            // https is what login assumes; another scheme (a loopback test server) is spelled out.
            let server = account.server
            var words = [server.hasPrefix("https://") ? String(server.dropFirst("https://".count)) : server]
            if account.name != Account.defaultName(username: account.acct, server: server) { words += ["--name", account.name] }
            return words
        },
        endsAtServer: { account in account.client != nil },
        storedSecret: { _, path in "token in \(path)" })
}

extension MastodonAuthorization: BrowserAuthorization {}

extension MastodonAuthorization.PendingAuthorization: PendingBrowserAuthorization {}
