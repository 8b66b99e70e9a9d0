import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

// `mute`, `unmute`, `block`, `unblock` (accounts and words), `muted`, `blocked` and `report`
// (issue 34): what a person chose not to see, done at their server through the outbox
// (``AccountSession/moderate(_:userIDs:in:at:)``), and in their rules at once so the next paint
// leaves it out. No command names a network.

/// The arguments `mute`, `unmute`, `block` and `unblock` share.
struct ModerationArguments: ParsableArguments {
    @OptionGroup var location: LocationOptions

    @Argument(help: "Accounts: @user@server.example or user@server.example (Mastodon), name.bsky.social or a DID (Bluesky), or a message's short reference (its author).")
    var accounts: [String] = []

    @Option(name: .long, help: ArgumentHelp("The account to act as (its name in `timeline accounts`); by default the one account whose network the handle belongs to (for --word: every account).", valueName: "name"))
    var account: String?

    @Flag(name: .long, help: "Print one JSON object per account or word: {\"action\", \"handle\" or \"word\", \"id\", \"name\", \"account\", \"changed\"} (\"pending\" and \"reason\" when kept for the next sync).")
    var json = false

    /// One change for each account named, each sent by the session whose network it belongs to:
    /// `change` makes the change of a handle. Every account is checked, and its session chosen,
    /// before any request.
    func run(verb: String, until: Date? = nil, _ change: (String) -> OutboxEntry.Change) throws {
        if accounts.isEmpty { throw ValidationError("Give at least one account: user@server.example, name.bsky.social, or a message's short reference.") }
        let sessions = try FollowAccountArguments.sessions(doing: verb, policy: OutboxRequest.policy)
        let store = try location.openStore(create: true)
        var plan: [(typed: String, handle: String, userIDs: [String], session: any AccountSession)] = []
        for typed in accounts {
            plan.append(try ModerationTarget.resolve(typed, among: sessions, named: account, verb: verb, in: store))
        }
        if until != nil, let refusal = plan.lazy.compactMap({ $0.session.refusal(of: .timedMute) }).first {
            Terminal.emitError("timeline: \(refusal) Nothing was sent.\n")
            throw ExitCode(ExitStatus.usage)
        }
        var done = 0
        for (typed, handle, userIDs, session) in plan {
            let request = OutboxRequest(session: session, store: store, what: "the \(verb) of \(TerminalText.line(typed))")
            do {
                let outcome = try request.perform(change(handle), userIDs: userIDs)
                done += 1
                ModerationReport(json: json, verb: verb, account: session.account.name).say(outcome, request: request, named: handle)
            } catch let exit as ExitCode {
                throw exit
            } catch {
                Terminal.emitError("timeline: \(TerminalText.line(session.account.name)): could not \(verb) \(TerminalText.line(typed)): \(error) Nothing was changed.\n")
                if done > 0 { Terminal.emitError("timeline: \(Counted(done, "account")) before it \(done == 1 ? "was" : "were") done.\n") }
                throw ExitCode(exitStatus(for: error))
            }
        }
    }

    /// The word muted or unmuted at each account's server (`--account`: one), one line each.
    func runWord(_ word: String, verb: String, _ change: OutboxEntry.Change) throws {
        try ModerationTarget.check(word: word)
        if !accounts.isEmpty { throw ValidationError("Give either accounts or --word, not both: \(verb) --word WORD mutes a word everywhere.") }
        var sessions = try FollowAccountArguments.sessions(doing: verb, policy: OutboxRequest.policy)
        if let account { sessions = [try ModerationTarget.session(named: account, among: sessions)] }
        let store = try location.openStore(create: true)
        // Each server on its own: one that lacks muted words (Takahē has no filters) does not
        // keep the word from the others; the exit status says the first failure.
        var failure: Int32?
        for session in sessions {
            let request = OutboxRequest(session: session, store: store, what: "the \(verb) of the word \u{201C}\(TerminalText.line(word))\u{201D}")
            do {
                let outcome = try request.perform(change)
                ModerationReport(json: json, verb: verb, account: session.account.name).say(outcome, request: request, named: word)
            } catch let exit as ExitCode {
                throw exit
            } catch {
                Terminal.emitError("timeline: \(TerminalText.line(session.account.name)): could not \(verb) the word \(QuotedValue.quoted(word)): \(error)\n")
                failure = failure ?? exitStatus(for: error)
            }
        }
        if let failure { throw ExitCode(failure) }
    }
}

/// How an ACCOUNT argument names an account: a message's short reference (its author) or a
/// handle, and the session that acts on it.
enum ModerationTarget {
    /// `typed` as a handle for one session, with the stored users it is known to be: a word with
    /// no `@`, `.` or `:` that names a stored message is that message's author (a repost's: the
    /// author of the post it reposts); anything else is a handle, as `follow` reads one.
    static func resolve(_ typed: String, among sessions: [any AccountSession], named account: String?, verb: String,
                        in store: TimelineStore) throws(ExitCode) -> (typed: String, handle: String, userIDs: [String], session: any AccountSession) {
        let plain = !typed.contains(where: { "@.:/".contains($0) })
        if plain, let id = try? store.resolveMessageReferences([typed]).first, (try? store.message(id: id)) != nil {
            let author = try author(of: id, named: typed, among: MessageSessions(sessions: sessions, account: account, verb: verb),
                                    in: store).orExit()
            return (typed, author.handle, [author.user.id], author.session)
        }
        let (_, handle, session) = try FollowAccountArguments.session(for: typed, among: sessions, named: account, verb: verb)
        return (typed, handle, [], session)
    }

    /// The author of the stored message `id` (a repost's: the author of the post it reposts) as
    /// the account that can mute or block them knows them: the handle to send (a Bluesky
    /// author's DID), the stored user (to name them to a person), and the session of the account
    /// whose server the post came from; or why not, unsaid
    /// (`mute REF` says it and exits, `browse`'s `M` and `B` put it on the status line).
    static func author(of id: String, named reference: String, among sessions: MessageSessions, in store: TimelineStore)
        -> Result<(handle: String, user: User, session: any AccountSession), MessageSessions.Refusal> {
        guard let message = try? store.message(id: id) else {
            return .failure(.init(message: "no stored message is \(QuotedValue.quoted(reference)). Nothing was sent.", status: ExitStatus.dataError))
        }
        let original = message.repostOfID.flatMap { try? store.message(id: $0) } ?? message
        guard let author = try? store.users(ids: [original.authorID]).first else {
            return .failure(.init(message: "the author of \(QuotedValue.quoted(reference)) is not stored. Nothing was sent.", status: ExitStatus.dataError))
        }
        let chosen: any AccountSession
        switch sessions.choose(for: original.id, named: reference) {
        case let .success(session): chosen = session
        case let .failure(refusal): return .failure(refusal)
        }
        guard let handle = chosen.moderatableHandle(of: author) else {
            return .failure(.init(message: "the author of \(QuotedValue.quoted(reference)) (@\(TerminalText.line(author.handle))) is not an account \(TerminalText.line(chosen.account.name)) can \(sessions.verb). Nothing was sent.",
                                  status: ExitStatus.usage))
        }
        return .success((handle, author, chosen))
    }

    /// The session of the account named `name`, or a refusal naming those logged in.
    static func session(named name: String, among sessions: [any AccountSession]) throws(ExitCode) -> any AccountSession {
        guard let chosen = sessions.first(where: { $0.account.name == name }) else {
            let names = sessions.map { TerminalText.line($0.account.name) }.joined(separator: ", ")
            Terminal.emitError("timeline: no account is named \(QuotedValue.quoted(name)) (logged in: \(names)).\n")
            throw ExitCode(ExitStatus.usage)
        }
        return chosen
    }

    /// Refuses a word that cannot be muted: empty, a line break or a control character, or
    /// longer than 1,000 characters (Bluesky's limit for a muted word).
    static func check(word: String) throws(ValidationError) {
        let letters = word.filter { !$0.isWhitespace }
        if letters.isEmpty || letters == "#" { throw ValidationError("--word is empty: give the word or phrase to mute, such as --word spoilers.") }
        if word.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw ValidationError("--word \(QuotedValue.quoted(word)) holds a line break or a control character: give one word or phrase on one line.")
        }
        if word.count > 1_000 { throw ValidationError("--word is \(word.count) characters long; a muted word is at most 1,000.") }
    }

    /// The end of a mute `--for` asks for, from now.
    static func until(_ duration: String?, now: Date = Date()) throws(ValidationError) -> Date? {
        guard let duration else { return nil }
        guard let limit = AgeLimit(duration) else {
            throw ValidationError("--for \(QuotedValue.quoted(duration)) is not a duration: write \(AgeLimit.usage).")
        }
        return now.addingTimeInterval(TimeInterval(limit.seconds))
    }
}

/// What a mute, block or muted word did, said in one line (or one JSON object).
struct ModerationReport {
    var json: Bool
    var verb: String
    var account: String

    func say(_ outcome: OutboxOutcome, request: OutboxRequest, named: String) {
        let isWord = if case .muteWord = outcome.entry.change { true } else if case .unmuteWord = outcome.entry.change { true } else { false }
        switch outcome.delivery {
        case let .waiting(reason):
            request.waiting(reason, json: json) { object in
                object.add("action", verb)
                object.add(isWord ? "word" : "handle", named)
            }
            if !json { Terminal.emit("Its stored posts are \(verb.hasPrefix("un") ? "shown again" : "hidden") already.\n") }
        case let .done(.moderated(answer)):
            if json {
                var object = JSONObjectWriter()
                object.add("action", verb)
                if isWord {
                    object.add("word", named)
                } else {
                    object.add("handle", answer.user?.handle ?? named)
                    object.add("id", answer.storedUserID ?? "")
                    object.add("name", answer.user?.name ?? "")
                }
                object.add("account", account)
                object.add("changed", answer.changed)
                Terminal.emit(object.finish() + "\n")
                return
            }
            var who = isWord ? "the word \u{201C}\(TerminalText.line(named))\u{201D}" : "@" + TerminalText.line(answer.user?.handle ?? named)
            if !isWord, let name = answer.user?.name, !name.isEmpty { who += " (" + TerminalText.line(name) + ")" }
            let done = verb.prefix(1).uppercased() + verb.dropFirst() + (verb.hasSuffix("e") ? "d" : "ed")
            var line = answer.changed ? "\(done) \(who)" : "\(who.prefix(1).uppercased() + who.dropFirst()) was \(verb.hasPrefix("un") ? "not \(verb.dropFirst(2))d" : "\(verb)\(verb.hasSuffix("e") ? "d" : "ed")") already"
            if case let .mute(_, until?) = outcome.entry.change { line += " until \(Self.time(until))" }
            if case let .muteWord(_, until?) = outcome.entry.change { line += " until \(Self.time(until))" }
            Terminal.emit("\(line), as \(TerminalText.line(account)).\n")
        case .done:
            break
        }
    }

    /// `2026-12-06 10:00 UTC`.
    static func time(_ date: Date) -> String {
        let text = date.formatted(.iso8601)
        return String(text.prefix(16).map { $0 == "T" ? " " : $0 }) + " UTC"
    }
}

struct MuteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mute", abstract: "Mute accounts, or a word, so their posts are not shown.",
        discussion: """
            Mutes the accounts at your server (Mastodon: a mute, with --for its end; Bluesky: a \
            mute, which has no end) so their posts leave your timeline, and their posts already \
            stored leave the next `show` at once, without a sync. An account is @user@server.example \
            or user@server.example, name.bsky.social or a DID, or a message's short reference (its \
            author; a boost's: the author of the post boosted). --account NAME says which account \
            mutes when several could.

            --word WORD mutes a word or phrase (whole words, any case) at every logged-in \
            account's server (Mastodon: a filter titled WORD that hides it in every timeline; \
            Bluesky: a muted word of its preferences, in the text and the tags), or at one with \
            --account NAME; posts holding it are hidden here at once.

            --for DURATION ends the mute by itself: 90m, 12h, 7d, 2w or 1y.

            Offline: the mute is kept and sent by the next `timeline sync`; the posts are hidden \
            here already (exit status 0; --json: "pending": true, "reason").

            Examples:
              timeline mute alice@example.social
              timeline mute bkd --for 7d
              timeline mute --word spoilers --for 2w
            """)

    @OptionGroup var arguments: ModerationArguments

    @Option(name: .long, help: ArgumentHelp("Mute this word or phrase instead of accounts.", valueName: "word"))
    var word: String?

    @Option(name: .customLong("for"), help: ArgumentHelp("End the mute after this long: 90m, 12h, 7d, 2w, 1y.", valueName: "duration"))
    var duration: String?

    func validate() throws {
        _ = try ModerationTarget.until(duration)
        if let word { try ModerationTarget.check(word: word) }
    }

    func run() throws {
        let until = try ModerationTarget.until(duration)
        if let word { return try arguments.runWord(word, verb: "mute", .muteWord(word, until: until)) }
        try arguments.run(verb: "mute", until: until) { handle in .mute(handle: handle, until: until) }
    }
}

struct UnmuteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unmute", abstract: "Unmute accounts, or a word.",
        discussion: """
            Ends the mute of the accounts (or, with --word, of a word at every account's server, \
            or at --account's) at your server, and here at once: their stored posts are shown \
            again by the next `show`. Accounts and --account as for `timeline mute`; offline, the \
            unmute is kept and sent by the next `timeline sync`.

            Examples:
              timeline unmute alice@example.social
              timeline unmute --word spoilers
            """)

    @OptionGroup var arguments: ModerationArguments

    @Option(name: .long, help: ArgumentHelp("Unmute this word or phrase instead of accounts.", valueName: "word"))
    var word: String?

    func validate() throws {
        if let word { try ModerationTarget.check(word: word) }
    }

    func run() throws {
        if let word { return try arguments.runWord(word, verb: "unmute", .unmuteWord(word)) }
        try arguments.run(verb: "unmute") { handle in .unmute(handle: handle) }
    }
}

struct BlockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "block", abstract: "Block accounts: neither of you sees the other.",
        discussion: """
            Blocks the accounts at your server (Mastodon: a block; Bluesky: a block record in \
            your repository) and hides their stored posts here at once. Accounts and --account \
            as for `timeline mute`; offline, the block is kept and sent by the next `timeline sync`.

            Examples:
              timeline block spammer@example.social
              timeline block bkd
            """)

    @OptionGroup var arguments: ModerationArguments

    func run() throws {
        try arguments.run(verb: "block") { handle in .block(handle: handle) }
    }
}

struct UnblockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unblock", abstract: "Unblock accounts.",
        discussion: """
            Ends the block of the accounts at your server (Bluesky: deletes your block record) \
            and here at once. Accounts and --account as for `timeline mute`; offline, the unblock \
            is kept and sent by the next `timeline sync`.

            Examples:
              timeline unblock spammer@example.social
            """)

    @OptionGroup var arguments: ModerationArguments

    func run() throws {
        try arguments.run(verb: "unblock") { handle in .unblock(handle: handle) }
    }
}
