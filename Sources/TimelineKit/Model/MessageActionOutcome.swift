/// What ``AccountSession/act(_:on:in:)`` did: the message acted on (a repost's original: a
/// boost has nothing of its own to favourite) and the account's interactions with it after.
public struct MessageActionOutcome: Sendable, Hashable {
    /// The action done.
    public var action: MessageAction
    /// The stored ID of the message acted on.
    public var messageID: String
    /// The account's favourite, boost and bookmark of the message, as the server answered.
    public var interaction: MessageInteraction

    /// An action's outcome.
    public init(action: MessageAction, messageID: String, interaction: MessageInteraction) {
        self.action = action
        self.messageID = messageID
        self.interaction = interaction
    }
}
