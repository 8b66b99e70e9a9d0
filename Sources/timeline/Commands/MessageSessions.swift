import ArgumentParser
import TimelineKit

/// The logged-in accounts' sessions, and which one acts on a stored message: `--account`'s, or
/// the one account whose server the message came from (``AccountSession/holds(messageID:)``).
/// What every command acting on a message at its server shares (`favourite` and the other
/// actions, `edit`, `vote`); `verb` says what it does, for the refusals.
struct MessageSessions {
    let sessions: [any AccountSession]
    /// `--account`, when given.
    let account: String?
    /// What is being done, for the refusals (`favourite`, `vote in`).
    var verb: String

    /// Why no session can act: the sentence (after `timeline: `) and the exit status.
    struct Refusal: Error {
        var message: String
        var status: Int32
    }

    /// Every logged-in account's session, patient as `policy` says; refused (64) when none is
    /// logged in.
    static func open(account: String?, verb: String, policy: RequestPolicy = RequestPolicy()) throws(ExitCode) -> MessageSessions {
        try load(account: account, verb: verb, policy: policy).orExit()
    }

    /// Every logged-in account's session, or why there is none, without saying it: `browse`
    /// shows it on its status line.
    static func load(account: String?, verb: String, policy: RequestPolicy = RequestPolicy()) -> Result<MessageSessions, Refusal> {
        do {
            let accountStore = try AccountStore.standard()
            let accounts = try accountStore.hasAccountsFile ? accountStore.accounts() : []
            guard !accounts.isEmpty else {
                return .failure(Refusal(message: "\(verb) is done at your server, and no account is logged in: \(Account.Network.loginHint()).",
                                        status: ExitStatus.usage))
            }
            let transport = CurlTransport()
            let sessions = try accounts.map { try accountStore.session(for: $0, transport: transport, policy: policy) }
            return .success(MessageSessions(sessions: sessions, account: account, verb: verb))
        } catch {
            return .failure(Refusal(message: "\(error)", status: exitStatus(for: error)))
        }
    }

    /// The stored IDs of the messages `references` name, in order; refused (65) naming those that
    /// name none, with nothing done.
    static func resolve(_ references: [String], in store: TimelineStore, verb: String) throws(ExitCode) -> [String] {
        do throws(TimelineStoreError) {
            return try store.resolveMessageReferences(references)
        } catch {
            throw refusal(error)
        }
    }

    /// A reference that could not be resolved, said: unknown ones named (65), anything else
    /// as the store words it.
    static func refusal(_ error: TimelineStoreError) -> ExitCode {
        guard case let .unknownMessages(unknown, _) = error else { return fail(error) }
        let named = unknown.map(QuotedValue.quoted).joined(separator: ", ")
        Terminal.emitError("timeline: no stored message is \(named) (a short reference as `show` paints it, a stored ID, the server's ID or the post's web address). Nothing was sent to a server.\n")
        return ExitCode(ExitStatus.dataError)
    }

    /// The session to act on `id` with: `--account`'s, or the one account whose server the
    /// message came from; refused (64) with the reason said.
    func session(for id: String, named reference: String) throws(ExitCode) -> any AccountSession {
        try choose(for: id, named: reference).orExit()
    }

    /// The session to act on `id` with, or why none can, without saying it.
    func choose(for id: String, named reference: String) -> Result<any AccountSession, Refusal> {
        let holding = sessions.filter { $0.holds(messageID: id) }
        func refused(_ message: String) -> Result<any AccountSession, Refusal> {
            .failure(Refusal(message: message, status: ExitStatus.usage))
        }
        if let account {
            guard let chosen = sessions.first(where: { $0.account.name == account }) else {
                let names = sessions.map { TerminalText.line($0.account.name) }.joined(separator: ", ")
                return refused("no account is named \(QuotedValue.quoted(account)) (logged in: \(names)).")
            }
            guard chosen.holds(messageID: id) else {
                return refused("\(QuotedValue.quoted(reference)) did not come from \(TerminalText.line(chosen.account.name))'s server, so that account cannot \(verb) it there\(holding.isEmpty ? "" : " (\(holding.map { TerminalText.line($0.account.name) }.joined(separator: ", ")) can)"). Nothing was changed.")
            }
            return .success(chosen)
        }
        if holding.count == 1 { return .success(holding[0]) }
        if holding.isEmpty {
            return refused("\(QuotedValue.quoted(reference)) (\(TerminalText.line(id))) did not come from the server of any logged-in account, so none can \(verb) it there (it was imported, or its account logged out). Nothing was changed.")
        }
        let names = holding.map { TerminalText.line($0.account.name) }.joined(separator: ", ")
        return refused("several accounts could \(verb) \(QuotedValue.quoted(reference)) (\(names)): say which with --account NAME. Nothing was changed.")
    }

    /// A stored message as its screen names it: its short reference, else its ID.
    static func reference(of id: String, in store: TimelineStore) -> String {
        let message = try? store.message(id: id)
        return message.map { $0.shortReference.isNone ? $0.id : $0.shortReference.text } ?? id
    }

    /// The words naming a stored message for a person: its short reference (else its ID) and
    /// its author's handle.
    static func name(of id: String, in store: TimelineStore) -> String {
        let message = try? store.message(id: id)
        var named = message.map { $0.shortReference.isNone ? $0.id : $0.shortReference.text } ?? id
        if let author = message.flatMap({ try? store.users(ids: [$0.authorID]).first }), !author.handle.isEmpty {
            named += " by @" + author.handle
        }
        return TerminalText.line(named)
    }
}

extension Result where Failure == MessageSessions.Refusal {
    /// The value, or the refusal said on standard error and its exit status thrown.
    func orExit() throws(ExitCode) -> Success {
        switch self {
        case let .success(value): return value
        case let .failure(refusal):
            Terminal.emitError("timeline: \(refusal.message)\n")
            throw ExitCode(refusal.status)
        }
    }
}
