extension Account.Network {
    /// Bluesky (any AT Protocol PDS): logged in to with an app password, whose session is
    /// stored and refreshed; posts are public, with languages; notifications are marked seen.
    public static let bluesky: Account.Network = Account.Network(
        "bluesky", displayName: "Bluesky", defaultServer: BlueskyClient.defaultService,
        login: LoginMethod(
            kind: .appPassword(AppPasswordLogin(
                defaultService: BlueskyClient.defaultService,
                missingPassword: "no app password: type it at the prompt, or pipe it with --app-password-stdin. Make one in Bluesky's settings (Privacy and security → App passwords).",
                refusedPassword: "Bluesky logs in with an app password, not the account's own password: make one in Settings → Privacy and security → App passwords.",
                open: { service, identifier, password, name, transport throws(ServerError) in
                    let client = BlueskyClient(service: service, session: nil, transport: transport, policy: RequestPolicy(maximumAttempts: 1))
                    let session = try await client.createSession(identifier: identifier, password: password)
                    return Account(name: name ?? Account.defaultBlueskyName(handle: session.handle), network: .bluesky, server: service.baseURL,
                                   accountID: session.did, acct: session.handle, client: nil, secret: .session(session.renewable))
                })),
            phrase: "bluesky",
            missingAddress: "say which account: timeline login bluesky you.bsky.social",
            otherMethodsOptions: "Bluesky logs in with an app password: --app-password-stdin, or type it at the prompt (--token-stdin and --token-command are for Mastodon).",
            addressPlaceholder: "HANDLE",
            help: """
                Bluesky: `timeline login bluesky HANDLE` with an app password (Settings → Privacy \
                and security → App passwords), typed at the prompt or piped with \
                --app-password-stdin. The app password is sent once and not stored: the session it \
                opens is, and later runs refresh it. --service names the server to log in to \
                (default https://bsky.social; a self-hosted PDS otherwise).

                  timeline login bluesky alice.bsky.social
                  pass show bluesky/app-password | timeline login bluesky alice.bsky.social \\
                      --app-password-stdin
                """,
            // A Bluesky handle is a domain too; the default service's suffix tells them apart.
            claims: { address in address.lowercased().hasSuffix(".bsky.social") }),
        capabilities: SessionCapabilities(
            actions: Set(SourceAction.allCases).subtracting([.readMarker, .bookmark, .edit, .vote, .timedMute, .notificationRequests, .schedule]), postOptions: [.sensitive, .contentLabel],
            postOptionsRefusal: "--cw, --visibility and --idempotency-key are for Mastodon accounts; a Bluesky post is public, and a retry of it never publishes twice anyway.",
            refusals: [
                .bookmark: "Bluesky keeps no bookmarks that another app can read or set (its API has likes and reposts only); bookmarks are for Mastodon accounts.",
                .edit: "Bluesky posts cannot be edited (a post is a record its readers' apps keep as first published); delete it (timeline delete REF) and post it again.",
                .vote: "Bluesky posts have no polls, so there is nothing to vote in; polls are Mastodon's.",
                .schedule: "Bluesky has no scheduled posts (a record is published when it is written), so there are none to list or cancel; scheduled posts are Mastodon's.",
                .timedMute: "Bluesky keeps no end for a mute of an account (app.bsky.graph.muteActor has none): mute it without --for, and `timeline unmute` it when you wish. A muted word can end: mute --word WORD --for 7d.",
            ],
            postOptionRefusals: [
                SessionCapabilities.PostOptions.contentWarning.rawValue:
                    "Bluesky posts have no written content warning: --sensitive labels the post's pictures as graphic media, as the Bluesky app does (--label \(SelfLabel.spelled) names another label).",
                SessionCapabilities.PostOptions.poll.rawValue: "Bluesky posts have no polls (its lexicon has none); polls are Mastodon's.",
                SessionCapabilities.PostOptions.schedule.rawValue:
                    "Bluesky has no scheduled posts (a record is published when it is written); --at and --in are for Mastodon accounts: post it then.",
            ]),
        ownUserID: { account in account.accountID },
        loginArguments: { account in
            var words = [account.acct]
            if account.server != BlueskyClient.defaultService { words += ["--service", account.server] }
            if account.name != Account.defaultBlueskyName(handle: account.acct) { words += ["--name", account.name] }
            return words
        },
        // A Bluesky session ends at the server on logout, as a revoked token does.
        endsAtServer: { _ in true },
        storedSecret: { _, path in "bluesky, session in \(path)" },
        storedAccountProblem: { account in
            account.accountID.hasPrefix("did:") ? nil : "account_id of a bluesky account must be its DID"
        },
        makeSession: { account, context in
            BlueskyAccountSession(account: account, client: Result { () throws(AccountError) in
                try context.accounts.blueskyClient(for: account, transport: context.transport, policy: context.policy, clock: context.clock)
            })
        })
}
