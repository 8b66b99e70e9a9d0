/// What ``AccountSession/perform(_:in:at:)`` did with a change: done (the server's answer), or
/// kept in the outbox for the next sync because its server could not be reached; and what
/// became of the account's changes that waited before it, which are sent first, in order.
public struct OutboxOutcome: Sendable {
    /// Whether the server has it yet.
    public enum Delivery: Sendable, Hashable {
        /// The server answered.
        case done(OutboxResult)
        /// The server could not be reached (`reason`, in a sentence): the change is kept and
        /// the next `timeline sync` sends it; a post is painted as pending until then.
        case waiting(reason: String)
    }

    /// The change as it was queued (its key, its sequence; a post's stand-in ID).
    public var entry: OutboxEntry
    /// Whether the server has it yet.
    public var delivery: Delivery
    /// The account's changes that waited before it and were sent first.
    public var earlierSent: [OutboxEntry] = []
    /// The account's changes that waited before it and that their server refused now: taken
    /// out, with the server's reason.
    public var earlierRefused: [PendingDelivery.ChangeRefusal] = []

    /// A change's outcome.
    public init(entry: OutboxEntry, delivery: Delivery) {
        self.entry = entry
        self.delivery = delivery
    }

    /// Whether it waits for its server.
    public var isPending: Bool {
        if case .waiting = delivery { true } else { false }
    }
}
