import ArgumentParser
import TimelineKit

struct LogoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Forget an account, and revoke its token at the server.",
        discussion: """
            The token is revoked when timeline login created it; a token given with --token-stdin \
            was made in the server's settings and is revoked there. The account is forgotten \
            either way (its messages stay in the timeline database); a failed revocation is \
            reported on standard error.

            Example:
              timeline logout alice@mastodon.social
            """)

    @Argument(help: ArgumentHelp("The account's name, as `timeline accounts` lists it.", valueName: "name"))
    var name: String

    func run() throws {
        let store = try reportingErrors { try AccountStore.standard() }
        // An entry that cannot be used has no session to end: it is only taken out of the file.
        if try reportingErrors({ try store.unreadableEntries() }).contains(where: { $0.name == name }),
           (try? store.account(named: name)) == nil {
            _ = try reportingErrors { try store.removeUnreadable(named: name) }
            Terminal.emit("Removed the unusable entry \(TerminalText.line(name)) from \(store.path).\n")
            return
        }
        let account = try reportingErrors { try store.account(named: name) }
        var outcome = ""
        let session = try reportingErrors { try store.session(for: account, transport: CurlTransport()) }
        switch waitFor({ () async -> SessionEnding in await session.end() }) {
        case let .ended(sentence): outcome = " " + sentence
        case let .leftToPerson(advice): Terminal.emitError("timeline: \(advice)\n")
        }
        _ = try reportingErrors { try store.remove(named: account.name) }
        Terminal.emit("Logged out of \(TerminalText.line(account.name)).\(outcome)\n")
    }
}
