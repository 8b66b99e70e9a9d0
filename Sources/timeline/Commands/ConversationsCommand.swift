import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

/// `timeline conversations` (issue 37): each account's direct-message conversations, newest
/// first, read live from its server. A conversation of statuses has its last status kept in the
/// conversations' database (`timeline.dm.sqlite`), painted `dm:bkd`, which every command that
/// takes a post takes; a chat is named by its ID, which `timeline chat` takes.
struct ConversationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conversations", abstract: "List your direct-message conversations, newest first.",
        discussion: """
            Reads each logged-in account's conversations from its server (or --account's), \
            newest first, and prints one per conversation: its reference, `unread` when it has \
            messages you have not read, who is in it, and its last message. A Mastodon \
            conversation's last status is kept in a database of its own beside the main one \
            (timeline.dm.sqlite), so `show` never mixes it into your home timeline; its reference \
            is painted `dm:bkd`, which every command that takes a post takes: `timeline thread \
            dm:bkd` shows the conversation and marks it read at the server, `timeline post \
            --reply-to dm:bkd TEXT` answers it (a reply to a direct message stays direct), \
            `open`. A Bluesky chat is named `chat:ID`: `timeline chat chat:ID` reads its \
            messages, `timeline chat chat:ID TEXT` sends one (never a public post). Reading \
            needs the network: an unreachable server is said in one line.

            Examples:
              timeline conversations
              timeline conversations -n 5 --json
              timeline thread dm:bkd
            """)
    @OptionGroup var location: LocationOptions

    @Option(name: .long, help: ArgumentHelp("The account whose conversations to list (its name in `timeline accounts`); by default every account's.", valueName: "name"))
    var account: String?

    @Option(name: [.customShort("n", allowingJoined: true), .customLong("limit")], help: "At most this many conversations per account (default 20, at most 400).")
    var limit = 20

    @Flag(name: .long, help: "Print one JSON object per conversation: {\"reference\", \"id\", \"account\", \"unread\", \"unread_count\", \"participants\", \"last\"}.")
    var json = false

    func validate() throws {
        if limit < 1 || limit > Conversation.maximumListed { throw ValidationError("-n/--limit must be from 1 to \(Conversation.maximumListed), not \(limit).") }
    }

    func run() throws {
        let sessions = try ConversationSessions.chosen(account: account, doing: "conversations")
        let main = try location.location().databasePath
        let path = try reportingErrors { () throws(SourceDatabaseNameError) in try SourceDatabaseName.conversations.path(beside: main) }
        let store = try LocationOptions.openStore(at: path, create: true)
        // A last status the person's rules hide is not printed, and `thread dm:REF` hides it.
        SourceTimelineRequest.takeMainTimelineRules(into: store, main: main)
        var text = "", failure: (any Error)?
        for session in sessions {
            let conversations: [Conversation]
            do {
                conversations = try waitFor { [limit] () async throws -> [Conversation] in try await session.conversations(limit: limit, in: store) }
                try store.recordConversations(conversations)
            } catch {
                Terminal.emitError(ConversationSessions.refusal(error, account: session.account.name, failed: "its conversations could not be read") + "\n")
                failure = error
                continue
            }
            let references = try Self.references(of: conversations, in: store)
            let hidden = try Self.hiddenLastStatuses(of: conversations, in: store)
            for var conversation in conversations {
                let reference = references[conversation.id] ?? ""
                if let reason = conversation.lastMessageID.flatMap({ hidden[$0] }) {
                    conversation.lastText = "(hidden by your rules: \(reason))"
                    conversation.lastSender = nil
                }
                text += json ? Self.jsonLine(conversation, reference: reference) : Self.lines(conversation, reference: reference, now: Date(), showsAccount: sessions.count > 1)
            }
            if conversations.isEmpty, !json { text += "No conversations at \(TerminalText.line(session.account.name))'s server.\n" }
        }
        Terminal.emit(text)
        if let failure { throw ExitCode(ConversationSessions.status(for: failure)) }
    }

    /// The last statuses the person's rules hide, with why, by their stored ID.
    static func hiddenLastStatuses(of conversations: [Conversation], in store: TimelineStore) throws(ExitCode) -> [String: String] {
        let stored = try reportingErrors { try store.messages(ids: conversations.compactMap(\.lastMessageID)) }
        var hidden: [String: String] = [:]
        for message in stored { if let reason = message.hiddenBecause { hidden[message.id] = reason } }
        return hidden
    }

    /// Each conversation's reference, by its ID: `dm:bkd` for a stored last status, `chat:ID`
    /// for a chat.
    static func references(of conversations: [Conversation], in store: TimelineStore) throws(ExitCode) -> [String: String] {
        let stored = try reportingErrors { try store.messages(ids: conversations.compactMap(\.lastMessageID)) }
        let byID = Dictionary(stored.map { ($0.id, $0.shortReference) }, uniquingKeysWith: { first, _ in first })
        var references: [String: String] = [:]
        for conversation in conversations {
            switch conversation.kind {
            case .chat:
                references[conversation.id] = ChatReference.prefix + conversation.id
            case .statuses:
                if let id = conversation.lastMessageID, let reference = byID[id], !reference.isNone {
                    references[conversation.id] = reference.qualified(by: SourceReference.conversationsLabel).text
                }
            }
        }
        return references
    }

    /// The conversation's two lines: reference, unread, participants and age; its last message.
    static func lines(_ conversation: Conversation, reference: String, now: Date, showsAccount: Bool) -> String {
        var head = reference.isEmpty ? "-" : TerminalText.line(reference)
        if conversation.isUnread {
            head += conversation.unreadCount.map { $0 > 0 ? "  unread (\($0))" : "  unread" } ?? "  unread"
        }
        var people = conversation.participants.map { TerminalText.line($0) }.joined(separator: ", ")
        if people.isEmpty { people = "only you" }
        if conversation.moreParticipants > 0 { people += " and \(Counted(conversation.moreParticipants, "other"))" }
        head += "  with " + people
        if let at = conversation.lastAt { head += "  " + age(of: at, now: now) }
        if showsAccount { head += "  (" + TerminalText.line(conversation.account) + ")" }
        var text = head + "\n"
        if let last = conversation.lastText {
            let sender = conversation.lastSender.map { TerminalText.line($0) + ": " } ?? ""
            text += "  " + sender + TerminalText.line(cut(last)) + "\n"
        }
        return text
    }

    /// One line of `--json`.
    static func jsonLine(_ conversation: Conversation, reference: String) -> String {
        var object = JSONObjectWriter()
        object.add("reference", reference)
        object.add("id", conversation.id)
        object.add("account", conversation.account)
        object.add("kind", conversation.kind == .chat ? "chat" : "statuses")
        object.add("unread", conversation.isUnread)
        object.add("unread_count", conversation.unreadCount)
        object.add("participants", conversation.participants)
        if conversation.moreParticipants > 0 { object.add("more_participants", conversation.moreParticipants) }
        if conversation.lastText != nil || conversation.lastMessageID != nil {
            var last = JSONObjectWriter()
            last.add("id", conversation.lastMessageID)
            last.add("sender", conversation.lastSender)
            last.add("text", conversation.lastText)
            last.add("sent_at", conversation.lastAt.map { $0.formatted(.iso8601) })
            object.add("last", object: last)
        }
        return object.finish() + "\n"
    }

    /// The most characters of a last message on its line: the rest is for `thread` or `chat`.
    static let previewCharacters = 200

    private static func cut(_ text: String) -> String {
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return flat.count > previewCharacters ? String(flat.prefix(previewCharacters)) + "…" : flat
    }

    /// `5m`, `3h`, `2d`: how long ago, as `show` says ages.
    static func age(of date: Date, now: Date) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        switch seconds {
        case ..<60: return "now"
        case ..<3_600: return "\(seconds / 60)m"
        case ..<86_400: return "\(seconds / 3_600)h"
        default: return "\(seconds / 86_400)d"
        }
    }
}

/// The sessions `conversations` and `chat` read with.
enum ConversationSessions {
    /// Every logged-in account's session whose network has conversations, or `--account`'s;
    /// refused in one line when there is none.
    static func chosen(account: String?, doing verb: String) throws(ExitCode) -> [any ConversationSession] {
        var sessions = try FollowAccountArguments.sessions(doing: verb)
        if let account {
            let names = sessions.map { TerminalText.line($0.account.name) }.joined(separator: ", ")
            sessions = sessions.filter { $0.account.name == account }
            if sessions.isEmpty {
                Terminal.emitError("timeline: no account is named \(QuotedValue.quoted(account)) (logged in: \(names)).\n")
                throw ExitCode(ExitStatus.usage)
            }
        }
        let able = sessions.compactMap { $0 as? any ConversationSession }
        guard !able.isEmpty else {
            let names = sessions.map { TerminalText.line($0.account.name) }.joined(separator: ", ")
            Terminal.emitError("timeline: \(names): \(sessions.count == 1 ? "its network has" : "their networks have") no direct-message conversations. Nothing was fetched.\n")
            throw ExitCode(ExitStatus.unavailable)
        }
        return able
    }

    /// The exit status of `error`: an app password without chats is a credential to make
    /// anew (77), the rest as every command says them.
    static func status(for error: any Error) -> Int32 {
        error is ChatAccessError ? ExitStatus.noPermission : exitStatus(for: error)
    }

    /// The one line that says why `account` could not do what it was asked.
    /// `failed` says what was not done (`its conversations could not be read`).
    static func refusal(_ error: any Error, account: String, failed: String) -> String {
        if let chat = error as? ChatAccessError { return "timeline: \(TerminalText.line(account)): \(chat)" }
        return "timeline: \(TerminalText.line(account)): \(failed): \(error)"
    }
}
