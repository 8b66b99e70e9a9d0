import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineFeeds
import TimelineKit

struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Fetch what is new for your accounts (home timeline, notifications, read position) and your due feeds.",
        discussion: """
            For every account (`timeline accounts`), or the one --account names: the home \
            timeline from the newest stored status on (the first sync: the newest 200), the \
            notifications, and, for Mastodon, the read marker both ways (what you read on your \
            phone is read here, and back). First, the favourites, boosts and bookmarks that \
            could not reach the server when asked for are sent, oldest first, each once (a \
            refused one is said and no longer pending; --json: "actions"), then the posts and \
            other changes that waited in the outbox (--json: "changes", "sent" naming each post's \
            "id" and, for one with pictures, "media": its pictures' media IDs or blob CIDs, in \
            --image order). Each page is stored in one transaction; the snapshot is \
            rewritten at the end. One summary line, or --json (one object per account; "server_lacks" lists \
            what its server does not support, such as "markers" on Takahē; "received" the body \
            bytes, entries decoded and requests of each timeline, and the bytes of the whole \
            sync). A server without an \
            optional part of the API is synced without it, and told once.

            Then the feeds you subscribe to (`timeline subscriptions`) that are due: a feed is \
            due an hour after its last fetch (`subscribe --every` changes it; a feed's own ttl \
            is honoured when longer); --feeds-now fetches every feed now, except one whose \
            server asked to wait (429 or 503 with Retry-After). Up to 4 feeds are fetched at \
            once; a feed that fails keeps its problem (`timeline subscriptions`) and the others \
            go on; a line says how many were fetched, unchanged and failed (--json: one object \
            per feed, "feed", "ok", "outcome", "new_items", "edited_items", "error"). With feeds \
            and no accounts, a sync whose feeds succeed exits 0. --account syncs that account \
            only, no feeds.

            For shell start-up: --if-older 5m does nothing when the last sync that succeeded is \
            more recent, and --background returns at once and syncs in a detached process. A lock \
            keeps syncs single-flight: ten terminals opening together send one round of \
            requests. A background sync's errors go to the database's `.sync.log` beside it.

            Examples:
              timeline sync
              timeline sync --account alice@mastodon.social --json
              timeline sync --if-older 5m --background
              timeline sync --depth 1000      # a first sync that reaches further back
            """)

    @OptionGroup var location: LocationOptions

    @Option(name: .long, help: ArgumentHelp("Sync only this account (its name in `timeline accounts`).", valueName: "name"))
    var account: String?

    @Flag(name: .long, help: "Print one JSON object per account instead of a summary line.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("Do nothing if the last successful sync is more recent: 90s is not a unit; 5m, 1h, 1d.", valueName: "duration"))
    var ifOlder: String?

    @Flag(name: .long, help: "Return at once and sync in a detached process (its errors go to the .sync.log beside the database).")
    var background = false

    /// Set on the detached process that `--background` and the shell hook's `show` start: it
    /// has already yielded to the shell (`BackgroundSyncStart.yieldIfDetached`) when this is read.
    @Flag(name: .long, help: .private)
    var detached = false

    @Flag(name: .long, help: "Fetch every feed now, due or not (never one whose server asked to wait).")
    var feedsNow = false

    @Option(name: .long, help: ArgumentHelp("How many of the newest home entries the first sync of an account keeps (default 200).", valueName: "n"))
    var depth: Int?

    @Option(name: .long, help: ArgumentHelp("How long each account's sync may take, requests and waits included: 30s, 2m (default 2m). What was fetched by then is stored.", valueName: "duration"))
    var timeLimit: String?

    /// `--time-limit`'s value: whole seconds (`45`, `45s`) or minutes (`2m`), from 1 s to an hour.
    static func timeLimitSeconds(_ text: String) -> Int64? {
        var digits = Substring(text)
        var unit: Int64 = 1
        if digits.hasSuffix("s") { digits = digits.dropLast() } else if digits.hasSuffix("m") { digits = digits.dropLast(); unit = 60 }
        guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let count = Int64(digits) else { return nil }
        let seconds = count * unit
        return (1 ... 3600).contains(seconds) ? seconds : nil
    }

    private var syncTimeLimit: Duration {
        timeLimit.flatMap(Self.timeLimitSeconds).map { .seconds($0) } ?? RequestPolicy.defaultSyncTimeLimit
    }

    func validate() throws {
        if let depth, !(1 ... 10_000).contains(depth) {
            throw ValidationError("--depth: give a number of entries from 1 to 10000.")
        }
        if let timeLimit, Self.timeLimitSeconds(timeLimit) == nil {
            throw ValidationError("--time-limit: '\(timeLimit)' is not a time from 1s to 60m; give seconds (45s) or minutes (2m).")
        }
        if let ifOlder, AgeLimit(ifOlder) == nil {
            throw ValidationError("--if-older: '\(ifOlder)' is not a duration; give \(AgeLimit.usage).")
        }
    }

    private var age: Duration? { ifOlder.flatMap(AgeLimit.init).map { .seconds($0.seconds) } }

    func run() throws {
        // A waiting Bluesky post's link card that could not be made (issue 36) is said in one line.
        LinkCardNotices.listen { sentence in Terminal.emitError("timeline: \(TerminalText.line(sentence))\n") }
        let location = try location.location()
        let gate = SyncGate(databasePath: location.databasePath)
        let accountStore = try reportingErrors { try AccountStore.standard() }
        // Shell start-up runs this in every terminal: with no account, or a recent sync, it
        // must cost no more than a stat or two and print nothing.
        let quietWhenIdle = background || ifOlder != nil
        if quietWhenIdle, !accountStore.hasAccountsFile, !(includesFeeds && FeedsMarker.exists(databasePath: location.databasePath)) { return }
        if let age, !gate.isDue(olderThan: age) { return }

        if background {
            var arguments = ["timeline", "sync", "--db", location.databasePath]
            if let account { arguments += ["--account", account] }
            if let ifOlder { arguments += ["--if-older", ifOlder] }
            if let depth { arguments += ["--depth", String(depth)] }
            if let timeLimit { arguments += ["--time-limit", timeLimit] }
            if feedsNow { arguments.append("--feeds-now") }
            arguments.append(BackgroundSyncStart.detachedFlag)
            try reportingErrors { try gate.startInBackground(executable: Self.ownExecutable, arguments: arguments) }
            return
        }

        // Each account's token is asked for when its turn comes: one failing token_command
        // (a locked password manager) must not stop the other accounts.
        let accounts = try reportingErrors { try account.map { [try accountStore.account(named: $0)] } ?? accountStore.accounts() }
        if account == nil, !background {
            for entry in try reportingErrors({ try accountStore.unreadableEntries() }) {
                Terminal.emitError(AccountStore.unusableNote(entry, path: accountStore.path))
            }
        }
        if accounts.isEmpty, !(includesFeeds && Self.hasSubscriptions(databasePath: location.databasePath)) {
            if quietWhenIdle { return }
            Terminal.emitError("timeline: no accounts or feeds to sync. Log in first: timeline login mastodon https://your.server, or timeline login bluesky you.bsky.social; or subscribe to a feed: timeline subscribe URL\n")
            throw ExitCode(ExitStatus.noInput)
        }
        let outcome = try reportingErrors {
            // A foreground sync waits for one already running (its results are then shared);
            // one started by --background (or with --if-older) leaves it to finish alone.
            try gate.run(ifOlderThan: age, waitingAtMost: quietWhenIdle ? .zero : .seconds(120)) {
                () throws(ExitCode) -> (value: ([AccountSync], FeedSyncSummary?), succeeded: Bool) in
                let (results, feeds) = try syncAll(accounts, from: accountStore)
                if !accounts.isEmpty { recordStatus(of: results, accounts: accounts, in: accountStore, location: location) }
                // A feed's failure is kept in its subscription and retried when it is due
                // again; it does not hold the stamp back, which would start a background sync
                // at every terminal for one broken feed.
                return ((results, feeds), results.allSatisfy { $0.error == nil })
            }
        }
        guard case let .ran((results, feeds)) = outcome else { return }
        report(results)
        if let feeds { reportFeeds(feeds) }
        let worst = (results.compactMap(\.error).map(exitStatus(for:)) + [Self.worstStatus(of: feeds)].compactMap { $0 }).max()
        if let worst { throw ExitCode(worst) }
    }

    /// Keeps how each sync ended beside the database, where every terminal's `show` reads it:
    /// a background sync has no one to tell but the log. Not being able to write it is said,
    /// not fatal: the sync itself went as it went.
    private func recordStatus(of results: [AccountSync], accounts: [Account], in accountStore: AccountStore, location: TimelineLocation) {
        let everyAccount = (try? accountStore.accounts()) ?? accounts
        do throws(FileSystemError) {
            try SyncStatusFile(databasePath: location.databasePath).record(results.map { ($0.account, $0.error) }, accounts: everyAccount)
        } catch {
            Terminal.emitError("timeline: could not note how the sync went: \(error)\n")
        }
    }

    /// One account's sync: what it did, or why it stopped.
    struct AccountSync {
        var account: Account
        var name: String { account.name }
        var summary: SyncSummary?
        var error: (any Error)?
        /// What became of the account's actions that waited for its server (sent first).
        var actions = PendingDelivery()
    }

    private func syncAll(_ accounts: [Account], from accountStore: AccountStore) throws(ExitCode) -> ([AccountSync], FeedSyncSummary?) {
        let store = try location.openStore(create: true)
        let transport = CurlTransport()
        var results: [AccountSync] = []
        for account in accounts {
            var actions = PendingDelivery()
            do {
                let session = try accountStore.session(for: account, transport: transport)
                // The actions that waited for the server go first, in the order they were
                // asked for: what the sync then stores already knows them (issue 27).
                actions = waitFor { () async -> PendingDelivery in await session.sendPendingActions(in: store) }
                // And those asked for on a hashtag's or a list's posts, kept in their databases.
                for path in SourceReference.databases(beside: store.path)
                where ((try? TimelineStore.waitingActions(inDatabaseAt: path))?.count(for: account.name) ?? 0) > 0 {
                    guard let source = try? LocationOptions.openStore(at: path, create: false) else { continue }
                    let more = waitFor { () async -> PendingDelivery in await session.sendPendingActions(in: source) }
                    actions.add(more)
                }
                let options = SyncOptions(homeDepth: depth ?? 200, timeLimit: syncTimeLimit)
                let summary = try waitFor { () async throws -> SyncSummary in try await session.sync(into: store, options: options) }
                results.append(AccountSync(account: account, summary: summary, actions: actions))
            } catch {
                results.append(AccountSync(account: account, error: error, actions: actions))
            }
        }
        let feeds = includesFeeds ? try syncFeeds(into: store) : nil
        // Every sync writes (when it ran, at least), which voids the stamp that lets `show` open
        // nothing; a background sync, which no one waits for, stamps again once the files' times
        // settle (a few milliseconds), so that the next terminal opens nothing when nothing came.
        if detached {
            // The store stays open until the process exits (its one reference is leaked on
            // purpose): closing SQLite's last connection checkpoints the -wal into the database
            // and deletes it, which would change the very files the stamp records.
            _ = Unmanaged.passRetained(store)
            _ = try? store.stampUnchangedDatabase(settlingWithin: .milliseconds(100))
        }
        return (results, feeds)
    }

    /// What a sync received, for `--json`: `{"bytes": N, "home": {"bytes": N, "entries": N,
    /// "requests": N}, "notifications": {…}}`; bytes are bodies, without headers.
    static func received(_ summary: SyncSummary) -> JSONObjectWriter {
        func timeline(_ traffic: TimelineTraffic) -> JSONObjectWriter {
            var object = JSONObjectWriter()
            object.add("bytes", traffic.bodyBytes)
            object.add("entries", traffic.entriesDecoded)
            object.add("requests", traffic.requests)
            return object
        }
        var object = JSONObjectWriter()
        object.add("bytes", summary.bytesReceived)
        object.add("home", object: timeline(summary.homeTraffic))
        object.add("notifications", object: timeline(summary.notificationTraffic))
        return object
    }

    /// The message `id` as the person knows it: its short reference, else its ID.
    private static func named(_ id: String, in store: TimelineStore?) -> String {
        guard let message = try? store?.message(id: id), !message.shortReference.isNone else { return id }
        return message.shortReference.text
    }

    private func report(_ results: [AccountSync]) {
        let store = results.contains { !$0.actions.isEmpty } ? try? location.openStore(create: false) : nil
        for result in results {
            // A refused action is said, and is no longer pending: the message shows what the
            // server says of it.
            for refusal in result.actions.refused {
                Terminal.emitError("timeline: \(TerminalText.line(result.name)): the server refused to \(refusal.action.action.rawValue) \(TerminalText.line(Self.named(refusal.action.messageID, in: store))), asked for while it could not be reached: \(TerminalText.line(refusal.reason)) It is no longer pending.\n")
            }
            for refusal in result.actions.changesRefused {
                Terminal.emitError("timeline: \(TerminalText.line(result.name)): the server refused \(OutboxRequest.describe(refusal.entry, in: store)), asked for while it could not be reached: \(TerminalText.line(refusal.reason)) It is no longer pending.\n")
            }
            if let error = result.error {
                Terminal.emitError("timeline: \(TerminalText.line(result.name)): \(error)\n")
            }
            // Said once per account: the sync after this one remembers it and stays quiet.
            for feature in result.summary?.newlyLacking ?? [] {
                Terminal.emitError("timeline: \(TerminalText.line(result.name)): this server has no \(feature.name); \(feature.consequence). (Said once; the sync succeeds without it.)\n")
            }
            // Said once per account and sync: the rest of the pages was stored.
            if let summary = result.summary, summary.skippedEntries > 0 {
                let entries = summary.skippedEntries == 1 ? "1 entry" : "\(summary.skippedEntries) entries"
                Terminal.emitError("timeline: \(TerminalText.line(result.name)): left out \(entries) the server sent that could not be read; the others were stored (the first: \(TerminalText.line(summary.firstSkipReason ?? "")))\n")
            }
        }
        if json {
            for result in results {
                var object = JSONObjectWriter()
                object.add("account", result.name)
                var actions = JSONObjectWriter()
                actions.add("sent", result.actions.sent.count)
                actions.add("refused", objects: result.actions.refused.map { refusal in
                    var object = JSONObjectWriter()
                    object.add("action", refusal.action.action.rawValue)
                    object.add("id", refusal.action.messageID)
                    object.add("reason", refusal.reason)
                    return object
                })
                actions.add("pending", result.actions.stillPending)
                object.add("actions", object: actions)
                // The outbox's changes (posts, edits, votes, follows, deletes) sent, and refused.
                var changes = JSONObjectWriter()
                changes.add("sent", objects: result.actions.changesSent.map { sent in
                    var object = JSONObjectWriter()
                    object.add("kind", sent.entry.change.kind)
                    if case let .posted(message, _, media) = sent.result {
                        object.add("id", message.id)
                        // What the server answered for its pictures, as `post --json` names them (issue 36).
                        if !media.isEmpty { object.add("media", media) }
                    }
                    if case let .scheduled(scheduled) = sent.result { object.add("scheduled_id", scheduled.id) }
                    if let id = sent.entry.messageID, sent.entry.placeholderID == nil { object.add("id", id) }
                    return object
                })
                changes.add("refused", objects: result.actions.changesRefused.map { refusal in
                    var object = JSONObjectWriter()
                    object.add("kind", refusal.entry.change.kind)
                    if let id = refusal.entry.messageID { object.add("id", id) }
                    object.add("reason", refusal.reason)
                    return object
                })
                object.add("changes", object: changes)
                if let summary = result.summary {
                    object.add("ok", true)
                    object.add("new_statuses", summary.newStatuses)
                    object.add("new_notifications", summary.newNotifications)
                    object.add("marked_read", summary.markedRead)
                    object.add("gaps_left", summary.gapsLeft)
                    object.add("skipped", summary.skippedEntries)
                    object.add("requests", summary.requests)
                    object.add("server_lacks", summary.serverLacks.map(\.rawValue))
                    object.add("received", object: Self.received(summary))
                } else {
                    object.add("ok", false)
                    object.add("error", result.error.map { "\($0)" } ?? "")
                }
                Terminal.emit(object.finish() + "\n")
            }
            return
        }
        let done = results.compactMap(\.summary)
        guard !done.isEmpty else { return }
        let statuses = done.reduce(0) { $0 + $1.newStatuses }
        let notifications = done.reduce(0) { $0 + $1.newNotifications }
        let read = done.reduce(0) { $0 + $1.markedRead }
        let requests = done.reduce(0) { $0 + $1.requests }
        let gaps = done.reduce(0) { $0 + $1.gapsLeft }
        let who = done.count == 1 ? TerminalText.line(done[0].account) : "\(Counted(done.count, "account"))"
        var line = "Synced \(who): \(Counted(statuses, "new message")), \(Counted(notifications, "notification")), \(Counted.grouped(read)) marked read (\(Counted(requests, "request")))"
        if gaps > 0 { line += "; older messages are still to fetch: run `timeline sync` again" }
        let waiting = results.reduce(0) { $0 + $1.actions.stillPending }
        // Everything that waited and went, by kind, counted once (issue 37: "sent 3 actions
        // that waited; sent 1 vote, 2 posts" said "sent" twice and counted in two ways):
        // "sent 2 favourites, 1 vote and 2 posts that waited".
        let kinds = results.flatMap { $0.actions.sent.map(\.action.rawValue) + $0.actions.changesSent.map(\.entry.change.kind) }
        if !kinds.isEmpty {
            var counted: [(String, Int)] = []
            for kind in kinds {
                if let index = counted.firstIndex(where: { $0.0 == kind }) { counted[index].1 += 1 } else { counted.append((kind, 1)) }
            }
            let words = counted.map { Counted($0.1, $0.0).description }
            let listed = words.count == 1 ? words[0] : words.dropLast().joined(separator: ", ") + " and " + words.last!
            line += "; sent \(listed) that waited"
        }
        if waiting > 0 { line += "; \(Counted(waiting, "action")) still \(waiting == 1 ? "waits" : "wait") for the server" }
        Terminal.emit(line + ".\n")
        // What a server did to an audience when a change that waited reached it, said as the
        // edit and post commands say it at once (issue 34).
        for result in results {
            for sent in result.actions.changesSent {
                switch sent.result {
                case let .edited(message, visibilityChange?):
                    Terminal.emitError("timeline: the server made \(TerminalText.line(message.id)) \(visibilityChange.after.rawValue) "
                        + "(it was \(visibilityChange.before.rawValue)) when the edit that waited reached it: delete it if it should not be \(visibilityChange.after.rawValue).\n")
                case let .posted(message, widened?, _):
                    Terminal.emitError("timeline: the reply \(TerminalText.line(message.id)) that waited is \(widened.after.rawValue), "
                        + "wider than the \(widened.before.rawValue) post it answers (--visibility asked for it).\n")
                case let .scheduled(scheduled):
                    Terminal.emitError("timeline: the post that waited is scheduled as \(TerminalText.line(scheduled.id)) for "
                        + "\(scheduled.scheduledAt.formatted(.iso8601)) (timeline scheduled lists it).\n")
                default:
                    break
                }
            }
        }
    }

    /// This program, to start again in the background: the kernel's name for it on Linux
    /// (whatever PATH or the working directory say), else how it was started.
    static var ownExecutable: String {
        #if os(Linux)
        "/proc/self/exe"
        #else
        CommandLine.arguments[0]
        #endif
    }
}
