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
        if account.network == .bluesky {
            do {
                let client = try store.blueskyClient(for: account, transport: CurlTransport())
                try waitFor { () async throws(ServerError) in try await client.deleteSession() }
                outcome = " Its session was ended at \(account.server)."
            } catch {
                Terminal.emitError("timeline: the session could not be ended (\(error)); revoke the app password in Bluesky's settings if it should stop working.\n")
            }
        } else if let client = account.client {
            do {
                let token = try account.accessToken()
                let login = try MastodonAuthorization(server: account.server, transport: CurlTransport())
                try waitFor { () throws(LoginError) in try await login.revoke(token, client: client) }
                outcome = " The token was revoked at \(account.server)."
            } catch {
                Terminal.emitError("timeline: the token could not be revoked (\(error)); revoke it in the server's settings (authorized apps).\n")
            }
        } else {
            Terminal.emitError("timeline: the token was made in the server's settings (--token-stdin or --token-command); revoke it there if it should stop working.\n")
        }
        _ = try reportingErrors { try store.remove(named: account.name) }
        Terminal.emit("Logged out of \(TerminalText.line(account.name)).\(outcome)\n")
    }
}
