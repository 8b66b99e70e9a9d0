#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A favourite, boost or bookmark (or its undo) that is written down before it is sent and kept
/// until its server has answered (issue 27, "Offline and failures"): the queue of
/// ``TimelineStore/enqueue(_:account:messageID:key:at:)`` (table `pending_actions`,
/// migration 11). An action whose server cannot be reached stays here, is painted as pending,
/// and is sent again by the next `timeline sync`, in `sequence` order, with the same `key`, so
/// that the server does it once whatever happened to the first request.
public struct PendingAction: Sendable, Hashable {
    /// Its place in the queue: actions are sent in this order.
    public var sequence: Int64
    /// The account (its name in `timeline accounts`) that acts.
    public var account: String
    /// The stored ID of the message acted on.
    public var messageID: String
    /// What is to be done.
    public var action: MessageAction
    /// When it was asked for.
    public var createdAt: Date
    /// Chosen once, when the action is queued, and sent with every try: Mastodon's
    /// `Idempotency-Key`, and on Bluesky the record key of the like or repost, so that a try
    /// whose answer was lost cannot make a second record.
    public var key: String
    /// How many tries its server may have done: counted as a request leaves, and taken back
    /// when the try proves it was not done (connection refused, a 5xx answer). 0: it may still
    /// be cancelled by its opposite without asking the server; above that its server may have
    /// done it, and a retry looks at the server's state first where the network has no key
    /// that would make the retry harmless.
    public var attempts: Int

    /// A queued action.
    public init(sequence: Int64, account: String, messageID: String, action: MessageAction, createdAt: Date,
                key: String, attempts: Int = 0) {
        self.sequence = sequence
        self.account = account
        self.messageID = messageID
        self.action = action
        self.createdAt = createdAt
        self.key = key
        self.attempts = attempts
    }

    /// A new key for an action: 13 characters of the base-32 alphabet AT Protocol record keys
    /// (TIDs) use, from the time in microseconds and 10 random bits, so that keys made by one
    /// account sort by time, as a PDS expects of a record key, and are accepted as Mastodon's
    /// `Idempotency-Key` too.
    public static func newKey(at date: Date) -> String {
        let alphabet = Array("234567abcdefghijklmnopqrstuvwxyz".utf8)
        let microseconds = UInt64(max(0, (date.timeIntervalSince1970 * 1_000_000).rounded()))
        var value = (microseconds & ((1 << 53) - 1)) << 10 | UInt64.random(in: 0 ..< 1024)
        var characters = [UInt8](repeating: 0, count: 13)
        for index in (0 ..< 13).reversed() {
            characters[index] = alphabet[Int(value & 31)]
            value >>= 5
        }
        return String(decoding: characters, as: UTF8.self)
    }
}
