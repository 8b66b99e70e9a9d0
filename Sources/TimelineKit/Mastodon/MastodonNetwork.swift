extension Account.Network {
    /// Mastodon and the servers speaking its API (Pleroma, Akkoma, GoToSocial, Takahē, …):
    /// logged in to in a browser (or with a token), with read markers, content warnings,
    /// visibilities and idempotency keys.
    public static let mastodon: Account.Network = Account.Network(
        "mastodon", displayName: "Mastodon", defaultServer: nil,
        login: LoginMethod(
            kind: .browserAuthorization { server, transport throws(LoginError) in try MastodonAuthorization(server: server, transport: transport) },
            phrase: "mastodon servers (Mastodon and servers speaking its API)",
            missingAddress: "say which server: timeline login mastodon example.social",
            otherMethodsOptions: "--app-password-stdin and --service are for Bluesky; a Mastodon server is the second argument.",
            addressPlaceholder: "example.social",
            help: """
                Mastodon (and servers speaking its API: Pleroma, Akkoma, GoToSocial, …): registers \
                timeline with the server, prints a page to open (and opens it when a browser is at \
                hand), and reads back the code the server shows once you approve. --token-stdin \
                reads an access token instead (create one in the server's settings, Preferences → \
                Development, with the scopes read and write; on Mastodon read:accounts \
                read:statuses read:notifications write:statuses are enough); --token-command stores \
                a command that prints it (a password manager), run whenever the token is needed.

                  timeline login mastodon mastodon.social
                  pass show mastodon/token | timeline login mastodon https://example.social \\
                      --token-stdin
                  timeline login mastodon example.social --token-command \\
                      'pass show mastodon/token'
                """),
        // Every action but telling the server the notifications were seen (Mastodon's are read
        // with the home timeline's sync) and custom feeds, which Mastodon has not.
        capabilities: SessionCapabilities(
            actions: Set(SourceAction.allCases).subtracting([.notificationsSeen, .feeds]),
            postOptions: SessionCapabilities.PostOptions.all.subtracting(.contentLabel),
            refusals: [.feeds: "Mastodon has no custom feeds to save or pin: read a list (timeline lists, timeline list ID) or a hashtag (timeline tag NAME) instead."],
            postOptionRefusals: [SessionCapabilities.PostOptions.contentLabel.rawValue:
                "--label is Bluesky's: a Mastodon post marks its pictures with --sensitive, and --cw TEXT writes its warning."]),
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
        storedSecret: { _, path in "token in \(path)" },
        makeSession: { account, context in
            MastodonAccountSession(account: account, transport: context.transport, policy: context.policy, clock: context.clock)
        })
}

extension MastodonAuthorization: BrowserAuthorization {}

extension MastodonAuthorization.PendingAuthorization: PendingBrowserAuthorization {}
