import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

/// `timeline scheduled` and `timeline unschedule` (issue 36): the posts the account's server is
/// to publish later (`post --at`, `post --in`), listed and cancelled there. Nothing is stored:
/// a scheduled post is not a message until its server publishes it, and a sync brings it then.
struct ScheduledCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scheduled",
        abstract: "List the posts your server is to publish later (post --at, post --in).",
        discussion: """
            Asks each account's server that keeps scheduled posts (Mastodon) for them, soonest \
            first: each one's ID (for `timeline unschedule`), when it is to be published, and \
            the start of its text. --account NAME asks one. Bluesky has no scheduled posts: a \
            Bluesky account is refused with a message saying so. --json prints one JSON object \
            per post: {"id", "account", "scheduled_at", "text"}.

            Examples:
              timeline scheduled
              timeline scheduled --account work --json
            """)

    @OptionGroup var location: LocationOptions

    @Option(name: .long, help: ArgumentHelp("The account whose scheduled posts to list (its name in `timeline accounts`).", valueName: "name"))
    var account: String?

    @Option(name: [.customShort("n", allowingJoined: true), .customLong("limit")], help: "At most this many per account (default 40, at most 300).")
    var limit = 40

    @Flag(name: .long, help: "Print one JSON object per scheduled post: {\"id\", \"account\", \"scheduled_at\", \"text\"}.")
    var json = false

    func validate() throws {
        if limit < 1 { throw ValidationError("-n/--limit must be at least 1, not \(limit).") }
    }

    func run() throws {
        let accountStore = try reportingErrors { try AccountStore.standard() }
        let chosen = try Self.accounts(account, in: accountStore, all: true)
        let store = try location.openStore(create: true)
        let transport = CurlTransport()
        for (index, account) in chosen.enumerated() {
            let posts: [ScheduledPost]
            do {
                let session = try accountStore.session(for: account, transport: transport)
                posts = try waitFor { [limit] () async throws -> [ScheduledPost] in try await session.scheduledPosts(limit: limit, in: store) }
            } catch {
                Terminal.emitError("timeline: \(TerminalText.line(account.name)): the scheduled posts could not be read: \(error)\n")
                throw ExitCode(exitStatus(for: error))
            }
            if json {
                for post in posts {
                    var object = JSONObjectWriter()
                    object.add("id", post.id)
                    object.add("account", account.name)
                    object.add("scheduled_at", post.scheduledAt.formatted(.iso8601))
                    object.add("text", post.text)
                    Terminal.emit(object.finish() + "\n")
                }
                continue
            }
            var text = chosen.count > 1 ? (index > 0 ? "\n" : "") + "\(TerminalText.line(account.name)):\n" : ""
            if posts.isEmpty { text += "No scheduled posts at \(TerminalText.line(account.server)).\n" }
            for post in posts {
                let words = TerminalText.line(post.text).split(separator: " ")
                let shown = words.prefix(10).joined(separator: " ") + (words.count > 10 ? "…" : "")
                let poll = post.pollOptions > 0 ? " [poll of \(post.pollOptions)]" : ""
                text += "\(TerminalText.line(post.id))  \(post.scheduledAt.formatted(.iso8601))  \(shown)\(poll)\n"
            }
            Terminal.emit(text)
        }
    }

    /// The accounts to ask: `name`'s (refused when its network has no scheduled posts), else
    /// every account that has them (`all`) or the one that does (refused when several do).
    static func accounts(_ name: String?, in accountStore: AccountStore, all: Bool) throws(ExitCode) -> [Account] {
        if let name {
            let named = try reportingErrors { try accountStore.account(named: name) }
            if let refusal = named.network.refusal(of: .schedule) { throw fail(refusal) }
            return [named]
        }
        let accounts = try reportingErrors { try accountStore.hasAccountsFile ? accountStore.accounts() : [] }
        let able = accounts.filter { $0.network.refusal(of: .schedule) == nil }
        if able.isEmpty {
            if let refusal = accounts.first?.network.refusal(of: .schedule) { throw fail(refusal) }
            Terminal.emitError("timeline: scheduled posts are kept at your server, and no account is logged in: \(Account.Network.loginHint(for: .schedule))\n")
            throw ExitCode(ExitStatus.usage)
        }
        if !all, able.count > 1 {
            let names = able.map { TerminalText.line($0.name) }.joined(separator: ", ")
            throw fail(ValidationError("several accounts keep scheduled posts (\(names)): say which with --account NAME."))
        }
        return able
    }
}

/// `timeline unschedule ID`: cancels a scheduled post at its server.
struct UnscheduleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unschedule",
        abstract: "Cancel a post your server was to publish later.",
        discussion: """
            ID is the scheduled post's as `timeline scheduled` lists it (and `post --at` said). \
            The server forgets it and will not publish it; nothing else changes. With several \
            accounts that keep scheduled posts, --account says whose it is.

            Examples:
              timeline unschedule 109876543210
              timeline unschedule 109876543210 --account work
            """)

    @OptionGroup var location: LocationOptions

    @Option(name: .long, help: ArgumentHelp("The account whose scheduled post it is (its name in `timeline accounts`).", valueName: "name"))
    var account: String?

    @Argument(help: ArgumentHelp("The scheduled post's ID, as `timeline scheduled` lists it.", valueName: "id"))
    var id: String

    func run() throws {
        guard !id.isEmpty, id.utf8.count <= 64, id.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0" ... "9").contains($0) || $0 == "-" || $0 == "_" }) else {
            throw fail(ValidationError("\(QuotedValue.quoted(id)) is not a scheduled post's ID: give one as `timeline scheduled` lists it."))
        }
        let accountStore = try reportingErrors { try AccountStore.standard() }
        let target = try ScheduledCommand.accounts(account, in: accountStore, all: false)[0]
        let store = try location.openStore(create: true)
        do {
            let session = try accountStore.session(for: target, transport: CurlTransport())
            try waitFor { () async throws in try await session.unschedule(id, in: store) }
        } catch {
            Terminal.emitError("timeline: \(TerminalText.line(target.name)): the scheduled post \(TerminalText.line(id)) could not be cancelled: \(error)\n")
            throw ExitCode(exitStatus(for: error))
        }
        Terminal.emit("Cancelled the scheduled post \(TerminalText.line(id)) at \(TerminalText.line(target.server)).\n")
    }
}
