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

        Offline: when the server cannot be reached (connection refused, no answer, 5xx after a \
        retry), the action is kept, painted as pending (⋯ pending, [pending]), and sent by the \
        next `timeline sync`, once; the exit status is 0. Its opposite asked for before it was \
        sent cancels it: nothing is sent.

        One line says what was done; --json prints one JSON object per message: \
        {"action", "id", "account", "favourited", "boosted", "bookmarked", "pending"} (and \
        "reason" when pending, "cancelled" when it cancelled a waiting action).

        Examples:
        \(examples)
        """
    }

    func validate() throws(ValidationError) {
        if references.isEmpty { throw ValidationError("Give at least one message: its short reference (as `show` paints it), ID or web address.") }
    }

    func run() throws(ExitCode) {
        // A hashtag's or a list's post (`rust:bkd`) is acted on in the database it is kept in.
        let targets = try location.storesHolding(references, verb: action.rawValue)
        // One retry, soon: a person waits for the answer, and an action whose server cannot be
        // reached is not lost but queued for the next sync, which retries as a sync does.
        let policy = RequestPolicy(maximumAttempts: 2, initialBackoff: .milliseconds(500), requestTimeout: .seconds(20))
        let sessions = try MessageSessions.open(account: account, verb: action.rawValue, policy: policy)
        var done = 0
        for (reference, (store, id)) in zip(references, targets) {
            let session = try sessions.session(for: id, named: reference)
            if let refusal = session.refusal(of: SourceAction(action.kind)) {
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
            } catch let kept as PendingActionKept {
                Terminal.emitError("timeline: \(TerminalText.line(session.account.name)): could not \(action.rawValue) \(QuotedValue.quoted(reference)) now: \(kept.reason) It is kept, and the first `timeline sync` after that is put right sends it.\n")
                throw ExitCode(exitStatus(for: kept.reason))
            } catch {
                Terminal.emitError("timeline: \(TerminalText.line(session.account.name)): could not \(action.rawValue) \(QuotedValue.quoted(reference)): \(error) Nothing was changed here.\n")
                if done > 0 { Terminal.emitError("timeline: \(Counted(done, "message")) before it \(done == 1 ? "was" : "were") done; nothing else was changed.\n") }
                throw ExitCode(exitStatus(for: error))
            }
        }
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
            object.add("pending", outcome.isPending)
            if case let .waiting(reason) = outcome.delivery { object.add("reason", reason) }
            if case .cancelled = outcome.delivery { object.add("cancelled", true) }
            Terminal.emit(object.finish() + "\n")
            return
        }
        // A hashtag's or a list's post is named as its timeline painted it (`rust:bkd`).
        let named = SourceReference.parse(reference) != nil ? TerminalText.line(reference) : MessageSessions.name(of: outcome.messageID, in: store)
        switch outcome.delivery {
        case .done:
            Terminal.emit("\(outcome.action.done) \(named) as \(TerminalText.line(account)).\n")
        case let .waiting(reason):
            Terminal.emit("Not sent yet: \(outcome.action.rawValue) \(named) as \(TerminalText.line(account)) is kept and sent by the next `timeline sync` (\(TerminalText.line(reason))).\n")
        case .cancelled:
            Terminal.emit("\(outcome.action.done) \(named) as \(TerminalText.line(account)): it undoes \(outcome.action.undo.rawValue), which was waiting to be sent, so neither is sent.\n")
        }
    }
}
