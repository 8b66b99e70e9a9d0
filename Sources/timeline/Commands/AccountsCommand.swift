import ArgumentParser
import TimelineKit

struct AccountsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts",
        abstract: "List the accounts timeline is logged in to.",
        discussion: """
            One line per account: its name, server and handle, and where its token comes from. \
            --json prints one JSON object per account (name, network, server, account_id, acct, \
            token_source, revocable); tokens are never printed.

            Example:
              timeline accounts --json | jq -r .name
            """)

    @Flag(name: .long, help: "Print JSON Lines, one object per account.")
    var json = false

    func run() throws {
        let store = try reportingErrors { try AccountStore.standard() }
        let accounts = try reportingErrors { try store.accounts() }
        if accounts.isEmpty && !json {
            Terminal.emit("No accounts. Log in with: timeline login mastodon SERVER_URL, or timeline login bluesky HANDLE\n")
            return
        }
        for account in accounts {
            let source = if case .command = account.secret { "command" } else { "file" }
            if json {
                var object = JSONObjectWriter()
                object.add("name", account.name)
                object.add("network", account.network.rawValue)
                object.add("server", account.server)
                object.add("account_id", account.accountID)
                object.add("acct", account.acct)
                object.add("token_source", source)
                // A Bluesky session ends at the server on logout, as a revoked token does.
                object.add("revocable", account.client != nil || account.network == .bluesky)
                Terminal.emit(object.finish() + "\n")
            } else {
                let from = source == "command" ? "token from its token_command"
                    : account.network == .bluesky ? "bluesky, session in \(store.path)" : "token in \(store.path)"
                Terminal.emit("\(TerminalText.line(account.name))  \(account.server)  @\(TerminalText.line(account.acct))  (\(from))\n")
            }
        }
    }
}
