import ArgumentParser
import TimelineKit

/// What `timeline show` was asked to do, and the one statement of which of its flags go together
/// (`validate()`), whichever reader built it.
///
/// `show` runs at every terminal start, so `main` reads its command line by hand
/// (`parse(_:)`, through `LaunchArguments` and `flagTable`): ArgumentParser's reflection costs
/// about 2 ms a launch. Anything the hand reader does not take (`--help`, a typo, a missing
/// value, an invalid combination) makes it step aside, and ArgumentParser reads the same
/// arguments for its proper help and error messages (`ShowCommand` declares the flags; its
/// `request` is this type). `LaunchArgumentsTests` holds the table to ArgumentParser's and the two
/// readers to the same requests.
struct ShowRequest: Sendable, Equatable {
    var databasePath: String?
    var limit: Int?
    var json = false
    /// `--color`, `--width`.
    var style = OutputOptions.Style()
    var reconcile = true
    var fromDatabase = false
    /// `--busy-timeout`; `busyTimeout` is what is waited.
    var busyTimeoutMilliseconds: Int?
    /// `--follow`/`-f`: after the usual paint, stay and show each change (see `FollowLoop`).
    var follow = false
    /// `--expand`: the text behind content warnings is shown, not folded.
    var expand = false
    /// `--format TEMPLATE`: one line per message from the template (see `MessageTemplate`).
    var format: String?

    /// `--mark-read`: what was shown is marked read once it is on the screen.
    var markRead = false
    /// `--unread`, `--author HANDLE`, `--before ID`: a filtered page of the database.
    var filter = TimelineFilter()
    /// `--notifications`: the stored notifications instead of the timeline (`NotificationsOutput`).
    var notifications = false
    /// `--only KINDS` (with `--notifications`): only notifications of those kinds, as
    /// `NotificationKindSelection` reads the list.
    var notificationKinds: String?
    /// `--requests` (with `--notifications`): the notifications the servers' filters hold back,
    /// asked of the servers (`NotificationsOutput.printRequests`).
    var notificationRequests = false
    /// `--sync-if-older AGE` (the shell hook's): start `timeline sync` in the background when the
    /// last successful sync is older than AGE and an account exists (`BackgroundSyncStart`).
    var syncIfOlder: String?

    /// The parsed `format`, when there is one and it parses.
    var template: MessageTemplate? { format.flatMap { try? MessageTemplate($0) } }

    /// How long a locked database is waited for, in milliseconds (`BusyTimeout.show`).
    var busyTimeout: Int { BusyTimeout.show(busyTimeoutMilliseconds) }

    /// `show`'s options and flags as `ShowCommand` declares them for ArgumentParser (`--db` from
    /// `LocationOptions`, `--color` and `--width` from `OutputOptions`).
    static let flagTable = LaunchArguments.Table("""
        --db <value>
        --limit -n <value>
        --json
        --color <value>
        --width <value>
        --no-reconcile
        --from-db
        --busy-timeout <value>
        --follow -f
        --expand
        --format <value>
        --mark-read
        --unread
        --author <value>
        --before <value>
        --notifications
        --only <value>
        --requests
        --sync-if-older <value>
        """)

    /// Reads `[show] [flags]` by hand; `nil` when ArgumentParser should read them: anything
    /// unusual, every invalid value or combination (ArgumentParser explains those), and
    /// `--notifications`, which is not the launch path.
    static func parse(_ arguments: ArraySlice<String>) -> ShowRequest? {
        var rest = arguments
        if rest.first == "show" { rest = rest.dropFirst() }
        // The launch of every day (the shell hook's `timeline show`): nothing to read.
        if rest.isEmpty { return ShowRequest() }
        guard var given = LaunchArguments(rest, table: flagTable),
              case let .some(limit) = given.value("--limit", as: { Int($0) }),
              case let .some(width) = given.value("--width", as: { Int($0) }),
              case let .some(color) = given.value("--color", as: ColorChoice.init(rawValue:)),
              case let .some(busyTimeout) = given.value("--busy-timeout", as: { Int($0) })
        else { return nil }
        let request = ShowRequest(
            databasePath: given.value("--db"), limit: limit, json: given.flag("--json"),
            style: OutputOptions.Style(color: color ?? .auto, width: width),
            reconcile: !given.flag("--no-reconcile"), fromDatabase: given.flag("--from-db"), busyTimeoutMilliseconds: busyTimeout,
            follow: given.flag("--follow"), expand: given.flag("--expand"), format: given.value("--format"),
            markRead: given.flag("--mark-read"),
            filter: TimelineFilter(unreadOnly: given.flag("--unread"), authorHandle: given.value("--author"), beforeID: given.value("--before")),
            notifications: given.flag("--notifications"), notificationKinds: given.value("--only"),
            notificationRequests: given.flag("--requests"), syncIfOlder: given.value("--sync-if-older"))
        guard given.isEmpty, !request.notifications, request.notificationKinds == nil, !request.notificationRequests, (try? request.validate()) != nil else { return nil }
        return request
    }

    /// `parse(_:)` of a whole array (tests).
    static func parse(_ arguments: [String]) -> ShowRequest? {
        parse(arguments[...])
    }

    /// Refuses what cannot be done, for ArgumentParser to report (`ShowCommand.validate`); the
    /// hand reader steps aside for the same.
    func validate() throws(ValidationError) {
        if notifications && (follow || !reconcile || fromDatabase) {
            throw ValidationError("--notifications lists what `timeline sync` stored; it cannot be combined with --follow, --no-reconcile or --from-db.")
        }
        if let notificationKinds {
            guard notifications else { throw ValidationError("--only chooses kinds of notification; use it with --notifications.") }
            do {
                _ = try NotificationKindSelection(parsing: notificationKinds)
            } catch {
                throw ValidationError("--only: \(error)")
            }
        }
        if notificationRequests {
            guard notifications else { throw ValidationError("--requests lists the notifications your servers' filters hold back; use it with --notifications.") }
            if notificationKinds != nil { throw ValidationError("--requests lists accounts whose notifications are held back; it cannot be combined with --only.") }
        }
        if follow && !reconcile { throw ValidationError("--follow needs the database; it cannot be used with --no-reconcile.") }
        if markRead && (follow || !reconcile || notifications) {
            throw ValidationError("--mark-read marks what one show printed; it cannot be combined with --follow, --no-reconcile or --notifications.")
        }
        if !filter.isEmpty {
            if follow || !reconcile || fromDatabase || notifications {
                throw ValidationError("--unread, --author and --before show a page of the database; they cannot be combined with --follow, --no-reconcile, --from-db or --notifications.")
            }
            if let author = filter.authorHandle, author.isEmpty || author == "@" { throw ValidationError("--author needs a handle, e.g. --author alice.") }
            if let before = filter.beforeID, before.isEmpty { throw ValidationError("--before needs a message ID.") }
        }
        if let syncIfOlder {
            guard AgeLimit(syncIfOlder) != nil else {
                throw ValidationError("--sync-if-older: '\(syncIfOlder)' is not a duration; give \(AgeLimit.usage).")
            }
            if follow || notifications {
                throw ValidationError("--sync-if-older starts a sync for the shell hook's show; --follow keeps your accounts live itself, and --notifications cannot be combined with it.")
            }
        }
        try MessageTemplate.validate(format, json: json)
        if let limit, limit < 1 { throw ValidationError("-n/--limit must be at least 1, not \(limit).") }
        if let width = style.width, width < 1 { throw ValidationError("--width must be at least 1, not \(width).") }
        if let busyTimeoutMilliseconds, busyTimeoutMilliseconds < 0 { throw ValidationError("--busy-timeout cannot be negative.") }
    }
}
