import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

/// `timeline edit REF [TEXT]`: a new text for one of your posts, at its server (issue 27).
/// The library decides what an edit sends (``AccountSession/edit(_:text:in:)``); a network whose
/// posts cannot be edited says so in its own words (``SourceAction/edit``).
struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change the text of one of your posts at its server (Mastodon).",
        discussion: """
            The post is named by its short reference (as `show` paints it), stored ID, the \
            server's own ID or its web address, and must be yours: the account is the one whose \
            server it came from (--account NAME when several could). The new text is the \
            argument; `-`, or no argument on a pipe, reads it from standard input; with no \
            argument at a terminal, your editor opens ($VISUAL, else $EDITOR, else vi) on the \
            post's current text as you wrote it (the server's source), under help lines starting \
            with "# " that are left out. An empty text changes nothing (exit 1 from the editor); \
            a text left as it was sends nothing.

            Mastodon: `PUT /api/v1/statuses/:id`, sending again the post's content warning, media \
            and language, so only the text changes; the server's answer is stored and `show` \
            marks the post " · edited". Someone else's post, or one with a poll (the edit would \
            reset its votes), is refused before anything is sent (exit 65). Bluesky posts cannot be edited: refused with a message saying so (exit 64).

            Offline: when the server cannot be reached, the edit is kept, the post painted as \
            pending (⋯ pending), and the next `timeline sync` sends it; the exit status is 0 \
            (--json: "pending": true, "reason").

            One line says what was done; --json prints {"action", "id", "account", "edited_at"}.

            Examples:
              timeline edit bkd "Shipping tomorrow, not today"
              timeline edit bkd            (your editor, on the current text)
            """)

    @OptionGroup var location: LocationOptions

    @Argument(help: "The post: its short reference (as `show` paints it), stored ID, the server's own ID or its web address.")
    var reference: String

    @Argument(help: ArgumentHelp("The new text; - (or none, on a pipe) reads it from standard input; none at a terminal opens your editor.", valueName: "text"))
    var text: String?

    @Option(name: .long, help: ArgumentHelp("The account the post is of (its name in `timeline accounts`).", valueName: "name"))
    var account: String?

    @Flag(name: .long, help: "Print one JSON object: {\"action\", \"id\", \"account\", \"edited_at\"}.")
    var json = false

    func run() throws {
        let typed = try PostCommand.typedText(text, done: "changed")
        // A hashtag's or a list's post (`rust:bkd`) is found in the database it is kept in.
        let (store, id) = try location.storesHolding([reference], verb: "edit")[0]
        let session = try MessageSessions.open(account: account, verb: "edit", policy: OutboxRequest.policy).session(for: id, named: reference)
        if let refusal = session.refusal(of: .edit) { throw fail(refusal) }
        let newText: String
        if let typed {
            newText = typed
        } else {
            let current = try attempt(session) { () async throws -> String in try await session.editableText(of: id, in: store) }
            newText = try PostCommand.editedText(.edit, about: nil, in: nil, text: current)
            if newText == DraftFile.text(from: current) {
                Terminal.emit("The text of \(MessageSessions.name(of: id, in: store)) is as it was: nothing was sent.\n")
                return
            }
        }
        // Through the outbox (issue 27): an edit whose server cannot be reached is kept, its post
        // painted as pending, and sent by the next sync (a PUT: the same however often sent).
        let request = OutboxRequest(session: session, store: store, what: "the edit of \(MessageSessions.name(of: id, in: store))")
        let outcome: OutboxOutcome
        do {
            outcome = try request.perform(.edit(messageID: id, text: newText))
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw failed(error, session)
        }
        guard case let .done(.edited(message, visibilityChange)) = outcome.delivery else {
            if case let .waiting(reason) = outcome.delivery {
                request.waiting(reason, json: json) { object in
                    object.add("action", "edit")
                    object.add("id", id)
                }
            }
            return
        }
        if json {
            var object = JSONObjectWriter()
            object.add("action", "edit")
            object.add("id", message.id)
            object.add("account", session.account.name)
            if let editedAt = message.editedAt { object.add("edited_at", editedAt.formatted(.iso8601)) }
            if let visibilityChange {
                object.add("visibility", visibilityChange.after.rawValue)
                object.add("visibility_before", visibilityChange.before.rawValue)
            }
            Terminal.emit(object.finish() + "\n")
        } else {
            Terminal.emit("Edited \(MessageSessions.name(of: message.id, in: store)) as \(TerminalText.line(session.account.name)).\n")
            if let visibilityChange {
                // The server's doing, not the person's: said on its own line, as a warning.
                Terminal.emitError("timeline: the server made \(MessageSessions.name(of: message.id, in: store)) \(visibilityChange.after.rawValue) "
                    + "(it was \(visibilityChange.before.rawValue)): an edit cannot change who sees a post, but this server did. "
                    + "Delete it if it should not be \(visibilityChange.after.rawValue).\n")
            }
        }
    }

    /// Runs `operation` at the server; a failure says what went wrong and that nothing changed.
    private func attempt<T: Sendable>(_ session: any AccountSession, _ operation: @escaping @Sendable () async throws -> T) throws(ExitCode) -> T {
        do {
            return try waitFor(operation)
        } catch {
            throw failed(error, session)
        }
    }

    /// Says what went wrong and that nothing changed, and answers the exit status.
    private func failed(_ error: any Error, _ session: any AccountSession) -> ExitCode {
        if let refusal = error as? PostChangeRefusal {
            Terminal.emitError("timeline: \(QuotedValue.quoted(reference)): \(refusal)\n")
            return ExitCode(ExitStatus.dataError)
        }
        // A server without edits says that nothing was changed itself.
        let nothingChanged = if case ServerError.serverLacks = error { "" } else { " Nothing was changed." }
        Terminal.emitError("timeline: \(TerminalText.line(session.account.name)): could not edit \(QuotedValue.quoted(reference)): \(error)\(nothingChanged)\n")
        return ExitCode(exitStatus(for: error))
    }
}
