import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

/// `timeline bookmarks`: the account's bookmarks, fetched from its server (Mastodon's
/// `GET /api/v1/bookmarks`), stored and shown as `show` shows messages.
struct BookmarksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bookmarks",
        abstract: "List your bookmarks, fetched from your server (Mastodon).",
        discussion: """
            Fetches the account's bookmarks from its server, newest bookmark first, stores them \
            (each marked 🔖 bookmarked), and shows them as `show` does. With several accounts \
            that keep bookmarks, each one's are listed in turn; --account NAME lists one. Bluesky \
            keeps no bookmarks another app can read: a Bluesky account is refused with a message \
            saying so. --json prints the stored IDs, one JSON object per line: {"id", "account"}.

            Examples:
              timeline bookmarks
              timeline bookmarks --account work -n 100 --json
            """)

    @OptionGroup var location: LocationOptions

    @Option(name: .long, help: ArgumentHelp("The account whose bookmarks to list (its name in `timeline accounts`).", valueName: "name"))
    var account: String?

    @Option(name: [.customShort("n", allowingJoined: true), .customLong("limit")], help: "At most this many bookmarks per account (default 40).")
    var limit = 40

    @Flag(name: .long, help: "Print one JSON object per bookmark: {\"id\", \"account\"}.")
    var json = false

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if limit < 1 { throw ValidationError("-n/--limit must be at least 1, not \(limit).") }
        if let width = output.width, width < 20 { throw ValidationError("--width must be at least 20, not \(width).") }
    }

    func run() throws {
        let accountStore = try reportingErrors { try AccountStore.standard() }
        let accounts = try reportingErrors { try accountStore.hasAccountsFile ? accountStore.accounts() : [] }
        let chosen: [Account]
        if let account {
            let named = try reportingErrors { try accountStore.account(named: account) }
            if let refusal = named.network.refusal(of: .bookmark) { throw fail(refusal) }
            chosen = [named]
        } else {
            chosen = accounts.filter { $0.network.refusal(of: .bookmark) == nil }
            if chosen.isEmpty {
                if let refusal = accounts.first?.network.refusal(of: .bookmark) {
                    Terminal.emitError("timeline: \(refusal)\n")
                } else {
                    Terminal.emitError("timeline: bookmarks are kept at your server, and no account is logged in: \(Account.Network.loginHint(for: .bookmark))\n")
                }
                throw ExitCode(ExitStatus.usage)
            }
        }
        let store = try location.openStore(create: true)
        let transport = CurlTransport()
        var listed: [(account: Account, ids: [String])] = []
        for account in chosen {
            do {
                let session = try accountStore.session(for: account, transport: transport)
                let ids = try waitFor { [limit] () async throws -> [String] in try await session.bookmarks(limit: limit, in: store) }
                listed.append((account, ids))
            } catch {
                Terminal.emitError("timeline: \(TerminalText.line(account.name)): the bookmarks could not be fetched: \(error)\n")
                throw ExitCode(exitStatus(for: error))
            }
        }
        if json {
            for (account, ids) in listed {
                for id in ids {
                    var object = JSONObjectWriter()
                    object.add("id", id)
                    object.add("account", account.name)
                    Terminal.emit(object.finish() + "\n")
                }
            }
            return
        }
        let onTerminal = Terminal.standardOutputIsTerminal
        let window = onTerminal ? Terminal.windowSize() : nil
        let renderer = output.style.renderer(columns: max(20, output.style.columns(window: window)), onTerminal: onTerminal)
        var text = ""
        for (account, ids) in listed {
            if listed.count > 1 { text += (text.isEmpty ? "" : "\n") + "\(TerminalText.line(account.name)):\n\n" }
            if ids.isEmpty {
                text += "No bookmarks at \(TerminalText.line(account.server)).\n"
                continue
            }
            // In the order of the bookmarks, not of the posts.
            let page = try reportingErrors { try store.page(of: ids) }
            let order = Dictionary(ids.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            var sorted = page
            sorted.messages.sort { (order[$0.id] ?? .max) < (order[$1.id] ?? .max) }
            text += renderer.renderText(sorted, now: Date())
        }
        Terminal.emit(text)
    }
}
