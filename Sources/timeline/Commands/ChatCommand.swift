import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

/// `timeline chat ID [TEXT]` (issue 37): a chat's messages, or one sent to it. A chat is not a
/// thread of posts, so it has its own command, and a message to it is never a post: `post
/// --reply-to` takes posts only.
struct ChatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat", abstract: "Read a chat's messages, or send one to it (never a public post).",
        discussion: """
            A chat is a conversation of direct messages that are not posts (Bluesky's chats); \
            `timeline conversations` lists them as `chat:ID`. With only the ID, prints its newest \
            messages, oldest first (-n, default 30), and marks the chat read at the server. With \
            TEXT (or - to read it from standard input), sends it to the chat and prints it: a \
            message, never a post. Chats are read live and not stored: reading and sending \
            need the network, and an unreachable server is said in one line (nothing is kept to \
            send later: send it again). An app password made without access to direct messages \
            is said in one line, with where to make one that has it.

            Examples:
              timeline conversations
              timeline chat chat:3kabc2def
              timeline chat chat:3kabc2def 'See you at eight'
            """)
    @OptionGroup var location: LocationOptions

    @Argument(help: "The chat: `chat:ID` as `timeline conversations` prints it, or its ID.")
    var id: String

    @Argument(help: "A message to send (- reads it from standard input); without it, the chat is shown.")
    var text: String?

    @Option(name: .long, help: ArgumentHelp("The account the chat is of (its name in `timeline accounts`), when several can chat.", valueName: "name"))
    var account: String?

    @Option(name: [.customShort("n", allowingJoined: true), .customLong("limit")], help: "Show at most this many messages (default 30, at most 500).")
    var limit = 30

    @Flag(name: .long, help: "Print one JSON object per message: {\"id\", \"sender\", \"handle\", \"text\", \"sent_at\", \"deleted\"}.")
    var json = false

    func validate() throws {
        if limit < 1 || limit > ChatMessage.maximumRead { throw ValidationError("-n/--limit must be from 1 to \(ChatMessage.maximumRead), not \(limit).") }
    }

    func run() throws {
        let chats = try ConversationSessions.chosen(account: account, doing: "chat").compactMap { $0 as? any ChatSession }
        guard let session = chats.first, chats.count == 1 else {
            if chats.isEmpty {
                Terminal.emitError("timeline: no logged-in account's network has chats: its conversations are statuses, which `timeline conversations` lists as dm:REF for `timeline thread` and `timeline post --reply-to`. Nothing was sent.\n")
                throw ExitCode(ExitStatus.unavailable)
            }
            let names = chats.map { TerminalText.line($0.account.name) }.joined(separator: ", ")
            Terminal.emitError("timeline: several accounts can chat (\(names)): say which with --account NAME.\n")
            throw ExitCode(ExitStatus.usage)
        }
        let chat = ChatReference.id(id)
        let name = TerminalText.line(session.account.name)
        if let text {
            guard let typed = try PostCommand.typedText(text, done: "sent") else { return }
            if let problem = ChatTextError.problem(typed) {
                Terminal.emitError("timeline: \(problem)\n")
                throw ExitCode(ExitStatus.dataError)
            }
            let sent: ChatMessage
            do {
                sent = try waitFor { () async throws -> ChatMessage in try await session.sendChatMessage(typed, to: chat) }
            } catch {
                Terminal.emitError(ConversationSessions.refusal(error, account: session.account.name, failed: "the message was not sent, and nothing is kept to send later (send it again)") + "\n")
                throw ExitCode(ConversationSessions.status(for: error))
            }
            Terminal.emit(json ? Self.jsonLine(sent) : Self.lines(sent, now: Date()))
            return
        }
        let messages: [ChatMessage]
        do {
            messages = try waitFor { [limit] () async throws -> [ChatMessage] in try await session.chatMessages(in: chat, limit: limit) }
        } catch {
            Terminal.emitError(ConversationSessions.refusal(error, account: session.account.name, failed: "the chat could not be read") + "\n")
            throw ExitCode(ConversationSessions.status(for: error))
        }
        let now = Date()
        Terminal.emit(messages.reversed().map { json ? Self.jsonLine($0) : Self.lines($0, now: now) }.joined())
        if messages.isEmpty, !json { Terminal.emit("No messages in this chat at \(name)'s server.\n") }
        // Read now, so read at the server too; a failure is said, what was read stays shown.
        do {
            try waitFor { () async throws in try await session.markChatRead(chat) }
        } catch {
            Terminal.emitError("timeline: \(name): the chat stays unread at the server: \(error)\n")
        }
    }

    /// A message's lines: sender and age, then its text.
    static func lines(_ message: ChatMessage, now: Date) -> String {
        let sender = TerminalText.line(message.senderHandle ?? message.senderDID)
        let age = message.sentAt.map { "  " + ConversationsCommand.age(of: $0, now: now) } ?? ""
        let body = message.isDeleted ? "  (deleted)" : message.text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { "  " + TerminalText.line(String($0)) }.joined(separator: "\n")
        return sender + age + "\n" + body + "\n"
    }

    static func jsonLine(_ message: ChatMessage) -> String {
        var object = JSONObjectWriter()
        object.add("id", message.id)
        object.add("sender", message.senderDID)
        object.add("handle", message.senderHandle)
        object.add("text", message.text)
        object.add("sent_at", message.sentAt.map { $0.formatted(.iso8601) })
        object.add("deleted", message.isDeleted)
        return object.finish() + "\n"
    }
}
