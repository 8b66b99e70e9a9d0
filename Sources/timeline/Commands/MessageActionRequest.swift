import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

/// What `favourite`, `boost`, `bookmark` and their undo were asked (issue 27): one action on
/// messages named as every command names them (short reference, stored ID, server's ID, web
/// address), done at the server by the account whose server the message came from, or
/// `--account`. The command calls ``AccountSession/act(_:on:in:)`` and never asks which network.
struct MessageActionRequest {
    var location: LocationOptions
    var action: MessageAction
    var references: [String]
    var account: String?
    var json = false

    /// The help every action command shares, after its own first sentence.
    static func discussion(_ first: String, examples: String) -> String {
        """
        \(first) The message is named by its short reference (as `show` paints it), stored ID, the \
        server's own ID or the post's web address; a repost is acted on through the post it \
        reposts. The account is the one whose server the message came from; when several could \
        act (two accounts on one server), --account NAME says which. The server's answer is \
        stored (your favourite, boost and bookmark, the counts), so the next `show` paints it: \
        ♥ favourited, ⟲ boosted, 🔖 bookmarked ([favourited], [boosted], [bookmarked] where the \
        terminal shows no Unicode). Doing what is already done is harmless. A message the server \
        no longer has (deleted) is refused with the server's reason and nothing changes here.

        One line says what was done; --json prints one JSON object per message: \
        {"action", "id", "account", "favourited", "boosted", "bookmarked"}.

        Examples:
        \(examples)
        """
    }

    func validate() throws(ValidationError) {
        if references.isEmpty { throw ValidationError("Give at least one message: its short reference (as `show` paints it), ID or web address.") }
    }

    func run() throws(ExitCode) {
        let store = try location.openStore(create: false)
        let ids: [String]
        do throws(TimelineStoreError) {
            ids = try store.resolveMessageReferences(references)
        } catch {
            if case let .unknownMessages(unknown, _) = error {
                let named = unknown.map { "\"\(TerminalText.line($0))\"" }.joined(separator: ", ")
                Terminal.emitError("timeline: no stored message is \(named) (a short reference as `show` paints it, a stored ID, the server's ID or the post's web address). Nothing was \(action.rawValue)d.\n")
                throw ExitCode(ExitStatus.dataError)
            }
            throw fail(error)
        }
        let accountStore = try reportingErrors { try AccountStore.standard() }
        let accounts = try reportingErrors { try accountStore.hasAccountsFile ? accountStore.accounts() : [] }
        guard !accounts.isEmpty else {
            Terminal.emitError("timeline: \(action.rawValue) is done at your server, and no account is logged in: timeline login mastodon example.social (or: login bluesky HANDLE).\n")
            throw ExitCode(ExitStatus.usage)
        }
        let transport = CurlTransport()
        let sessions = try reportingErrors { try accounts.map { try accountStore.session(for: $0, transport: transport) } }
        var done = 0
        for (reference, id) in zip(references, ids) {
            let session = try self.session(for: id, named: reference, among: sessions)
            if let refusal = session.capabilities.refusal(of: action) {
                Terminal.emitError("timeline: \(refusal)\n")
                throw ExitCode(ExitStatus.usage)
            }
            do {
                let outcome = try waitFor { [action] () async throws -> MessageActionOutcome in
                    try await session.act(action, on: id, in: store)
                }
                done += 1
                try report(outcome, reference: reference, account: session.account.name, store: store)
            } catch let exit as ExitCode {
                throw exit
            } catch {
                Terminal.emitError("timeline: \(TerminalText.line(session.account.name)): could not \(action.rawValue) \(TerminalText.line(reference)): \(error) Nothing was changed here.\n")
                if done > 0 { Terminal.emitError("timeline: \(Counted(done, "message")) before it \(done == 1 ? "was" : "were") done; nothing else was changed.\n") }
                throw ExitCode(exitStatus(for: error))
            }
        }
    }

    /// The session to act on `id` with: `--account`'s, or the one account whose server the
    /// message came from.
    private func session(for id: String, named reference: String, among sessions: [any AccountSession]) throws(ExitCode) -> any AccountSession {
        let holding = sessions.filter { $0.holds(messageID: id) }
        if let account {
            guard let chosen = sessions.first(where: { $0.account.name == account }) else {
                let names = sessions.map { TerminalText.line($0.account.name) }.joined(separator: ", ")
                Terminal.emitError("timeline: no account is named \"\(TerminalText.line(account))\" (logged in: \(names)).\n")
                throw ExitCode(ExitStatus.usage)
            }
            guard chosen.holds(messageID: id) else {
                Terminal.emitError("timeline: \(TerminalText.line(reference)) did not come from \(TerminalText.line(chosen.account.name))'s server, so that account cannot \(action.rawValue) it there\(holding.isEmpty ? "" : " (\(holding.map { TerminalText.line($0.account.name) }.joined(separator: ", ")) can)"). Nothing was changed.\n")
                throw ExitCode(ExitStatus.usage)
            }
            return chosen
        }
        if holding.count == 1 { return holding[0] }
        if holding.isEmpty {
            Terminal.emitError("timeline: \(TerminalText.line(reference)) (\(TerminalText.line(id))) did not come from the server of any logged-in account, so none can \(action.rawValue) it there (it was imported, or its account logged out). Nothing was changed.\n")
        } else {
            let names = holding.map { TerminalText.line($0.account.name) }.joined(separator: ", ")
            Terminal.emitError("timeline: several accounts could \(action.rawValue) \(TerminalText.line(reference)) (\(names)): say which with --account NAME. Nothing was changed.\n")
        }
        throw ExitCode(ExitStatus.usage)
    }

    private func report(_ outcome: MessageActionOutcome, reference: String, account: String, store: TimelineStore) throws(ExitCode) {
        if json {
            var object = JSONObjectWriter()
            object.add("action", outcome.action.rawValue)
            object.add("id", outcome.messageID)
            object.add("account", account)
            object.add("favourited", outcome.interaction.favourited)
            object.add("boosted", outcome.interaction.boosted)
            object.add("bookmarked", outcome.interaction.bookmarked)
            Terminal.emit(object.finish() + "\n")
            return
        }
        let message = try? store.message(id: outcome.messageID)
        var named = message.map { $0.shortReference.isNone ? $0.id : $0.shortReference.text } ?? outcome.messageID
        if let author = message.flatMap({ try? store.users(ids: [$0.authorID]).first }), !author.handle.isEmpty {
            named += " by @" + author.handle
        }
        Terminal.emit("\(outcome.action.done) \(TerminalText.line(named)) as \(TerminalText.line(account)).\n")
    }
}
