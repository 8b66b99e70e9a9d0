import ArgumentParser
import TimelineKit

// `feeds`, `feed` and `home` (issue 37): the custom feeds an account saved at its server
// (Bluesky's), one feed's posts kept apart as a hashtag's are, and which feed the sync reads as
// the home timeline. These are a network's own feeds, not the RSS and Atom feed subscriptions
// of `subscribe`; help and messages say "Bluesky feeds" or "custom feeds" to keep them apart.

/// The sessions of `--account`, or every logged-in account's, that have saved feeds; refused
/// in one line, in the network's words, when none has (a Mastodon account).
private func feedSessions(account: String?, doing verb: String) throws(ExitCode) -> [any AccountSession] {
    var sessions = try FollowAccountArguments.sessions(doing: verb)
    if let account {
        sessions = sessions.filter { $0.account.name == account }
        if sessions.isEmpty {
            Terminal.emitError("timeline: no account is named \(QuotedValue.quoted(account)).\n")
            throw ExitCode(ExitStatus.usage)
        }
    }
    let able = sessions.filter { $0.refusal(of: .feeds) == nil }
    if able.isEmpty, let refusal = sessions.first?.refusal(of: .feeds) {
        Terminal.emitError("timeline: \(TerminalText.line(sessions[0].account.name)): \(refusal)\n")
        throw ExitCode(ExitStatus.usage)
    }
    return able
}

/// The saved feeds of `session`, or the command's end with the server's refusal.
private func savedFeeds(of session: any AccountSession, store: TimelineStore) throws(ExitCode) -> [SavedFeed] {
    do {
        return try waitFor { () async throws -> [SavedFeed] in try await session.savedFeeds(in: store) }
    } catch {
        Terminal.emitError("timeline: \(TerminalText.line(session.account.name)): its saved feeds could not be read: \(error)\n")
        throw ExitCode(exitStatus(for: error))
    }
}

/// `timeline feeds`: each account's saved and pinned custom feeds.
struct FeedsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feeds", abstract: "List your saved and pinned Bluesky feeds (custom feeds).",
        discussion: """
            One line per feed a Bluesky account saved (Bluesky's Feeds screen): * for a pinned \
            one, the short name `timeline feed` and `timeline home --set` take, the feed's name, \
            and its at:// URI; "home" marks the one `sync` reads as your home timeline. These \
            are Bluesky's custom feeds, not the RSS and Atom feed subscriptions of `timeline \
            subscriptions`. A Mastodon account has none, and says so. --json prints {"account", \
            "id", "type", "value", "pinned", "short_name", "name", "home"} per feed.

            Examples:
              timeline feeds
              timeline feeds --json | jq -r .value
            """)
    @OptionGroup var location: LocationOptions

    @Option(name: .long, help: ArgumentHelp("The account whose feeds to list.", valueName: "name"))
    var account: String?

    @Flag(name: .long, help: "Print one JSON object per feed.")
    var json = false

    func run() throws {
        let sessions = try feedSessions(account: account, doing: "feeds")
        let store = try location.openStore(create: true)
        var text = ""
        for session in sessions {
            let feeds = try savedFeeds(of: session, store: store)
            let home = session.account.homeFeed ?? "following"
            for feed in feeds {
                if json {
                    var object = JSONObjectWriter()
                    object.add("account", session.account.name)
                    object.add("id", feed.id)
                    object.add("type", feed.kind.rawValue)
                    object.add("value", feed.value)
                    object.add("pinned", feed.pinned)
                    object.add("short_name", feed.shortName)
                    if let name = feed.name { object.add("name", name) }
                    object.add("home", feed.value == home)
                    text += object.finish() + "\n"
                    continue
                }
                let name = feed.kind == .timeline ? "Following" : feed.name ?? (feed.kind == .list ? "(a list)" : "")
                text += (feed.pinned ? "* " : "  ") + TerminalText.line(feed.shortName) + "  " + TerminalText.line(name)
                    + (feed.kind == .timeline ? "" : "  " + TerminalText.line(feed.value)) + (feed.value == home ? "  (home)" : "")
                    + (sessions.count > 1 ? "  [" + TerminalText.line(session.account.name) + "]" : "") + "\n"
            }
            if feeds.isEmpty, !json { text += "\(TerminalText.line(session.account.name)) has no saved feeds.\n" }
        }
        Terminal.emit(text)
    }
}

/// `timeline feed NAME|URI`: one custom feed's posts, kept apart as a hashtag's are.
struct FeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed", abstract: "A Bluesky feed's posts (a custom feed), fetched and kept apart.",
        discussion: """
            Fetches the newest posts of one of your Bluesky feeds, named as `timeline feeds` \
            shows it (its short name or its name) or by its at:// URI, and shows them as `show` \
            does. They are kept in a database of their own beside the main one \
            (timeline.feed-….sqlite), as `timeline tag` keeps a hashtag's; --offline shows what \
            is kept. Their references are painted `feed-whats-hot:bkd`, which every command \
            that takes a post takes: a like, repost or reply of one is also told to the feed \
            (as Bluesky's app tells it), when the feed asks for that. Not the RSS and Atom feeds \
            of `timeline subscribe`.

            Examples:
              timeline feeds
              timeline feed whats-hot
              timeline feed at://did:plc:abc/app.bsky.feed.generator/whats-hot -n 100
              timeline favourite feed-whats-hot:bkd
            """)
    @OptionGroup var options: SourceTimelineOptions

    @Argument(help: ArgumentHelp("The feed: its short name or name (timeline feeds), or its at:// URI.", valueName: "name-or-uri"))
    var feed: String

    func run() throws {
        let all = try options.sessions(doing: "feed")
        if options.offline, !all.contains(where: { $0.listID(feed) != nil }) {
            // No request: the feed's kept database is found by the end of its name.
            let label = SourceReference.feedLabel(String(feed.split(separator: "/").last ?? Substring(feed)))
            let path = try SourceReference(label: label, reference: "").databasePath(beside: try options.location.location().databasePath)
            var request = options.request(.list(feed), name: "the feed " + TerminalText.line(feed), label: label,
                                          databaseName: .feed(feed, account: ""), sessions: [])
            request.foundPath = path
            try request.run()
            return
        }
        let able = all.filter { $0.refusal(of: .feeds) == nil }
        guard !able.isEmpty else {
            let refusal = all.first?.refusal(of: .feeds).map { "\($0)" } ?? "no account is logged in: \(Account.Network.loginHint(for: .feeds))."
            Terminal.emitError("timeline: \(all.first.map { TerminalText.line($0.account.name) + ": " } ?? "")\(refusal)\n")
            throw ExitCode(ExitStatus.usage)
        }
        var found: [(session: any AccountSession, feed: SavedFeed)] = []
        for session in able {
            if let uri = session.listID(feed) {
                found.append((session, SavedFeed(id: "", kind: .feed, value: uri, pinned: false)))
            } else if !options.offline {
                let store = try options.location.openStore(create: true)
                if let saved = SavedFeed.named(feed, in: try savedFeeds(of: session, store: store)), saved.kind != .timeline {
                    found.append((session, saved))
                }
            }
        }
        guard let (session, chosen) = found.first, found.count == 1 else {
            if found.isEmpty {
                Terminal.emitError("timeline: no saved feed is named \(QuotedValue.quoted(feed)) (or named so by one feed only): `timeline feeds` lists them; an at:// URI reads any feed. Nothing was fetched.\n")
            } else {
                let names = found.map { TerminalText.line($0.session.account.name) }.joined(separator: ", ")
                Terminal.emitError("timeline: several accounts could read the feed \(QuotedValue.quoted(feed)) (\(names)): say which with --account NAME.\n")
            }
            throw ExitCode(ExitStatus.usage)
        }
        let name = "the feed " + TerminalText.line(chosen.name ?? chosen.shortName)
        try options.request(.list(chosen.value), name: name, label: SourceReference.feedLabel(chosen.shortName),
                            databaseName: .feed(chosen.value, account: session.account.name),
                            sessions: options.offline ? [] : [session]).run()
    }
}

/// `timeline home [--set FEED]`: which feed `sync` reads as the home timeline.
struct HomeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "home", abstract: "Say or choose the home timeline: Following or one of your Bluesky feeds.",
        discussion: """
            Alone, says which home timeline each account's `sync` fetches into the main \
            timeline (what `show` and the shell hook paint). --set NAME makes one of a Bluesky \
            account's saved feeds (as `timeline feeds` names it) its home; --set following goes \
            back to the people it follows. The choice is kept with the account (accounts.json, \
            home_feed). Posts stored from the home before stay in the main timeline, read or \
            unread as they were; the next sync fetches the new home's newest posts, as a first \
            sync does, and they are shown among them by time.

            Examples:
              timeline home
              timeline home --set whats-hot
              timeline home --set following
            """)
    @OptionGroup var location: LocationOptions

    @Option(name: .long, help: ArgumentHelp("The account to choose for (with several).", valueName: "name"))
    var account: String?

    @Option(name: .long, help: ArgumentHelp("Make this saved feed the home timeline (its short name, name or at:// URI), or `following`.", valueName: "feed"))
    var set: String?

    func run() throws {
        let accountStore = try reportingErrors { try AccountStore.standard() }
        guard let set else {
            var accounts = try reportingErrors { try accountStore.hasAccountsFile ? accountStore.accounts() : [] }
            if let account { accounts = accounts.filter { $0.name == account } }
            if accounts.isEmpty {
                Terminal.emitError("timeline: no account is logged in\(account.map { " as " + QuotedValue.quoted($0) } ?? ""): \(Account.Network.loginHint()).\n")
                throw ExitCode(ExitStatus.usage)
            }
            var text = ""
            for account in accounts {
                let home = account.homeFeed.map { "the feed " + TerminalText.line(String($0.split(separator: "/").last ?? "")) + " (" + TerminalText.line($0) + ")" }
                    ?? (account.network.refusal(of: .feeds) == nil ? "Following" : "its server's home timeline")
                text += TerminalText.line(account.name) + ": " + home + "\n"
            }
            Terminal.emit(text)
            return
        }
        let sessions = try feedSessions(account: account, doing: "home --set")
        guard let session = sessions.first, sessions.count == 1 else {
            let names = sessions.map { TerminalText.line($0.account.name) }.joined(separator: ", ")
            Terminal.emitError("timeline: several accounts have feeds (\(names)): say which with --account NAME.\n")
            throw ExitCode(ExitStatus.usage)
        }
        let store = try location.openStore(create: true)
        var chosen: SavedFeed?
        if set.lowercased() != "following" {
            let feeds = try savedFeeds(of: session, store: store)
            guard let feed = SavedFeed.named(set, in: feeds), feed.kind != .list else {
                Terminal.emitError("timeline: \(QuotedValue.quoted(set)) is not one of \(TerminalText.line(session.account.name))'s saved custom feeds (a list cannot be the home): `timeline feeds` lists them. Nothing was changed.\n")
                throw ExitCode(ExitStatus.usage)
            }
            chosen = feed.kind == .timeline ? nil : feed
        }
        _ = try reportingErrors { try accountStore.setHomeFeed(chosen?.value, of: session.account.name) }
        let what = chosen.map { "the feed " + TerminalText.line($0.name ?? $0.shortName) + " (" + TerminalText.line($0.shortName) + ")" } ?? "Following"
        Terminal.emit("\(TerminalText.line(session.account.name))'s home is now \(what).\n")
        Terminal.emitError("timeline: the next sync fetches it into the main timeline; the posts stored before stay there.\n")
    }
}
