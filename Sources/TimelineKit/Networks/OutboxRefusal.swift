/// Why ``AccountSession/perform(_:in:at:)`` refused a change before anything was sent.
public enum OutboxRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// It names a post that waits to be sent itself (`outbox:KEY`): it has no ID at its server
    /// yet. Said with the verb (`reply to`, `edit`).
    case waitingPost(verb: String, id: String)

    public var description: String {
        switch self {
        case let .waitingPost(verb, _):
            "that post waits to be sent (run `timeline sync`); you can \(verb) it once its server has it. Nothing was sent."
        }
    }
}
