import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

struct DeleteCommand: WordListCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete your posts at their server, or forget messages here.",
        discussion: """
            A post you wrote with an account you are logged in to is deleted at its server too \
            (Mastodon: the status; Bluesky: the record), then here; on a terminal timeline asks \
            first, and scripts pass --yes. Anyone else's post cannot be deleted at its server: it \
            is forgotten here only, and a later sync may bring it back. --local forgets every \
            message given here only, yours too.

            Offline: when the server cannot be reached, the delete is kept, the post painted as \
            pending (⋯ pending), and the next `timeline sync` deletes it, once (a post the server \
            no longer has is deleted either way); the exit status is 0 (--json: "pending": N). \
            Deleting a post that itself waits to be sent takes it out: nothing is sent.

            Messages are named by their short reference (as `show` paints it; `rust:bkd` for a \
            post `timeline tag rust` painted), stored ID, the server's own ID or the post's web address. \
            When any matches no stored message, nothing is deleted, the ones that matched nothing \
            are named, and the exit status is 65. --json prints {"deleted": N, \
            "deleted_at_server": M}.

            Examples:
              timeline delete 113542871234567890
              timeline delete --yes https://mastodon.social/@me/113542871234567890
              timeline delete --local mastodon.social/113542871234567890
            """)

    @OptionGroup var location: LocationOptions

    @Argument(help: "Messages: short references (as `show` paints them), stored IDs, servers' own IDs or posts' web addresses.")
    var ids: [String]

    @Flag(name: .long, help: "Forget the messages here only, even your own posts (they stay at their servers).")
    var local = false

    @Flag(name: .long, help: "Delete your posts at their server without asking (for scripts).")
    var yes = false

    @Flag(name: .long, help: "Print one JSON object: {\"deleted\": N, \"deleted_at_server\": M}.")
    var json = false

    func validate() throws {
        if ids.isEmpty { throw ValidationError("Give at least one message ID.") }
    }

    func run() throws {
        // All or nothing: every message is found (each reference resolved) before any is deleted.
        let groups = try messagesByStore()
        var atServer: [(message: Message, account: Account, store: TimelineStore)] = []
        // Deletes kept for the next sync: their server could not be reached.
        var kept = 0
        if !local {
            let accountStore = try reportingErrors { try AccountStore.standard() }
            for (store, messages) in groups {
                for message in messages {
                    if let account = try reportingErrors({ try accountStore.author(of: message) }) { atServer.append((message, account, store)) }
                }
            }
            if !atServer.isEmpty && !yes { try confirm(atServer.map { ($0.message, $0.account) }) }
            var deletedAtServer = 0
            for (message, account, store) in atServer {
                do {
                    // Through the outbox (issue 27): a delete whose server cannot be reached is
                    // kept for the next sync (the post painted as pending until then); a retry
                    // that finds the post gone is done. A post that itself waits to be sent is
                    // taken out of the outbox, and nothing is sent.
                    let session = try accountStore.session(for: account, transport: CurlTransport(), policy: OutboxRequest.policy)
                    let request = OutboxRequest(session: session, store: store, what: "the delete of \(MessageSessions.name(of: message.id, in: store))")
                    let outcome = try request.perform(.delete(messageID: message.id))
                    if case let .waiting(reason) = outcome.delivery {
                        if !json { request.waiting(reason) }
                        kept += 1
                    } else {
                        deletedAtServer += 1
                    }
                } catch let exit as ExitCode {
                    throw exit
                } catch {
                    Terminal.emitError("timeline: \(TerminalText.line(account.name)): \(TerminalText.line(message.id)) was not deleted at the server: \(error)\n")
                    if deletedAtServer > 0 {
                        Terminal.emitError("timeline: \(Counted(deletedAtServer, "post")) before it \(deletedAtServer == 1 ? "was" : "were") deleted at the server and here; nothing else was changed.\n")
                    }
                    throw ExitCode(exitStatus(for: error))
                }
            }
        }
        let own = Set(atServer.map(\.message.id))
        var forgotten = 0
        for (store, messages) in groups {
            let others = messages.map(\.id).filter { !own.contains($0) }
            guard !others.isEmpty else { continue }
            forgotten += try reportingErrors { try store.deleteMessages(ids: others, unknownIDs: .refuse) }
        }
        report(deletedAtServer: atServer.count - kept, forgotten: forgotten, kept: kept)
    }

    /// The messages `ids` name, with the store that keeps each: the main one, or a hashtag's or
    /// a list's own database for a reference its timeline painted (``SourceReference``,
    /// `rust:bkd`). Every reference is resolved before anything is deleted; the main timeline's
    /// unknown references are all named at once (65).
    private func messagesByStore() throws -> [(store: TimelineStore, messages: [Message])] {
        var groups: [(store: TimelineStore, messages: [Message])] = []
        let main = ids.filter { SourceReference.parse($0) == nil }
        if !main.isEmpty {
            let store = try location.openStore(create: false)
            let found = try reportingErrors { try store.withMessageReferences(main) { ids throws(TimelineStoreError) in
                let found = try store.messages(ids: ids)
                if found.count < Set(ids).count {
                    let stored = Set(found.map(\.id))
                    throw .unknownMessages(ids: ids.filter { !stored.contains($0) }, given: ids.count)
                }
                return found
            } }
            groups.append((store, found))
        }
        let sourced = ids.filter { SourceReference.parse($0) != nil }
        guard !sourced.isEmpty else { return groups }
        for (store, id) in try location.storesHolding(sourced, verb: "delete") {
            let message = try reportingErrors { try store.messages(ids: [id]) }
            if let index = groups.firstIndex(where: { $0.store === store }) {
                // Named twice (`rust:bkd` and its ID): deleted once.
                groups[index].messages += message.filter { found in !groups[index].messages.contains { $0.id == found.id } }
            } else {
                groups.append((store, message))
            }
        }
        return groups
    }

    /// Deleting at a server cannot be undone: a person says yes to it, or a script says --yes.
    private func confirm(_ posts: [(Message, Account)]) throws(ExitCode) {
        guard StandardInput.isTerminal else {
            Terminal.emitError("timeline: \(posts.count == 1 ? "that is your post" : "\(Counted(posts.count, "of them", plural: "of them")) are your posts"); deleting at the server asks first, but standard input is not a terminal. Add --yes to delete at the server, or --local to forget here only. Nothing was deleted.\n")
            throw ExitCode(ExitStatus.usage)
        }
        for (message, account) in posts.prefix(5) {
            let text = TerminalText.line(message.contentWarning ?? message.text)
            Terminal.emitError("  \(TerminalText.line(account.name)): \"\(text.count > 60 ? text.prefix(59) + "…" : Substring(text))\"\n")
        }
        if posts.count > 5 { Terminal.emitError("  and \(Counted(posts.count - 5, "more post"))\n") }
        Terminal.emitError("Delete \(posts.count == 1 ? "this post" : "these \(Counted(posts.count, "post"))") at the server, for everyone? [y/N] ")
        let answer = StandardInput.readLine()?.filter { !$0.isWhitespace }.lowercased()
        guard answer == "y" || answer == "yes" else {
            if answer == nil { Terminal.emitError("\n") }
            Terminal.emitError("Nothing was deleted.\n")
            throw ExitCode(ExitStatus.failure)
        }
    }

    private func report(deletedAtServer: Int, forgotten: Int, kept: Int) {
        if json {
            var object = JSONObjectWriter()
            object.add("deleted", deletedAtServer + forgotten)
            object.add("deleted_at_server", deletedAtServer)
            if kept > 0 { object.add("pending", kept) }
            Terminal.emit(object.finish() + "\n")
            return
        }
        if deletedAtServer > 0 {
            Terminal.emit("Deleted \(Counted(deletedAtServer, "post")) at the server and here.\n")
        }
        guard forgotten > 0 || (deletedAtServer == 0 && kept == 0) else { return }
        if local {
            Terminal.emit("Forgot \(Counted(forgotten, "message")) here only.\n")
        } else if (try? AccountStore.standard().hasAccountsFile) == true {
            Terminal.emit("Forgot \(Counted(forgotten, "message")) here only: other people's posts cannot be deleted at their servers, and a sync may bring them back.\n")
        } else {
            Terminal.emit("Deleted \(Counted(forgotten, "message")).\n")
        }
    }
}

extension DeleteCommand {
    var words: [String] {
        get { ids }
        set { ids = newValue }
    }
}
