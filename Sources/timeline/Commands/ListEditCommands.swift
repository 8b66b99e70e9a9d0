import ArgumentParser
import TimelineKit

/// What `list create`, `add`, `remove` and `delete` share: where, which account, and the one way
/// an edit is sent and said.
struct ListEditArguments: ParsableArguments {
    @OptionGroup var location: LocationOptions

    @Option(name: .long, help: ArgumentHelp("The account whose lists to change (its name in `timeline accounts`); by default the one that can, or whose network the list is of.", valueName: "name"))
    var account: String?

    /// The session to change a list with: `--account`'s, else the one account whose network has
    /// lists to change and, given `list`, whose network the list's ID is of.
    func session(for list: String?) throws(ExitCode) -> any AccountSession {
        let all = try FollowAccountArguments.sessions(doing: "changing a list")
        var able = all.filter { $0.refusal(of: .editLists) == nil }
        if let account {
            guard let chosen = all.first(where: { $0.account.name == account }) else {
                let names = all.map { TerminalText.line($0.account.name) }.joined(separator: ", ")
                Terminal.emitError("timeline: no account is named \(QuotedValue.quoted(account)) (logged in: \(names)).\n")
                throw ExitCode(ExitStatus.usage)
            }
            if let refusal = chosen.refusal(of: .editLists) {
                Terminal.emitError("timeline: \(refusal)\n")
                throw ExitCode(ExitStatus.unavailable)
            }
            able = [chosen]
        }
        if let list { able = able.filter { $0.listID(list) != nil } }
        guard let session = able.first, able.count == 1 else {
            if able.isEmpty, let list {
                Terminal.emitError("timeline: \(QuotedValue.quoted(list)) is not the ID of a list \(account.map { TerminalText.line($0) } ?? "any logged-in account") can change: `timeline lists` shows them. Nothing was sent.\n")
            } else if able.isEmpty {
                Terminal.emitError("timeline: no logged-in account can \(SourceAction.editLists): \(Account.Network.loginHint(for: .editLists)).\n")
            } else {
                let names = able.map { TerminalText.line($0.account.name) }.joined(separator: ", ")
                Terminal.emitError("timeline: several accounts could do this (\(names)): say which with --account NAME.\n")
            }
            throw ExitCode(ExitStatus.usage)
        }
        return session
    }

    /// Sends `edit` with `session`, at once: a failure is one line naming the account.
    func send(_ edit: ListEdit, with session: any AccountSession) throws(ExitCode) -> ListEditOutcome {
        let store = try reportingErrors { try location.openStore(create: true) }
        do {
            return try waitFor { () async throws -> ListEditOutcome in try await session.editList(edit, in: store) }
        } catch {
            Terminal.emitError("timeline: \(TerminalText.line(session.account.name)): the list was not changed: \(error)\n")
            throw ExitCode(exitStatus(for: error))
        }
    }
}

struct ListCreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create", abstract: "Make a list at your server, and print its ID.",
        discussion: """
            Makes a list named NAME (Mastodon: a list; Bluesky: a curation list, an \
            app.bsky.graph.list record) and prints its ID, which `list add`, `list remove`, \
            `list delete` and `timeline list` take.

            Examples:
              timeline list create Friends
              timeline list create "Rust people" --account me@bsky.social
            """)
    @OptionGroup var options: ListEditArguments

    @Argument(help: "The list's name.")
    var name: String

    func validate() throws {
        if name.allSatisfy(\.isWhitespace) { throw ValidationError("a list needs a name, e.g. `timeline list create Friends`.") }
    }

    func run() throws {
        let session = try options.session(for: nil)
        let outcome = try options.send(.create(title: name), with: session)
        guard let list = outcome.created else { return }
        Terminal.emit(TerminalText.line(list.id) + "\n")
        Terminal.emitError("Made the list \(QuotedValue.quoted(list.title)) at \(TerminalText.line(session.account.name)).\n")
    }
}

struct ListAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add an account to one of your lists.",
        discussion: """
            LIST is the list's ID (`timeline lists` shows them). Mastodon adds to a list only an \
            account you follow: `timeline follow ACCOUNT` first. On Bluesky the list gains an \
            app.bsky.graph.listitem record.

            Examples:
              timeline list add 42 alice@example.social
              timeline list add at://did:plc:abc/app.bsky.graph.list/3kx alice.bsky.social
            """)
    @OptionGroup var options: ListEditArguments

    @Argument(help: "The list's ID.")
    var list: String

    @Argument(help: "The account: user@server (Mastodon) or a handle (Bluesky).")
    var handle: String

    func run() throws {
        let session = try options.session(for: list)
        let typed = handle.hasPrefix("@") ? String(handle.dropFirst()) : handle
        let outcome = try options.send(.add(list: session.listID(list) ?? list, handle: typed), with: session)
        let who = "@" + TerminalText.line(outcome.account?.handle ?? typed)
        Terminal.emit(outcome.changed ? "Added \(who) to the list.\n" : "\(who) is in the list already.\n")
    }
}

struct ListRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Take an account out of one of your lists.",
        discussion: """
            Examples:
              timeline list remove 42 alice@example.social
            """)
    @OptionGroup var options: ListEditArguments

    @Argument(help: "The list's ID.")
    var list: String

    @Argument(help: "The account: user@server (Mastodon) or a handle (Bluesky).")
    var handle: String

    func run() throws {
        let session = try options.session(for: list)
        let typed = handle.hasPrefix("@") ? String(handle.dropFirst()) : handle
        let outcome = try options.send(.remove(list: session.listID(list) ?? list, handle: typed), with: session)
        let who = "@" + TerminalText.line(outcome.account?.handle ?? typed)
        Terminal.emit(outcome.changed ? "Took \(who) out of the list.\n" : "\(who) was not in the list.\n")
    }
}

struct ListDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete one of your lists at your server.",
        discussion: """
            The list goes at once (on Bluesky, its items with it: at most 1,000). What `timeline \
            list` kept of its timeline stays on this computer.

            Examples:
              timeline list delete 42
            """)
    @OptionGroup var options: ListEditArguments

    @Argument(help: "The list's ID.")
    var list: String

    func run() throws {
        let session = try options.session(for: list)
        let outcome = try options.send(.delete(list: session.listID(list) ?? list), with: session)
        Terminal.emit("Deleted the list" + (outcome.itemsDeleted > 0 ? " and its \(Counted(outcome.itemsDeleted, "item"))" : "") + ".\n")
    }
}
