import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

struct AccountsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts",
        abstract: "List the accounts timeline is logged in to.",
        discussion: """
            One line per account: its name, server and handle, and where its token comes from, \
            then how its syncs go (the last one, and what to do when they fail: the same words \
            `timeline show` ends with on a terminal), and how many of its actions wait to be \
            sent. --json prints one JSON object per account \
            (name, network, server, account_id, acct, token_source, revocable, last_sync, \
            last_success, sync_problem: null, "credentials" or "failing", sync_error, attention: \
            the line a person should read, or null; pending_actions: how many actions (a \
            favourite, a boost, a bookmark made offline) wait to be sent, null when the \
            database cannot be read); tokens are never printed.

            Example:
              timeline accounts --json | jq -r .name
            """)

    @OptionGroup var location: LocationOptions

    @Flag(name: .long, help: "Print JSON Lines, one object per account.")
    var json = false

    func run() throws {
        let store = try reportingErrors { try AccountStore.standard() }
        let accounts = try reportingErrors { try store.accounts() }
        // Said, never in the way of the others (issue 24).
        for entry in try reportingErrors({ try store.unreadableEntries() }) {
            Terminal.emitError(AccountStore.unusableNote(entry, path: store.path))
        }
        if accounts.isEmpty && !json {
            Terminal.emit("No accounts. Log in with: timeline login mastodon SERVER_URL, or timeline login bluesky HANDLE\n")
            return
        }
        let now = Date()
        let statusFile = try SyncStatusFile(databasePath: location.location().databasePath)
        let statuses = Dictionary(statusFile.read().map { ($0.account, $0) }, uniquingKeysWith: { _, last in last })
        let ages = RelativeTime(now: now)
        // What waits to be sent; an unreadable database leaves it unknown (null), not an error
        // of `accounts`, which reads no database otherwise.
        let main = try location.location().databasePath
        // The actions on a hashtag's or a list's posts wait in their databases.
        let waiting = try? SourceReference.databases(beside: main).reduce(TimelineStore.waitingActions(inDatabaseAt: main)) { sum, path in
            sum.adding(try TimelineStore.waitingActions(inDatabaseAt: path))
        }
        for account in accounts {
            let status = statuses[account.name]
            let attention = status?.attention(at: now)
            let source = if case .command = account.secret { "command" } else { "file" }
            if json {
                var object = JSONObjectWriter()
                object.add("name", account.name)
                object.add("network", account.network.rawValue)
                object.add("server", account.server)
                object.add("account_id", account.accountID)
                object.add("acct", account.acct)
                object.add("token_source", source)
                object.add("revocable", account.isRevocable)
                object.add("last_sync", status.map { $0.lastAttempt.formatted(.iso8601) })
                // The same as last_sync, which is kept for scripts: the last try, failed or not.
                object.add("last_attempt", status.map { $0.lastAttempt.formatted(.iso8601) })
                object.add("last_success", status?.lastSuccess.map { $0.formatted(.iso8601) })
                object.add("sync_problem", status?.problem?.rawValue)
                object.add("sync_error", status.flatMap { $0.reason.isEmpty ? nil : $0.reason })
                object.add("attention", attention?.line)
                object.add("pending_actions", waiting?.count(for: account.name))
                Terminal.emit(object.finish() + "\n")
            } else {
                let from = account.secretSource(accountsPath: store.path)
                Terminal.emit("\(TerminalText.line(account.name))  \(account.server)  @\(TerminalText.line(account.acct))  (\(from))\n")
                if let attention {
                    Terminal.emit("  needs attention: \(attention.line)\n")
                } else if let status {
                    // The last success and the last try apart (issue 37): a failed try is not a sync.
                    let last = status.lastSuccess.map { "last synced \(ages.phrase(since: $0))" } ?? "never synced"
                    let failed = status.problem == nil ? ""
                        : "; the last try, \(ages.phrase(since: status.lastAttempt)), failed: \(TerminalText.line(status.reason))"
                    Terminal.emit("  \(last)\(failed)\n")
                } else {
                    Terminal.emit("  not synced yet: timeline sync\n")
                }
                if let count = waiting?.count(for: account.name), count > 0 {
                    Terminal.emit("  \(Counted(count, "action")) waiting to be sent: the next `timeline sync` sends \(count == 1 ? "it" : "them")\n")
                }
            }
        }
    }
}
