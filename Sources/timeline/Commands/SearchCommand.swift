import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

struct SearchCommand: WordListCommand {
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

    @OptionGroup var output: OutputOptions

    /// Nothing matched: not a failure, but scripts want to tell (grep's 1 is taken here by
    /// "failure").
    static let noMatchStatus: Int32 = 2

    func validate() throws {
        if limit < 1 { throw ValidationError("-n/--limit must be at least 1, not \(limit).") }
        if let width = output.width, width < 1 { throw ValidationError("--width must be at least 1, not \(width).") }
        if let author, author.isEmpty || author == "@" { throw ValidationError("--author needs a handle, e.g. --author alice.") }
        try MessageTemplate.validate(format, json: json)
    }

    func run() throws {
        // Parsed before the database is opened: a bad query is a usage error either way.
        let parsed: SearchQuery
        do throws(SearchQueryError) {
            parsed = try SearchQuery(query.joined(separator: " "))
        } catch {
            throw fail(TimelineStoreError.invalidSearch(error))
        }
        let store = try location.openStore(create: false)
        let found = try reportingErrors { try store.search(parsed, limit: limit, author: author, unreadOnly: unread) }
        if found.isEmpty {
            var note = "timeline: no messages match \(QuotedValue.quoted(parsed.text))"
            if let author {
                let handle = author.hasPrefix("@") ? String(author.dropFirst()) : author
                let known = try reportingErrors { try store.users(handle: handle) }
                if known.isEmpty { note += "; no user has the handle \(QuotedValue.quoted("@" + handle))" }
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
        let renderer = output.style.renderer(columns: output.style.columns(window: window), onTerminal: onTerminal)
        Terminal.emit(TimelineRenderer.text(of: renderer.render(found.page, now: Date(), highlighting: parsed)))
    }
}

extension SearchCommand {
    var words: [String] {
        get { query }
        set { query = newValue }
    }
}
