/// What ``AccountSession/sendPendingActions(in:)`` did with an account's queued actions at the
/// start of a sync: those its server answered, those it refused (taken out, with its reason),
/// and how many still wait (the server could not be reached, or the login must be renewed).
public struct PendingDelivery: Sendable {
    /// One action the server refused, and why (its answer, in a sentence).
    public struct Refusal: Sendable, Hashable {
        public var action: PendingAction
        public var reason: String
    }

    /// The actions sent and answered, in the order they were sent.
    public var sent: [MessageActionOutcome] = []
    /// The actions the server refused: no longer queued; the message is left as the server
    /// last said.
    public var refused: [Refusal] = []
    /// The actions still queued for the account.
    public var stillPending = 0
    /// Why they wait, when some do.
    public var stoppedBy: (any Error)?

    public init() {}

    /// Whether there was anything to send.
    public var isEmpty: Bool { sent.isEmpty && refused.isEmpty && stillPending == 0 }

    /// Adds what was done with the same account's actions queued in another database (a
    /// hashtag's or a list's timeline, kept apart from the main one).
    public mutating func add(_ other: PendingDelivery) {
        sent += other.sent
        refused += other.refused
        stillPending += other.stillPending
        if stoppedBy == nil { stoppedBy = other.stoppedBy }
    }
}
