#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A post (a reply, a quote), an edit, a vote, a follow or unfollow, or a delete of the
/// account's own post, written down before it is sent and kept until its server has answered
/// (issue 27, "Offline and failures"): the outbox, kept in the table of the favourites, boosts
/// and bookmarks of ``PendingAction`` (`pending_actions`, a row whose `action` is the change's
/// kind and whose `payload` holds what it carries; migration 14). A change whose server cannot be reached
/// stays here and is sent again by the next `timeline sync`, in `sequence` order, with the same
/// `key`, so that it is done once whatever happened to the first request.
///
/// A waiting post is also a stored message of its own, ``placeholderID`` (`outbox:KEY`), written
/// by the person's account and marked pending, so that `show` paints it at the top of the
/// timeline from its snapshot; the server's post takes its place when the server has it.
public struct OutboxEntry: Sendable, Hashable {
    /// What is to be done.
    public enum Change: Sendable, Hashable {
        /// Publish the draft (a reply when it has `replyTo`, a quote when it has `quoteOf`).
        case post(PostDraft)
        /// Replace the text of the account's own post (a stored ID).
        case edit(messageID: String, text: String)
        /// Vote in the poll of a post (a stored ID) for the options at `choices`, counted from 0.
        case vote(messageID: String, choices: [Int])
        /// Follow the account `handle` (as ``AccountSession/followableHandle(_:)`` answered it).
        case follow(handle: String)
        /// Stop following the account `handle`.
        case unfollow(handle: String)
        /// Delete the account's own post (a stored ID) at its server.
        case delete(messageID: String)
        /// Mute the account `handle` (as ``AccountSession/followableHandle(_:)`` answered it)
        /// until `until` (`nil`: until unmuted): its posts are no longer shown (issue 34).
        case mute(handle: String, until: Date?)
        /// End the mute of the account `handle`.
        case unmute(handle: String)
        /// Block the account `handle`: neither sees the other's posts.
        case block(handle: String)
        /// End the block of the account `handle`.
        case unblock(handle: String)
        /// Mute the word or phrase at the account's server (a Mastodon filter; Bluesky's muted
        /// words) until `until` (`nil`: until unmuted).
        case muteWord(String, until: Date?)
        /// End the mute of the word or phrase at the account's server.
        case unmuteWord(String)

        /// Its word in the table and in what the command line says: `post`, `edit`, `vote`,
        /// `follow`, `unfollow`, `delete`, `mute`, `unmute`, `block`, `unblock`, `mute-word`,
        /// `unmute-word`.
        public var kind: String {
            switch self {
            case .post: "post"
            case .edit: "edit"
            case .vote: "vote"
            case .follow: "follow"
            case .unfollow: "unfollow"
            case .delete: "delete"
            case .mute: "mute"
            case .unmute: "unmute"
            case .block: "block"
            case .unblock: "unblock"
            case .muteWord: "mute-word"
            case .unmuteWord: "unmute-word"
            }
        }

        /// Whether it changes what the person chose not to see (issue 34): a mute, a block, a
        /// muted word or their undo.
        public var isModeration: Bool {
            switch self {
            case .mute, .unmute, .block, .unblock, .muteWord, .unmuteWord: true
            case .post, .edit, .vote, .follow, .unfollow, .delete: false
            }
        }
    }

    /// Its place in the outbox: changes are sent in this order.
    public var sequence: Int64
    /// The account (its name in `timeline accounts`) that makes the change.
    public var account: String
    /// What is to be done.
    public var change: Change
    /// When it was asked for.
    public var createdAt: Date
    /// Chosen once, when the change is queued (``PendingAction/newKey(at:)``), and sent with
    /// every try: Mastodon's `Idempotency-Key` of a post, and on Bluesky the record key of the
    /// post or follow, so that a try whose answer was lost cannot make a second one.
    public var key: String
    /// How many tries its server may have done (as ``PendingAction/attempts``): above 1, a try
    /// that the key does not make harmless looks at the server's state first (a vote reads the
    /// poll; a delete that finds the post gone is done).
    public var attempts: Int

    /// A queued change.
    public init(sequence: Int64, account: String, change: Change, createdAt: Date, key: String, attempts: Int = 0) {
        self.sequence = sequence
        self.account = account
        self.change = change
        self.createdAt = createdAt
        self.key = key
        self.attempts = attempts
    }

    /// The ID of the stored message that stands for a waiting post until its server has it
    /// (`outbox:KEY`); `nil` for any other change.
    public var placeholderID: String? {
        if case .post = change { return Self.placeholderPrefix + key }
        return nil
    }

    /// What begins the ID of every waiting post's stand-in message.
    public static let placeholderPrefix = "outbox:"

    /// Whether `messageID` is a waiting post's stand-in (``placeholderID``).
    public static func isPlaceholder(_ messageID: String) -> Bool {
        messageID.utf8.starts(with: placeholderPrefix.utf8)
    }

    /// The stored message the change is about (an edit's, a vote's, a delete's post; a post's
    /// stand-in), `nil` for a change about an account or a word (a follow, a mute).
    public var messageID: String? {
        switch change {
        case .post: placeholderID
        case let .edit(id, _), let .vote(id, _), let .delete(id): id
        case .follow, .unfollow, .mute, .unmute, .block, .unblock, .muteWord, .unmuteWord: nil
        }
    }
}
