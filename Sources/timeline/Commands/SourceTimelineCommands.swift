import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

// `tag`, `list` and `lists` (issue 27): a hashtag's or a list's timeline, fetched from the
// server through ``AccountSession/fetchTimeline(_:limit:in:)`` and kept in a database of its
// own beside the main one (`timeline.tag-rust.sqlite`), so that `show` never mixes it into the
// home timeline and pays nothing for it; the command shows it from there.

/// What `tag` and `list` share: where the source's database is, the fetch, the paint.
struct SourceTimelineRequest {
    var location: LocationOptions
    var source: TimelineSource
    /// The sessions to fetch with (empty: none logged in).
    var sessions: [any AccountSession]
    /// Said in lines: `#rust`, `the list 42`.
    var name: String
    /// What its painted references start with (``SourceReference``): `rust`, `list-42`.
    var label: String
    /// The database it is kept in, beside the main one.
    var databaseName: SourceDatabaseName
    /// The database's path when it was found already (`feed NAME --offline`, by its name's end).
    var foundPath: String?
    var limit: Int
    var offline: Bool
    var json: Bool
    /// `--color` and `--width`.
    var style: OutputOptions.Style

    /// The name the main timeline's rules are kept under in a hashtag's or a list's database.
    static let mainTimelineRules = "main timeline"

    /// The person's own rules decide in `store` (a hashtag's, a list's, a feed's, the
    /// conversations' database) as in the main timeline at `main` (issue 34): copied from it,
    /// before anything is fetched, so that what they hide there is hidden here too.
    static func takeMainTimelineRules(into store: TimelineStore, main: String) {
        if let rules = try? TimelineStore(path: main, configuration: .init(createIfMissing: false)).moderationRules() {
            _ = try? store.updateModerationRules(account: mainTimelineRules) { $0 = rules }
        }
    }

    func run() throws {
        let main = try location.location().databasePath
        // Before any request: a name the file system cannot hold is said, not met after the fetch.
        let path = try foundPath ?? reportingErrors { () throws(SourceDatabaseNameError) in try databaseName.path(beside: main) }
        let store: TimelineStore
        do {
            var configuration = TimelineStore.Configuration(createIfMissing: !offline)
            if let milliseconds = BusyTimeout.write { configuration.busyTimeout = .milliseconds(milliseconds) }
            store = try TimelineStore(path: path, configuration: configuration)
        } catch {
            if offline, case TimelineStoreError.databaseMissing = error {
                Terminal.emitError("timeline: nothing of \(name) is stored yet: run it without --offline to fetch it.\n")
                throw ExitCode(ExitStatus.noInput)
            }
            throw fail(error)
        }
        Self.takeMainTimelineRules(into: store, main: main)
        var failure: (any Error)?
        var refusals: [String] = []
        if !offline {
            for session in sessions {
                do {
                    let ids = try waitFor { [source, limit] () async throws -> [String] in
                        try await session.fetchTimeline(source, limit: limit, in: store)
                    }
                    Terminal.emitError("timeline: fetched \(Counted(ids.count, "post")) of \(name) as \(TerminalText.line(session.account.name)).\n")
                } catch {
                    refusals.append("timeline: \(TerminalText.line(session.account.name)): \(name) could not be fetched: \(error)")
                    failure = error
                }
            }
        }
        var page = try reportingErrors { try store.timeline(limit: limit, filter: TimelineFilter()) }
        // Painted as `rust:bkd`: the reference every command takes for this post, not the main
        // timeline's `bkd`.
        for index in page.messages.indices { page.messages[index].shortReference = page.messages[index].shortReference.qualified(by: label) }
        for index in page.related.indices { page.related[index].shortReference = page.related[index].shortReference.qualified(by: label) }
        // One line per refusal, saying what is shown instead only when something is.
        for refusal in refusals {
            Terminal.emitError(refusal + (page.messages.isEmpty ? "\n" : " Showing what is stored.\n"))
        }
        if json, !page.messages.isEmpty || failure == nil {
            Terminal.emit(JSONLinesShowOutput.lines(for: page))
            return
        }
        if page.messages.isEmpty {
            // Nothing to show, and the server refused: the refusal is the answer.
            if let failure { throw ExitCode(exitStatus(for: failure)) }
            Terminal.emit("No posts of \(name) are stored.\n")
            return
        }
        let onTerminal = Terminal.standardOutputIsTerminal
        let window = onTerminal ? Terminal.windowSize() : nil
        let renderer = style.renderer(columns: max(20, style.columns(window: window)), onTerminal: onTerminal)
        Terminal.emit(renderer.renderText(page, now: Date()))
    }
}

/// The options `tag` and `list` share.
struct SourceTimelineOptions: ParsableArguments {
    @OptionGroup var location: LocationOptions

    @Option(name: .long, help: ArgumentHelp("The account to fetch with (its name in `timeline accounts`); by default every account (a tag) or the one whose network the list is of.", valueName: "name"))
    var account: String?

    @Option(name: [.customShort("n", allowingJoined: true), .customLong("limit")], help: "Fetch and show at most this many posts (default 40, at most 400).")
    var limit = 40

    @Flag(name: .long, help: "Show what is stored; fetch nothing.")
    var offline = false

    @Flag(name: .long, help: "Print JSON Lines, as `show --json` does.")
    var json = false

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if limit < 1 || limit > 400 { throw ValidationError("-n/--limit must be from 1 to 400, not \(limit).") }
        if let width = output.width, width < 20 { throw ValidationError("--width must be at least 20, not \(width).") }
    }

    /// Every logged-in account's session, or `--account`'s; none when offline and none is logged in.
    func sessions(doing verb: String) throws(ExitCode) -> [any AccountSession] {
        if offline, account == nil {
            let accountStore = try? AccountStore.standard()
            if accountStore.map({ !$0.hasAccountsFile }) ?? true { return [] }
        }
        let sessions = try FollowAccountArguments.sessions(doing: verb)
        guard let account else { return sessions }
        guard let chosen = sessions.first(where: { $0.account.name == account }) else {
            let names = sessions.map { TerminalText.line($0.account.name) }.joined(separator: ", ")
            Terminal.emitError("timeline: no account is named \(QuotedValue.quoted(account)) (logged in: \(names)).\n")
            throw ExitCode(ExitStatus.usage)
        }
        return [chosen]
    }

    func request(_ source: TimelineSource, name: String, label: String, databaseName: SourceDatabaseName, sessions: [any AccountSession]) -> SourceTimelineRequest {
        SourceTimelineRequest(location: location, source: source, sessions: sessions, name: name, label: label, databaseName: databaseName,
                              limit: limit, offline: offline, json: json, style: output.style)
    }
}

struct TagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag", abstract: "A hashtag's timeline, fetched from your servers and kept apart.",
        discussion: """
            Fetches the newest public posts with the hashtag from each logged-in account's server \
            (Mastodon: its tag timeline; Bluesky: a search for the tag, newest first), or \
            --account's, and shows them as `show` does, newest first. They are kept in a database \
            of their own beside the main one (timeline.tag-NAME.sqlite), so `show` never mixes \
            them into your home timeline; --offline shows what is kept without fetching. Their \
            references are painted with the tag in front, `rust:bkd`, and every command that \
            takes a post takes that: `timeline favourite rust:bkd`, `open`, `thread`, `vote`, \
            `post --reply-to`. A line on standard error says \
            how many posts each account fetched, or why it could not (what is kept shows anyway).

            Examples:
              timeline tag rust
              timeline tag '#swift' -n 100 --json
              timeline tag rust --offline
            """)
    @OptionGroup var options: SourceTimelineOptions

    @Argument(help: "The hashtag, with or without its #.")
    var tag: String

    func run() throws {
        guard let tag = TimelineSource.hashtag(self.tag) else {
            Terminal.emitError("timeline: \(QuotedValue.quoted(self.tag)) is not a hashtag: letters, digits and _ only (a leading # is fine). Nothing was fetched.\n")
            throw ExitCode(ExitStatus.usage)
        }
        let sessions = try options.sessions(doing: "tag")
        try options.request(.tag(tag), name: "#" + tag, label: SourceReference.tagLabel(tag), databaseName: .tag(tag), sessions: sessions).run()
    }
}

/// `timeline list ID` reads a list's timeline (`ListTimelineCommand`, the default); `list create`,
/// `add`, `remove` and `delete` change the lists themselves (`ListEditCommands.swift`).
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "A list's timeline, fetched from your server and kept apart; or make and change your lists.",
        discussion: """
            `timeline list ID` reads a list (its `read` is the default); `create`, `add`, \
            `remove` and `delete` change your lists at your server, at once.

            Examples:
              timeline list 42
              timeline list create Friends
              timeline list add 42 alice@example.social
            """,
        subcommands: [ListTimelineCommand.self, ListCreateCommand.self, ListAddCommand.self, ListRemoveCommand.self, ListDeleteCommand.self],
        defaultSubcommand: ListTimelineCommand.self)
}

struct ListTimelineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read", abstract: "A list's timeline, fetched from your server and kept apart (the default of `timeline list`).",
        discussion: """
            Fetches the newest posts of one of your lists (`timeline lists` shows their IDs): a \
            Mastodon list by its ID, a Bluesky list or feed generator by its at:// URI. The \
            account is the one whose network the ID is of; with several, --account NAME says \
            which. Kept in a database of its own beside the main one, as `timeline tag` keeps a \
            hashtag's; --offline shows what is kept. Their references are painted `list-42:bkd` \
            (the last part of the list's ID in front), which every command that takes a post \
            takes.

            Examples:
              timeline lists
              timeline list 42
              timeline list at://did:plc:abc/app.bsky.feed.generator/whats-hot
            """)
    @OptionGroup var options: SourceTimelineOptions

    @Argument(help: "The list's ID (Mastodon) or at:// URI (a Bluesky list or feed generator).")
    var id: String

    func run() throws {
        let all = try options.sessions(doing: "list")
        let able = all.filter { $0.listID(id) != nil }
        guard let session = able.first, able.count == 1 else {
            if able.isEmpty, !all.isEmpty {
                Terminal.emitError("timeline: \(QuotedValue.quoted(id)) is not the ID of a list \(options.account == nil ? "any logged-in account" : TerminalText.line(options.account ?? "")) can read: `timeline lists` shows them. Nothing was fetched.\n")
            } else if able.isEmpty {
                Terminal.emitError("timeline: lists are read at your server, and no account is logged in: \(Account.Network.loginHint(for: .lists)).\n")
            } else {
                let names = able.map { TerminalText.line($0.account.name) }.joined(separator: ", ")
                Terminal.emitError("timeline: several accounts could read the list \(QuotedValue.quoted(id)) (\(names)): say which with --account NAME.\n")
            }
            throw ExitCode(ExitStatus.usage)
        }
        let listID = session.listID(id) ?? id
        try options.request(.list(listID), name: "the list " + TerminalText.line(listID), label: SourceReference.listLabel(listID),
                            databaseName: .list(listID, account: session.account.name),
                            sessions: options.offline ? [] : [session]).run()
    }
}

/// `timeline lists`: each account's lists, with the IDs `timeline list` takes.
struct ListsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lists", abstract: "List your lists at your servers, with their IDs.",
        discussion: """
            One line per list of each logged-in account (or --account's): its ID (what \
            `timeline list` takes) and its title. --json prints {"id", "title", "account"} per list.

            Examples:
              timeline lists
              timeline lists --json | jq -r .id
            """)
    @OptionGroup var location: LocationOptions

    @Option(name: .long, help: ArgumentHelp("The account whose lists to show.", valueName: "name"))
    var account: String?

    @Flag(name: .long, help: "Print one JSON object per list: {\"id\", \"title\", \"account\"}.")
    var json = false

    func run() throws {
        var sessions = try FollowAccountArguments.sessions(doing: "lists")
        if let account {
            sessions = sessions.filter { $0.account.name == account }
            if sessions.isEmpty {
                Terminal.emitError("timeline: no account is named \(QuotedValue.quoted(account)).\n")
                throw ExitCode(ExitStatus.usage)
            }
        }
        let store = try location.openStore(create: true)
        var text = ""
        for session in sessions {
            let lists: [TimelineList]
            do {
                lists = try waitFor { () async throws -> [TimelineList] in try await session.lists(in: store) }
            } catch {
                Terminal.emit(text)
                Terminal.emitError("timeline: \(TerminalText.line(session.account.name)): its lists could not be fetched: \(error)\n")
                throw ExitCode(exitStatus(for: error))
            }
            for list in lists {
                if json {
                    var object = JSONObjectWriter()
                    object.add("id", list.id)
                    object.add("title", list.title)
                    object.add("account", session.account.name)
                    text += object.finish() + "\n"
                } else {
                    text += TerminalText.line(list.id) + "  " + TerminalText.line(list.title) + (sessions.count > 1 ? "  (" + TerminalText.line(session.account.name) + ")" : "") + "\n"
                }
            }
            if lists.isEmpty, !json { text += "No lists at \(TerminalText.line(session.account.name))'s server.\n" }
        }
        Terminal.emit(text)
    }
}
