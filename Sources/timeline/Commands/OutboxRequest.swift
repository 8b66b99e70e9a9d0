#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ArgumentParser
import TimelineKit

/// What `post`, `edit`, `vote`, `follow`, `unfollow` and `delete` share since their changes go
/// through the outbox (issue 27, "Offline and failures"): ``AccountSession/perform(_:in:at:)``
/// and what is said when a change waits, is kept or was refused. No network is named.
///
/// A change whose server cannot be reached is kept and sent by the next `timeline sync`: the
/// command says so in one line on standard output and exits 0, as `favourite` does. One that
/// cannot be sent until the person acts (an expired login) is kept too, said on standard error,
/// with the error's exit status (77: log in again).
struct OutboxRequest {
    let session: any AccountSession
    let store: TimelineStore
    /// What is done, for the person, as the subject of a sentence: `the post`, `the edit of
    /// bkd`, `the follow of alice@example.social`.
    let what: String

    /// The patience of a person waiting at the terminal (as the action commands): one retry,
    /// soon; a change whose server cannot be reached is not lost but kept for the next sync,
    /// which retries as a sync does.
    static let policy = RequestPolicy(maximumAttempts: 2, initialBackoff: .milliseconds(500), requestTimeout: .seconds(20))

    /// Makes `change` at the server. Throws `ExitCode` for a kept change (said here), the
    /// change's own error otherwise (the command says it as it always has).
    ///
    /// A mute, block or muted word (``OutboxEntry/Change/isModeration``) goes into the account's
    /// rules first (``AccountSession/moderate(_:userIDs:in:at:)``), for the stored users
    /// `userIDs` too.
    func perform(_ change: OutboxEntry.Change, userIDs: [String] = []) throws -> OutboxOutcome {
        let session = session
        let store = store
        let outcome: OutboxOutcome
        do {
            outcome = try waitFor { () async throws -> OutboxOutcome in
                change.isModeration ? try await session.moderate(change, userIDs: userIDs, in: store)
                                    : try await session.perform(change, in: store)
            }
        } catch let kept as OutboxEntryKept {
            Terminal.emitError("timeline: \(TerminalText.line(session.account.name)): \(what) could not be sent now: \(kept.reason) It is kept, and the first `timeline sync` after that is put right sends it.\n")
            throw ExitCode(exitStatus(for: kept.reason))
        }
        for refusal in outcome.earlierRefused {
            Terminal.emitError("timeline: \(TerminalText.line(session.account.name)): the server refused \(Self.describe(refusal.entry, in: store)), asked for while it could not be reached: \(TerminalText.line(refusal.reason)) It is no longer pending.\n")
        }
        for entry in outcome.earlierSent {
            Terminal.emitError("timeline: \(TerminalText.line(session.account.name)): sent \(Self.describe(entry, in: store)), which waited.\n")
        }
        return outcome
    }

    /// The line of a change kept for the next sync, on standard output.
    func waiting(_ reason: String) {
        Terminal.emit("Not sent yet: \(what) as \(TerminalText.line(session.account.name)) is kept and sent by the next `timeline sync` (\(TerminalText.line(reason))).\n")
    }

    /// A change kept for the next sync, said on standard output: the line of `waiting(_:)`, or
    /// with `--json` one object: what `fields` writes (the action and what it names), then
    /// `account`, `pending` and `reason`.
    func waiting(_ reason: String, json: Bool, fields: (inout JSONObjectWriter) -> Void) {
        guard json else { return waiting(reason) }
        var object = JSONObjectWriter()
        fields(&object)
        object.add("account", session.account.name)
        object.add("pending", true)
        object.add("reason", reason)
        Terminal.emit(object.finish() + "\n")
    }

    /// A waiting change as a person knows it: `the post "Shipping today…"`, `the edit of bkd`,
    /// `the follow of @alice`; neutralised for the terminal.
    static func describe(_ entry: OutboxEntry, in store: TimelineStore?) -> String {
        func named(_ id: String) -> String {
            guard let store else { return TerminalText.line(id) }
            return MessageSessions.name(of: id, in: store)
        }
        switch entry.change {
        case let .post(draft):
            let words = draft.text.split(whereSeparator: \.isWhitespace)
            let shown = words.prefix(8).joined(separator: " ") + (words.count > 8 ? "…" : "")
            let kind = draft.replyTo != nil ? "reply" : draft.quoteOf != nil ? "quote" : "post"
            return "the \(kind) \u{201C}\(TerminalText.line(shown))\u{201D}"
        case let .edit(id, _): return "the edit of \(named(id))"
        case let .vote(id, _): return "the vote in \(named(id))"
        case let .follow(handle): return "the follow of @\(TerminalText.line(handle))"
        case let .unfollow(handle): return "the unfollow of @\(TerminalText.line(handle))"
        case let .delete(id): return "the delete of \(named(id))"
        case let .mute(handle, _): return "the mute of @\(TerminalText.line(handle))"
        case let .unmute(handle): return "the unmute of @\(TerminalText.line(handle))"
        case let .block(handle): return "the block of @\(TerminalText.line(handle))"
        case let .unblock(handle): return "the unblock of @\(TerminalText.line(handle))"
        case let .muteWord(word, _): return "the mute of the word \u{201C}\(TerminalText.line(word))\u{201D}"
        case let .unmuteWord(word): return "the unmute of the word \u{201C}\(TerminalText.line(word))\u{201D}"
        }
    }
}
