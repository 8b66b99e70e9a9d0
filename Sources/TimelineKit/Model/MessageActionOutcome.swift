/// What ``AccountSession/act(_:on:in:at:)`` did: the message acted on (a repost's original: a
/// boost has nothing of its own to favourite) and the account's interactions with it after.
public struct MessageActionOutcome: Sendable, Hashable {
    /// Whether the server has it yet.
    public enum Delivery: Sendable, Hashable {
        /// The server answered: `interaction` is its word.
        case done
        /// The server could not be reached (`reason`, in a sentence): the action is queued
        /// (``PendingAction``) and the next `timeline sync` sends it; `interaction` is what it
        /// will make, painted as pending until then.
        case waiting(reason: String)
        /// It undid an action of the opposite kind that was queued and never sent: neither is
        /// sent, and `interaction` is the server's last word.
        case cancelled
    }

    /// The action done.
    public var action: MessageAction
    /// The stored ID of the message acted on.
    public var messageID: String
    /// The account's favourite, boost and bookmark of the message, as the server answered (or,
    /// while it waits, as it will answer).
    public var interaction: MessageInteraction
    /// Whether the server has it yet.
    public var delivery: Delivery

    /// An action's outcome.
    public init(action: MessageAction, messageID: String, interaction: MessageInteraction, delivery: Delivery = .done) {
        self.action = action
        self.messageID = messageID
        self.interaction = interaction
        self.delivery = delivery
    }

    /// Whether it waits for its server (queued, not sent yet).
    public var isPending: Bool {
        if case .waiting = delivery { true } else { false }
    }
}
