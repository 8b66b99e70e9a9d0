import ArgumentParser
import TimelineKit

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show the newest messages: at once from the snapshot, then updated from the database.",
        discussion: """
            On a terminal, the first paint comes from the snapshot file alone; then the database is \
            asked what changed, and the screen is updated in place (or the changes are printed \
            below when the painted block no longer fits the window). Not on a terminal, or with \
            --json, it prints the up-to-date timeline once.

            How many: by default as many messages as fit in the terminal window without scrolling \
            (20 when not on a terminal); -n sets it.

            A database locked by another process is waited for at most 100 ms (--busy-timeout or \
            TIMELINE_BUSY_TIMEOUT_MS change that); then what was painted stays, with a note.

            Colour: on a terminal unless NO_COLOR is set or TERM=dumb; --color overrides.

            With --follow (-f) it stays open and shows every change committed by any process \
            within a fraction of a second: on a terminal the block is repainted in place (new \
            messages at the top) while it fits the window, otherwise new messages are printed \
            below as they arrive, like tail -f; on a pipe each new message is printed as one more \
            line (JSON Lines with --json). Ctrl-C, SIGTERM or SIGHUP end it (the shell sees the \
            signal: status 130, 143, 129); a closed pipe ends it with status 0. With accounts \
            (`timeline login`), it also keeps them live from their servers' event streams, storing \
            what arrives.

            Examples:
              timeline show
              timeline show -n 5 --width 60
              timeline show --format '{id}  {handle}: {text}'
              timeline show -f
              timeline show -f --format '{handle}: {text}' |
                while read -r line; do notify-send -- "$line"; done
              timeline show --notifications -n 10
              timeline show --notifications --only mentions,replies
              timeline show --notifications --requests
            """)

    @OptionGroup var location: LocationOptions

    @Option(name: [.customShort("n", allowingJoined: true), .customLong("limit")], help: "How many messages (default: what fits the window; 20 when not on a terminal).")
    var limit: Int?

    @Flag(name: .long, help: "Print JSON Lines: one message per line in the import format, with its author under \"user\", and \"favourited\", \"boosted\", \"bookmarked\", \"pending\" where true.")
    var json = false

    @OptionGroup var output: OutputOptions

    @Flag(name: .long, help: "Paint from the snapshot and stop: do not open the database.")
    var noReconcile = false

    @Flag(name: .long, help: "Ignore the snapshot and read the database (slower; for comparison).")
    var fromDb = false

    @Option(name: .long, help: ArgumentHelp("How long to wait for a locked database, in milliseconds (default 100).", valueName: "ms"))
    var busyTimeout: Int?

    @Flag(name: [.customShort("f"), .long], help: "Stay open and show each new message, edit and removal as it is committed.")
    var follow = false

    @Flag(name: .long, help: "Show the text behind content warnings instead of folding it.")
    var expand = false

    @Option(name: .long, help: ArgumentHelp("One line per message from a template, values neutralised: {id} {ref} {handle} {name} {text} {cw} {created_at} {url} {read} {reposted_by} {favourited} {boosted} {bookmarked} {pending}.", valueName: "template"))
    var format: String?

    @Flag(name: .long, help: "Mark the messages shown read once they are on the screen (the next sync moves your accounts' read markers).")
    var markRead = false

    @Flag(name: .long, help: "Only unread messages (read from the database).")
    var unread = false

    @Option(name: .long, help: ArgumentHelp("Only messages by the user with this handle, @ optional (read from the database).", valueName: "handle"))
    var author: String?

    @Option(name: .long, help: ArgumentHelp("Only messages older than this one: the next page back (its ID, as --format '{id}' shows).", valueName: "id"))
    var before: String?

    @Flag(name: .long, help: "Show your accounts' notifications (stored by `timeline sync`): who did what, newest first.")
    var notifications = false

    @Option(name: .long, help: ArgumentHelp("With --notifications, only these kinds, separated by commas: mentions, replies, quotes, favourites, boosts, follows, follow_requests, polls, updates, statuses (Mastodon calls a reply a mention).", valueName: "kinds"))
    var only: String?

    @Flag(name: .long, help: "With --notifications, list the accounts whose notifications your servers' filters hold back (Mastodon 4.3 and later), asked of the servers.")
    var requests = false

    @Option(name: .long, help: ArgumentHelp("Start `timeline sync` in the background first when the last successful sync is older than this (5m, 1h) and an account exists: what the shell hook of `timeline init` runs.", valueName: "duration"))
    var syncIfOlder: String?

    /// The rules of which flags go together are `ShowRequest`'s, which the launch reader shares.
    func validate() throws { try request.validate() }

    var request: ShowRequest {
        ShowRequest(databasePath: location.db, limit: limit, json: json, style: output.style,
                    reconcile: !noReconcile, fromDatabase: fromDb, busyTimeoutMilliseconds: busyTimeout,
                    follow: follow, expand: expand, format: format, markRead: markRead,
                    filter: TimelineFilter(unreadOnly: unread, authorHandle: author, beforeID: before),
                    notifications: notifications, notificationKinds: only,
                    notificationRequests: requests, syncIfOlder: syncIfOlder)
    }

    func run() throws {
        if notifications {
            // Read once more here: `validate()` refused a list that does not parse.
            let kinds = only.flatMap { try? NotificationKindSelection(parsing: $0).kinds }
            let output = NotificationsOutput(location: location, limit: limit ?? 20, kinds: kinds, json: json, width: output.width)
            try requests ? output.printRequests() : output.print()
            return
        }
        let status = ShowRunner(request: request).run()
        if status != ExitStatus.success { throw ExitCode(status) }
    }
}
