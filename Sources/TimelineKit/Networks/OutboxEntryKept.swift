/// A change of the outbox (``OutboxEntry``) that could not be sent for a reason the person must
/// put right first (an expired login, a failing `token_command`): it is kept, and `reason` says
/// why; the first `timeline sync` after that is put right sends it.
public struct OutboxEntryKept: Error, Sendable, CustomStringConvertible {
    /// The kept change.
    public var entry: OutboxEntry
    /// Why it could not be sent.
    public var reason: any Error

    public var description: String { "\(reason)" }
}
