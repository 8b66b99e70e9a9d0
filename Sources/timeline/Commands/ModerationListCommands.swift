import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

/// What `muted` and `blocked` share: the lists as each account's server keeps them
/// (``AccountSession/moderationLists(_:limit:in:)``), one account or all.
struct ModerationListArguments: ParsableArguments {
    @OptionGroup var location: LocationOptions

    @Option(name: .long, help: ArgumentHelp("The account whose lists to print (its name in `timeline accounts`).", valueName: "name"))
    var account: String?

    @Option(name: [.customShort("n", allowingJoined: true), .customLong("limit")], help: "At most this many accounts a list per account (default 1000).")
    var limit = ModerationLists.defaultLimit

    @Flag(name: .long, help: "Print one JSON object a line: {\"kind\": \"account\", \"handle\", \"name\", \"id\", \"until\", \"account\"} or {\"kind\": \"word\", \"word\", \"until\", \"account\"}.")
    var json = false

    func validate() throws {
        if limit < 1 { throw ValidationError("-n/--limit must be at least 1, not \(limit).") }
    }

    /// Prints each account's list: the accounts `pick` chooses, and the muted words with `words`.
    func run(verb: String, words: Bool, _ pick: (ModerationLists) -> [ModeratedAccount]) throws {
        var sessions = try FollowAccountArguments.sessions(doing: verb)
        if let account { sessions = [try ModerationTarget.session(named: account, among: sessions)] }
        let store = try location.openStore(create: true)
        var text = ""
        for session in sessions {
            let lists: ModerationLists
            do {
                lists = try waitFor { [limit] () async throws -> ModerationLists in
                    try await session.moderationLists(words ? [.muted, .words] : [.blocked], limit: limit, in: store)
                }
            } catch {
                Terminal.emit(text)
                Terminal.emitError("timeline: \(TerminalText.line(session.account.name)): the accounts it \(verb) could not be fetched: \(error)\n")
                throw ExitCode(exitStatus(for: error))
            }
            let accounts = pick(lists)
            if json {
                for entry in accounts {
                    var object = JSONObjectWriter()
                    object.add("kind", "account")
                    object.add("handle", entry.user.handle)
                    object.add("name", entry.user.name)
                    object.add("id", entry.storedUserID)
                    object.add("until", entry.until.map { $0.formatted(.iso8601) })
                    object.add("account", session.account.name)
                    text += object.finish() + "\n"
                }
                for word in lists.mutedWords where words {
                    var object = JSONObjectWriter()
                    object.add("kind", "word")
                    object.add("word", word.value)
                    object.add("until", word.expiresAt.map { $0.formatted(.iso8601) })
                    object.add("account", session.account.name)
                    text += object.finish() + "\n"
                }
                continue
            }
            if sessions.count > 1 { text += (text.isEmpty ? "" : "\n") + "\(TerminalText.line(session.account.name)):\n" }
            if accounts.isEmpty { text += "No account is \(verb) by \(TerminalText.line(session.account.name)).\n" }
            for entry in accounts {
                text += "@" + TerminalText.line(entry.user.handle) + (entry.user.name.isEmpty ? "" : "  " + TerminalText.line(entry.user.name))
                    + (entry.until.map { "  (until \(ModerationReport.time($0)))" } ?? "") + "\n"
            }
            if lists.truncated { text += "(the first \(Counted(limit, "account")); -n says how many)\n" }
            if words {
                text += lists.mutedWords.isEmpty ? "No word is muted.\n" : "Muted words:\n"
                for word in lists.mutedWords {
                    text += "  " + TerminalText.line(word.value) + (word.expiresAt.map { "  (until \(ModerationReport.time($0)))" } ?? "") + "\n"
                }
            }
        }
        Terminal.emit(text)
    }
}

/// `timeline muted`: the accounts and words muted, as each server lists them.
struct MutedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "muted", abstract: "List the accounts and words you muted, from your server.",
        discussion: """
            Lists, as each logged-in account's server keeps them, the accounts it muted (newest \
            first, with the mute's end where it has one) and the words it muted (Mastodon: the \
            keywords of your filters that hide; Bluesky: your muted words). --account NAME lists \
            one account's. Nothing is stored.

            Examples:
              timeline muted
              timeline muted --account work --json | jq -r .handle
            """)
    @OptionGroup var arguments: ModerationListArguments
    func run() throws { try arguments.run(verb: "muted", words: true) { $0.muted } }
}

/// `timeline blocked`: the accounts blocked, as each server lists them.
struct BlockedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "blocked", abstract: "List the accounts you blocked, from your server.",
        discussion: """
            Lists, as each logged-in account's server keeps them, the accounts it blocked, newest \
            first. --account NAME lists one account's. Nothing is stored.

            Examples:
              timeline blocked
              timeline blocked --json
            """)
    @OptionGroup var arguments: ModerationListArguments
    func run() throws { try arguments.run(verb: "blocked", words: false) { $0.blocked } }
}

/// `timeline report`: a post and its author reported to the server's moderators, at once.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Report a post to its server's moderators.",
        discussion: """
            Reports the post (and its author) to the moderators of the server it came from \
            (Mastodon: a report with the post; Bluesky: a report of the post to Bluesky's \
            moderation). The post is named by its short reference, stored ID, the server's ID or \
            its web address; a boost is reported through the post it boosts. --reason is spam, \
            violation (it breaks the server's rules) or other (the default); --comment says more \
            (at most 1,000 characters).

            A report is sent at once or not at all: it needs the server. When the server cannot \
            be reached, the command says so, keeps nothing and exits 69: report it again when \
            you are online. (A report kept to be sent later could go out after you changed your \
            mind, with nothing on the screen to show it waits.)

            Examples:
              timeline report bkd --reason spam
              timeline report bkd --reason other --comment "Harassing replies here"
            """)

    @OptionGroup var location: LocationOptions

    @Argument(help: "The post: its short reference (as `show` paints it), stored ID, the server's ID or the post's web address.")
    var reference: String

    @Option(name: .long, help: ArgumentHelp("Why: spam, violation or other (default other).", valueName: "reason"))
    var reason: String = "other"

    @Option(name: .long, help: ArgumentHelp("What the moderators should know (at most 1,000 characters).", valueName: "text"))
    var comment: String?

    @Option(name: .long, help: ArgumentHelp("The account that reports (its name in `timeline accounts`); by default the one whose server the post came from.", valueName: "name"))
    var account: String?

    @Flag(name: .long, help: "Print one JSON object: {\"action\": \"report\", \"id\", \"handle\", \"reason\", \"report_id\", \"account\"}.")
    var json = false

    func validate() throws {
        guard ReportReason(rawValue: reason) != nil else {
            throw ValidationError("--reason \(QuotedValue.quoted(reason)) is not one of spam, violation, other.")
        }
        if let comment, comment.count > 1_000 { throw ValidationError("--comment is \(comment.count) characters long; a report's comment is at most 1,000.") }
    }

    func run() throws {
        let chosen = ReportReason(rawValue: reason) ?? .other
        let targets = try location.storesHolding([reference], verb: "report")
        guard let (store, id) = targets.first else { return }
        let policy = RequestPolicy(maximumAttempts: 2, initialBackoff: .milliseconds(500), requestTimeout: .seconds(20))
        let session = try MessageSessions.open(account: account, verb: "report", policy: policy).session(for: id, named: reference)
        let outcome: ReportOutcome
        do {
            outcome = try waitFor { [comment] () async throws -> ReportOutcome in
                try await session.report(id, reason: chosen, comment: comment, in: store)
            }
        } catch {
            Terminal.emitError("timeline: \(TerminalText.line(session.account.name)): \(Self.notSent(reference, error: error))\n")
            throw ExitCode(PendingActionFailure(error) == .unreachable ? ExitStatus.unavailable : exitStatus(for: error))
        }
        if json {
            var object = JSONObjectWriter()
            object.add("action", "report")
            object.add("id", outcome.messageID)
            object.add("handle", outcome.author.handle)
            object.add("reason", chosen.rawValue)
            object.add("report_id", outcome.reportID)
            object.add("account", session.account.name)
            Terminal.emit(object.finish() + "\n")
            return
        }
        Terminal.emit("Reported \(MessageSessions.name(of: outcome.messageID, in: store)) (\(chosen.rawValue)) to the moderators of \(TerminalText.line(session.account.name))'s server.\n")
    }

    /// Why the report of `reference` was not sent, in a sentence: a server that could not be
    /// reached is said as such, since nothing is kept (`report` and `browse`'s `R` alike).
    static func notSent(_ reference: String, error: any Error) -> String {
        if PendingActionFailure(error) == .unreachable {
            return "the report of \(QuotedValue.quoted(reference)) was not sent: a report needs the server, and it could not be reached (\(error)). Nothing was kept: report it again when you are online."
        }
        return "could not report \(QuotedValue.quoted(reference)): \(error)"
    }
}
