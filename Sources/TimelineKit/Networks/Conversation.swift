#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One direct-message conversation of an account (issue 37), as
/// ``ConversationSession/conversations(limit:in:)`` lists it: Mastodon's `GET /api/v1/conversations`
/// (direct statuses grouped by their participants) or a Bluesky chat (`chat.bsky.convo.listConvos`).
///
/// Every text in it is the server's, untrusted: shown through `TerminalText`, and already held
/// to ``Conversation/maximumParticipants`` and ``Conversation/maximumTextCharacters``.
public struct Conversation: Sendable, Hashable {
    /// What a conversation is made of, which says how it is read and answered.
    public enum Kind: Sendable, Hashable {
        /// Direct statuses (Mastodon): its last status is stored, read with `thread`, answered
        /// with a direct reply.
        case statuses
        /// A chat (Bluesky): messages that are not posts, read live and answered in the chat,
        /// never with a public post.
        case chat
    }

    /// The server's ID of the conversation (Mastodon's conversation ID, Bluesky's convo ID).
    public var id: String
    /// Statuses or a chat: how it is read and answered.
    public var kind: Kind
    /// The name of the account it belongs to (``Account/name``).
    public var account: String
    /// Whether the server marks it unread.
    public var isUnread: Bool
    /// How many of its messages are unread, when the server counts them (Bluesky); `nil` when it
    /// only says unread or not (Mastodon).
    public var unreadCount: Int?
    /// The other participants' handles (`alice@example.social`, `bob.bsky.social`), at most
    /// ``maximumParticipants``; the account itself left out where the server lists it.
    public var participants: [String]
    /// How many participants the server named beyond ``participants``.
    public var moreParticipants: Int
    /// The stored ID of its last status (``Kind/statuses``), in the store it was listed into.
    public var lastMessageID: String?
    /// Its last message's text (plain, at most ``maximumTextCharacters``), when it has one.
    public var lastText: String?
    /// The handle of its last message's sender (a DID where the server names no handle).
    public var lastSender: String?
    /// When its last message was written.
    public var lastAt: Date?

    /// The most participants kept of one conversation: a group chat of hundreds is named by its
    /// first ones and a count, not a line that grows without bound.
    public static let maximumParticipants = 20
    /// The most conversations listed at once (``ConversationSession/conversations(limit:in:)``'s
    /// `limit` is held to it).
    public static let maximumListed = 400
    /// The most characters kept of a message's text (Bluesky's chat lexicon allows 10,000
    /// bytes; a Mastodon status is held to the import's limits first).
    public static let maximumTextCharacters = 10_000

    /// `text` held to ``maximumTextCharacters``.
    public static func bounded(_ text: String) -> String {
        text.count > maximumTextCharacters ? String(text.prefix(maximumTextCharacters)) + "…" : text
    }

    /// A conversation with every part given.
    public init(id: String, kind: Kind, account: String, isUnread: Bool, unreadCount: Int? = nil, participants: [String],
                moreParticipants: Int = 0, lastMessageID: String? = nil, lastText: String? = nil, lastSender: String? = nil,
                lastAt: Date? = nil) {
        self.id = id
        self.kind = kind
        self.account = account
        self.isUnread = isUnread
        self.unreadCount = unreadCount
        self.participants = participants
        self.moreParticipants = moreParticipants
        self.lastMessageID = lastMessageID
        self.lastText = lastText
        self.lastSender = lastSender
        self.lastAt = lastAt
    }
}

/// A session whose network has direct-message conversations (issue 37): Mastodon and Bluesky.
/// The command line asks `session as? ConversationSession`; a source without conversations is
/// refused in one line before any request.
public protocol ConversationSession: AccountSession {
    /// The account's conversations, newest first, at most `limit` (held to
    /// ``Conversation/maximumListed``), read in bounded pages. Mastodon stores each one's last
    /// status into `store` (unread), so that its reference works with `thread`, `post
    /// --reply-to` and `open`; Bluesky stores nothing.
    ///
    /// - Throws: `ServerError` (`.serverLacks` when the server has no conversations; the chat
    ///   refusal of an app password without direct messages, said in one line).
    func conversations(limit: Int, in store: TimelineStore) async throws -> [Conversation]

    /// Marks the conversation `id` read at the server (Mastodon's
    /// `POST /api/v1/conversations/:id/read`, Bluesky's `chat.bsky.convo.updateRead`); `store`
    /// is the one the conversation was listed into (nothing is written to it).
    func markConversationRead(_ id: String, in store: TimelineStore) async throws
}
