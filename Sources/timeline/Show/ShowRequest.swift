import TimelineKit

/// What `timeline show` was asked to do.
///
/// `show` runs at every terminal start, so its flags are parsed here by hand: ArgumentParser's
/// reflection costs about 2 ms a launch. Anything this parser does not recognise (`--help`, a typo,
/// a missing value) makes it step aside, and ArgumentParser parses the same arguments for its
/// proper help and error messages (`ShowCommand` declares the same flags). A test holds the two
/// parsers to the same results.
struct ShowRequest: Sendable, Equatable {
    var databasePath: String?
    var limit: Int?
    var json = false
    var color = ColorChoice.auto
    var width: Int?
    var reconcile = true
    var fromDatabase = false
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

    /// The parsed `format`, when there is one and it parses.
    var template: MessageTemplate? { format.flatMap { try? MessageTemplate($0) } }

    /// How long `show` waits for a locked database unless told otherwise: short enough that a
    /// shell start never feels it.
    static let defaultBusyTimeoutMilliseconds = 100

    /// Parses `[show] [flags]`; `nil` when ArgumentParser should take over.
    static func parse(_ arguments: some Collection<String>) -> ShowRequest? {
        var request = ShowRequest()
        var rest = arguments[...]
        if rest.first == "show" { rest = rest.dropFirst() }
        while let argument = rest.popFirst() {
            // `--name=value` and `--name value` are the same; `-n5` and `-n 5` too.
            var name = argument
            var attached: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                attached = String(argument[argument.index(after: equals)...])
            } else if argument.hasPrefix("-n"), argument.count > 2, !argument.hasPrefix("--") {
                name = "-n"
                attached = String(argument.dropFirst(2))
            }
            func value() -> String? { attached ?? rest.popFirst() }
            func positiveNumber() -> Int? { value().flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } }

            switch name {
            case "-n", "--limit":
                guard let limit = positiveNumber() else { return nil }
                request.limit = limit
            case "--width":
                guard let width = positiveNumber() else { return nil }
                request.width = width
            case "--busy-timeout":
                guard let text = value(), let timeout = Int(text), timeout >= 0 else { return nil }
                request.busyTimeoutMilliseconds = timeout
            case "--color":
                guard let choice = value().flatMap(ColorChoice.init(rawValue:)) else { return nil }
                request.color = choice
            case "--db":
                guard let path = value(), !path.isEmpty, !path.hasPrefix("-") || attached != nil else { return nil }
                request.databasePath = path
            case "--json" where attached == nil:
                request.json = true
            case "--no-reconcile" where attached == nil:
                request.reconcile = false
            case "--from-db" where attached == nil:
                request.fromDatabase = true
            case "-f":
                request.follow = true
            case "--follow" where attached == nil:
                request.follow = true
            case "--expand" where attached == nil:
                request.expand = true
            case "--mark-read" where attached == nil:
                request.markRead = true
            case "--unread" where attached == nil:
                request.filter.unreadOnly = true
            case "--author":
                guard let handle = value(), !handle.isEmpty, handle != "@", !handle.hasPrefix("-") || attached != nil else { return nil }
                request.filter.authorHandle = handle
            case "--before":
                guard let id = value(), !id.isEmpty, !id.hasPrefix("-") || attached != nil else { return nil }
                request.filter.beforeID = id
            case "--format":
                // A template that does not parse is ArgumentParser's to explain.
                guard let template = value(), (try? MessageTemplate(template)) != nil else { return nil }
                request.format = template
            default:
                return nil
            }
        }
        // Following needs the database; ArgumentParser says why the two do not go together.
        if request.follow && !request.reconcile { return nil }
        if request.json && request.format != nil { return nil }
        if request.markRead && (request.follow || !request.reconcile) { return nil }
        // A filtered page comes from the database: ArgumentParser says what does not go with it.
        if !request.filter.isEmpty && (request.follow || !request.reconcile || request.fromDatabase) { return nil }
        return request
    }
}
