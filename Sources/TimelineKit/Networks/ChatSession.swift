#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One message of a chat (issue 37): Bluesky's `chat.bsky.convo.defs#messageView`, or a
/// `#deletedMessageView` (``isDeleted``, without text). Not a post: never stored in a timeline,
/// never answered with a public post. Its text is the sender's, untrusted.
public struct ChatMessage: Sendable, Hashable {
    /// The message's ID in its chat.
    public var id: String
    /// The sender's DID.
    public var senderDID: String
    /// The sender's handle, when the chat's members name it.
    public var senderHandle: String?
    /// Its text, held to ``Conversation/maximumTextCharacters``; empty for a deleted message.
    public var text: String
    /// When it was sent, as its server says.
    public var sentAt: Date?
    /// Whether the message was deleted (only its sender and time remain).
    public var isDeleted: Bool

    /// A message with every part given.
    public init(id: String, senderDID: String, senderHandle: String? = nil, text: String, sentAt: Date?, isDeleted: Bool = false) {
        self.id = id
        self.senderDID = senderDID
        self.senderHandle = senderHandle
        self.text = text
        self.sentAt = sentAt
        self.isDeleted = isDeleted
    }

    /// The most bytes of UTF-8 a message sent may have (the lexicon's `messageInput.text`,
    /// `maxLength` 10,000).
    public static let maximumSentBytes = 10_000
    /// The most graphemes a message sent may have (its `maxGraphemes`, 1,000).
    public static let maximumSentCharacters = 1_000
    /// The most messages read from one chat at once.
    public static let maximumRead = 500
}

/// A session whose conversations are chats (issue 37: Bluesky's `chat.bsky.convo`): messages
/// read and sent in the chat, through the account's PDS, never as posts.
public protocol ChatSession: ConversationSession {
    /// The chat's newest messages, at most `limit` (held to ``ChatMessage/maximumRead``), newest
    /// first, read in bounded pages.
    func chatMessages(in conversationID: String, limit: Int) async throws -> [ChatMessage]

    /// Marks the chat `conversationID` read at the server (all of it).
    func markChatRead(_ conversationID: String) async throws

    /// Sends `text` to the chat `conversationID` and answers the message as the server made it.
    ///
    /// - Throws: ``ChatAccessError`` when the credentials may not use
    ///   chats; `ServerError`; ``ChatTextError`` for a text the lexicon refuses (said before
    ///   anything is sent).
    func sendChatMessage(_ text: String, to conversationID: String) async throws -> ChatMessage
}

/// A chat message's text that the network would refuse: empty, or longer than its lexicon
/// allows. Nothing was sent.
public struct ChatTextError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The sentence: what is wrong with the text, and that nothing was sent.
    public let description: String

    /// Why `text` cannot be sent as a chat message, or `nil` when it can.
    public static func problem(_ text: String) -> ChatTextError? {
        if text.allSatisfy(\.isWhitespace) { return ChatTextError(description: "a chat message cannot be empty. Nothing was sent.") }
        if text.utf8.count > ChatMessage.maximumSentBytes || text.count > ChatMessage.maximumSentCharacters {
            return ChatTextError(description: "a chat message is at most \(ChatMessage.maximumSentCharacters) characters and \(ChatMessage.maximumSentBytes) bytes; this one is \(text.count) characters, \(text.utf8.count) bytes. Nothing was sent.")
        }
        return nil
    }
}
