import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

// `follow`, `unfollow` and `following` (issue 27): an account's follows at its server, through
// ``AccountSession/setFollowing(_:_:in:)`` and ``AccountSession/followedUsers(limit:in:)``. The
// handle is checked by the session of the account that will send it (its network's handle
// rules) before any request; no command names a network.

/// The arguments `follow` and `unfollow` share.
struct FollowAccountArguments: ParsableArguments {
    @OptionGroup var location: LocationOptions

    @Argument(help: "Handles: user@server.example on Mastodon (or user, on your own server), name.bsky.social or a DID on Bluesky.")
    var handles: [String] = []

    @Option(name: .long, help: ArgumentHelp("The account to act as (its name in `timeline accounts`); by default the one account whose network the handle belongs to.", valueName: "name"))
    var account: String?

    @Flag(name: .long, help: "Print one JSON object per handle: {\"action\", \"handle\", \"id\", \"name\", \"account\", \"following\", \"requested\", \"changed\"}.")
    var json = false

    func validate() throws {
        if handles.isEmpty { throw ValidationError("Give at least one handle: user@server.example, or name.bsky.social.") }
    }

    /// Follows (`following`) or unfollows each handle, one line each.
    func run(following: Bool) throws {
        let verb = following ? "follow" : "unfollow"
        let sessions = try FollowAccountArguments.sessions(doing: verb, policy: OutboxRequest.policy)
        // Every handle is checked, and its account chosen, before any request.
        var plan: [(typed: String, handle: String, session: any AccountSession)] = []
        for typed in handles {
            plan.append(try Self.session(for: typed, among: sessions, named: account, verb: verb))
        }
        let store = try location.openStore(create: true)
        var done = 0
        for (typed, handle, session) in plan {
            do {
                // Through the outbox (issue 27): a follow whose server cannot be reached is kept
                // and sent by the next sync, in the order asked for.
                let request = OutboxRequest(session: session, store: store, what: "the \(verb) of \(TerminalText.line(typed))")
                let outcome = try request.perform(following ? .follow(handle: handle) : .unfollow(handle: handle))
                done += 1
                switch outcome.delivery {
                case let .done(.following(answer)):
                    report(answer, verb: verb, account: session.account.name)
                case let .waiting(reason):
                    request.waiting(reason, json: json) { object in
                        object.add("action", verb)
                        object.add("handle", handle)
                    }
                case .done:
                    break
                }
            } catch let exit as ExitCode {
                throw exit
            } catch {
                Terminal.emitError("timeline: \(TerminalText.line(session.account.name)): could not \(verb) \(TerminalText.line(typed)): \(error)\n")
                if done > 0 { Terminal.emitError("timeline: \(Counted(done, "handle")) before it \(done == 1 ? "was" : "were") done.\n") }
                throw ExitCode(exitStatus(for: error))
            }
        }
    }

    /// A session for every logged-in account, or a refusal when none is.
    static func sessions(doing verb: String, policy: RequestPolicy = RequestPolicy()) throws(ExitCode) -> [any AccountSession] {
        let accountStore = try reportingErrors { try AccountStore.standard() }
        let accounts = try reportingErrors { try accountStore.hasAccountsFile ? accountStore.accounts() : [] }
        guard !accounts.isEmpty else {
            Terminal.emitError("timeline: \(verb) is done at your server, and no account is logged in: \(Account.Network.loginHint()).\n")
            throw ExitCode(ExitStatus.usage)
        }
        let transport = CurlTransport()
        return try reportingErrors { try accounts.map { try accountStore.session(for: $0, transport: transport, policy: policy) } }
    }

    /// `typed` as the handle to send, and the session that sends it: `--account`'s, or the one
    /// account whose network's handles it can be.
    static func session(for typed: String, among sessions: [any AccountSession], named account: String?,
                        verb: String) throws(ExitCode) -> (typed: String, handle: String, session: any AccountSession) {
        let shown = QuotedValue.quoted(typed)
        if let account {
            guard let chosen = sessions.first(where: { $0.account.name == account }) else {
                let names = sessions.map { TerminalText.line($0.account.name) }.joined(separator: ", ")
                Terminal.emitError("timeline: no account is named \(QuotedValue.quoted(account)) (logged in: \(names)).\n")
                throw ExitCode(ExitStatus.usage)
            }
            guard let handle = chosen.followableHandle(typed) else {
                Terminal.emitError("timeline: \(shown) is not a handle \(TerminalText.line(chosen.account.name)) can \(verb) (a \(chosen.account.network.displayName) handle is \(chosen.handleForm)). Nothing was sent.\n")
                throw ExitCode(ExitStatus.usage)
            }
            return (typed, handle, chosen)
        }
        let able = sessions.compactMap { session in session.followableHandle(typed).map { (handle: $0, session: session) } }
        if able.count == 1 { return (typed, able[0].handle, able[0].session) }
        if able.isEmpty {
            var forms: [String] = []
            // A source without handles (an empty form) has none to suggest.
            for session in sessions where !session.handleForm.isEmpty && !forms.contains(session.handleForm) { forms.append(session.handleForm) }
            Terminal.emitError("timeline: \(shown) is not a handle any logged-in account can \(verb): write it as \(forms.joined(separator: "; or ")). Nothing was sent.\n")
        } else {
            let names = able.map { TerminalText.line($0.session.account.name) }.joined(separator: ", ")
            Terminal.emitError("timeline: several accounts could \(verb) \(shown) (\(names)): say which with --account NAME. Nothing was sent.\n")
        }
        throw ExitCode(ExitStatus.usage)
    }

    private func report(_ outcome: FollowOutcome, verb: String, account: String) {
        if json {
            var object = JSONObjectWriter()
            object.add("action", verb)
            object.add("handle", outcome.user.handle)
            object.add("id", outcome.user.id)
            object.add("name", outcome.user.name)
            object.add("account", account)
            object.add("following", outcome.following)
            object.add("requested", outcome.requested)
            object.add("changed", outcome.changed)
            Terminal.emit(object.finish() + "\n")
            return
        }
        var who = "@" + TerminalText.line(outcome.user.handle)
        if !outcome.user.name.isEmpty { who += " (" + TerminalText.line(outcome.user.name) + ")" }
        let said: String
        switch (outcome.following, outcome.requested, outcome.changed) {
        case (_, true, _): said = "Asked to follow \(who): they approve their followers"
        case (true, _, true): said = "Followed \(who)"
        case (true, _, false): said = "Already following \(who)"
        // A server that makes follows in the background (Takahē) answers before it has.
        case (false, _, true): said = verb == "follow" ? "Asked to follow \(who): the server has not confirmed it yet" : "Unfollowed \(who)"
        case (false, _, false): said = "Was not following \(who)"
        }
        Terminal.emit("\(said), as \(TerminalText.line(account)).\n")
    }
}

struct FollowAccountCommand: WordListCommand {
    static let configuration = CommandConfiguration(
        commandName: "follow", abstract: "Follow accounts by their handle.",
        discussion: """
            Follows the accounts at your server: on Mastodon, user@server.example (the server \
            looks up a handle it has not seen yet at its own server) or user for an account of \
            your server; on Bluesky, name.bsky.social or a DID. A leading @ is fine. The account \
            that follows is the one whose network the handle belongs to; with several, --account \
            NAME says which. A handle that cannot be one, or that the server cannot find, is \
            refused with the reason, and nothing is followed. Following someone you already \
            follow is harmless. A locked account is asked, and the line says so.

            Offline: when the server cannot be reached, the follow is kept and sent by the next \
            `timeline sync`, once (on Bluesky its record's key is chosen now), after whatever \
            else waited; the exit status is 0 (--json: "pending": true, "reason").

            One line says what was done; --json prints one JSON object per handle.

            Examples:
              timeline follow alice@example.social
              timeline follow @bob.bsky.social --json
            """)
    @OptionGroup var arguments: FollowAccountArguments
    func run() throws { try arguments.run(following: true) }
}

struct UnfollowAccountCommand: WordListCommand {
    static let configuration = CommandConfiguration(
        commandName: "unfollow", abstract: "Stop following accounts.",
        discussion: """
            Unfollows the accounts at your server (Bluesky: deletes your follow record). \
            Unfollowing someone you do not follow is harmless, and the line says so. Handles \
            and --account as for `timeline follow`; offline, the unfollow is kept and sent by \
            the next `timeline sync`, as a follow is.

            Examples:
              timeline unfollow alice@example.social
            """)
    @OptionGroup var arguments: FollowAccountArguments
    func run() throws { try arguments.run(following: false) }
}

/// `timeline following`: whom each account follows, as its server lists them.
struct FollowingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "following", abstract: "List the accounts you follow, from your server.",
        discussion: """
            Lists, one a line, the accounts each logged-in account follows, as its server lists \
            them (newest follow first): @handle and name. --account NAME lists one account's. \
            Nothing is stored. --json prints one JSON object per account followed: {"handle", \
            "name", "id", "account"}.

            Examples:
              timeline following
              timeline following --account work --json | jq -r .handle
            """)

    @OptionGroup var location: LocationOptions

    @Option(name: .long, help: ArgumentHelp("The account whose follows to list (its name in `timeline accounts`).", valueName: "name"))
    var account: String?

    @Option(name: [.customShort("n", allowingJoined: true), .customLong("limit")], help: "At most this many per account (default 1000).")
    var limit = 1_000

    @Flag(name: .long, help: "Print one JSON object per account followed: {\"handle\", \"name\", \"id\", \"account\"}.")
    var json = false

    func validate() throws {
        if limit < 1 { throw ValidationError("-n/--limit must be at least 1, not \(limit).") }
    }

    func run() throws {
        var sessions = try FollowAccountArguments.sessions(doing: "following")
        if let account {
            guard let chosen = sessions.first(where: { $0.account.name == account }) else {
                let names = sessions.map { TerminalText.line($0.account.name) }.joined(separator: ", ")
                Terminal.emitError("timeline: no account is named \(QuotedValue.quoted(account)) (logged in: \(names)).\n")
                throw ExitCode(ExitStatus.usage)
            }
            sessions = [chosen]
        }
        let store = try location.openStore(create: true)
        var text = ""
        for session in sessions {
            let users: [FollowedUser]
            do {
                users = try waitFor { [limit] () async throws -> [FollowedUser] in try await session.followedUsers(limit: limit, in: store) }
            } catch {
                Terminal.emit(text)
                Terminal.emitError("timeline: \(TerminalText.line(session.account.name)): the accounts it follows could not be fetched: \(error)\n")
                throw ExitCode(exitStatus(for: error))
            }
            if json {
                for user in users {
                    var object = JSONObjectWriter()
                    object.add("handle", user.handle)
                    object.add("name", user.name)
                    object.add("id", user.id)
                    object.add("account", session.account.name)
                    text += object.finish() + "\n"
                }
                continue
            }
            if sessions.count > 1 { text += (text.isEmpty ? "" : "\n") + "\(TerminalText.line(session.account.name)):\n" }
            if users.isEmpty { text += "No one is followed by \(TerminalText.line(session.account.name)).\n" }
            for user in users {
                text += "@" + TerminalText.line(user.handle) + (user.name.isEmpty ? "" : "  " + TerminalText.line(user.name)) + "\n"
            }
        }
        Terminal.emit(text)
    }
}

extension FollowAccountCommand {
    var words: [String] {
        get { arguments.handles }
        set { arguments.handles = newValue }
    }
}

extension UnfollowAccountCommand {
    var words: [String] {
        get { arguments.handles }
        set { arguments.handles = newValue }
    }
}
