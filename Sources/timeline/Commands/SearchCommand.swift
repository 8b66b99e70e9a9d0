import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find messages by their words, newest first.",
        discussion: """
            Words are all required, in any order; case and accents do not matter (cafe finds \
            café). "exact phrase" keeps words together (quote the quotes for the shell: \
            '"good morning"'); cats OR dogs takes either; -word excludes (after --, so that it \
            is not read as a flag); sun* is a prefix; #tag and @handle find hashtags and \
            mentions. Chinese, Japanese, Korean and Thai text is found anywhere inside longer \
            text: 天気 finds 今日は天気がいい.

            Everything after -- is the query, by design: `timeline search swift -- -kotlin -n 2` \
            searches for "swift -kotlin -n 2" (swift and 2, without kotlin or n), not for two \
            messages. Put flags before the --: `timeline search -n 2 swift -- -kotlin`.

            On a terminal the matches are shown in reverse video (not with NO_COLOR, TERM=dumb \
            or --color never). Exit status 0 when something matched, 2 when nothing did, 64 for \
            a query that cannot be read.

            Examples:
              timeline search coffee
              timeline search '"release notes"' --author mika -n 5
              timeline search 今日 --unread --json | jq -r .text
              timeline search -n 5 swift -- -kotlin
            """)

    @OptionGroup var location: LocationOptions

    @Argument(help: "What to look for (several arguments are joined with spaces; after --, flags are words of the query).")
    var query: [String]

    @Option(name: [.customShort("n", allowingJoined: true), .customLong("limit")], help: "At most this many messages.")
    var limit = 20

    @Flag(name: .long, help: "Print JSON Lines, as `show --json` does.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("One line per message from a template, as `show --format` does.", valueName: "template"))
    var format: String?

    @Option(name: .long, help: ArgumentHelp("Only messages by the user with this handle (with or without @).", valueName: "handle"))
    var author: String?

    @Flag(name: .long, help: "Only unread messages.")
    var unread = false

    @Option(name: .long, help: "Colour: auto, always or never.")
    var color: ColorChoice = .auto

    @Option(name: .long, help: "Wrap to this many columns (default: the terminal's width, else 80).")
    var width: Int?

    /// Nothing matched: not a failure, but scripts want to tell (grep's 1 is taken here by
    /// "failure").
    static let noMatchStatus: Int32 = 2

    var request: Request {
        Request(db: location.db, query: query, limit: limit, json: json, format: format, author: author, unread: unread, color: color, width: width)
    }

    func validate() throws { try request.validate() }

    func run() throws { try request.run() }

    /// What `search` was asked, read by ArgumentParser or by hand (`QuickCommand`).
    struct Request: QuickRequest {
        var db: String?
        var query: [String]
        var limit = 20
        var json = false
        var format: String?
        var author: String?
        var unread = false
        var color = ColorChoice.auto
        var width: Int?

        static let options: Set<String> = ["--limit", "--format", "--author", "--color", "--width"]
        static let flags: Set<String> = ["--json", "--unread"]
        static let shortOptions = ["-n": "--limit"]

        init(db: String?, query: [String], limit: Int, json: Bool, format: String?, author: String?, unread: Bool, color: ColorChoice, width: Int?) {
            (self.db, self.query, self.limit, self.json, self.format) = (db, query, limit, json, format)
            (self.author, self.unread, self.color, self.width) = (author, unread, color, width)
        }

        init?(_ arguments: PlainArguments) {
            guard !arguments.positionals.isEmpty, case let .some(limit) = arguments.value("--limit", as: { Int($0) }),
                  case let .some(width) = arguments.value("--width", as: { Int($0) }),
                  case let .some(color) = arguments.value("--color", as: ColorChoice.init(rawValue:))
            else { return nil }
            self.init(db: arguments.value("--db"), query: arguments.positionals, limit: limit ?? 20, json: arguments.flag("--json"),
                      format: arguments.value("--format"), author: arguments.value("--author"), unread: arguments.flag("--unread"),
                      color: color ?? .auto, width: width)
            if (try? validate()) == nil { return nil }
        }

        /// Refuses what cannot be done, for ArgumentParser to report.
        func validate() throws(ValidationError) {
            if limit < 1 { throw ValidationError("-n/--limit must be at least 1, not \(limit).") }
            if let width, width < 1 { throw ValidationError("--width must be at least 1, not \(width).") }
            if let author, author.isEmpty || author == "@" { throw ValidationError("--author needs a handle, e.g. --author alice.") }
            try MessageTemplate.validate(format, json: json)
        }

        func run() throws(ExitCode) {
            // Parsed before the database is opened: a bad query is a usage error either way.
            let parsed: SearchQuery
            do throws(SearchQueryError) {
                parsed = try SearchQuery(query.joined(separator: " "))
            } catch {
                throw fail(TimelineStoreError.invalidSearch(error))
            }
            let store = try LocationOptions.openStore(db: db, create: false)
            let found = try reportingErrors { try store.search(parsed, limit: limit, author: author, unreadOnly: unread) }
            if found.isEmpty {
                var note = "timeline: no messages match \(TerminalText.line(parsed.text))"
                if let author {
                    let handle = author.hasPrefix("@") ? String(author.dropFirst()) : author
                    let known = try reportingErrors { try store.users(handle: handle) }
                    if known.isEmpty { note += "; no user has the handle @\(TerminalText.line(handle))" }
                }
                Terminal.emitError(note + "\n")
                throw ExitCode(SearchCommand.noMatchStatus)
            }
            if json {
                Terminal.emit(JSONLinesShowOutput.lines(for: found.page))
                return
            }
            if let template = format.flatMap({ try? MessageTemplate($0) }) {
                Terminal.emit(template.text(for: found.page))
                return
            }
            let onTerminal = Terminal.standardOutputIsTerminal
            let window = onTerminal ? Terminal.windowSize() : nil
            let renderer = TimelineRenderer(options: RenderOptions(
                width: width ?? window?.columns ?? 80, color: color.usesColor(onTerminal: onTerminal), symbols: Terminal.symbols))
            Terminal.emit(TimelineRenderer.text(of: renderer.render(found.page, now: Date(), highlighting: parsed)))
        }
    }
}
