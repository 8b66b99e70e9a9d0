/// What ``AccountSession/sendPendingActions(in:)`` did with an account's queued actions and
/// outbox at the start of a sync: those its server answered, those it refused (taken out, with
/// its reason), and how many still wait (the server could not be reached, or the login must be
/// renewed).
public struct PendingDelivery: Sendable {
    /// One action the server refused, and why (its answer, in a sentence).
    public struct Refusal: Sendable, Hashable {
        public var action: PendingAction
        public var reason: String
    }

    /// One change of the outbox (``OutboxEntry``) the server refused, and why.
    public struct ChangeRefusal: Sendable, Hashable {
        /// The change, no longer queued.
        public var entry: OutboxEntry
        /// The server's answer, in a sentence.
        public var reason: String

        /// `entry`, refused for `reason`.
        public init(entry: OutboxEntry, reason: String) {
            self.entry = entry
            self.reason = reason
        }
    }

    /// The changes of the outbox (posts, edits, votes, follows, unfollows, deletes) sent and
    /// answered, in the order they were sent, with what the server answered.
    public var changesSent: [(entry: OutboxEntry, result: OutboxResult)] = []
    /// The changes the server refused: no longer queued (a post's stand-in is gone too).
    public var changesRefused: [ChangeRefusal] = []

    /// The actions sent and answered, in the order they were sent.
    public var sent: [MessageActionOutcome] = []
    /// The actions the server refused: no longer queued; the message is left as the server
    /// last said.
    public var refused: [Refusal] = []
    /// The actions and changes still queued for the account.
    public var stillPending = 0
    /// Why they wait, when some do.
    public var stoppedBy: (any Error)?

    public init() {}

    /// Whether there was anything to send.
    public var isEmpty: Bool {
        sent.isEmpty && refused.isEmpty && changesSent.isEmpty && changesRefused.isEmpty && stillPending == 0
    }

    /// Adds what was done with the same account's actions queued in another database (a
    /// hashtag's or a list's timeline, kept apart from the main one).
    public mutating func add(_ other: PendingDelivery) {
        sent += other.sent
        refused += other.refused
        changesSent += other.changesSent
        changesRefused += other.changesRefused
        stillPending += other.stillPending
        if stoppedBy == nil { stoppedBy = other.stoppedBy }
    }
}
