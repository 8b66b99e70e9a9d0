/// A chat the account's credentials may not read or write (issue 37): a Bluesky app password
/// made without "Allow access to your direct messages" is refused by the chat service, which the
/// person can only put right at their network, so the error says where, in one sentence.
public struct ChatAccessError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The sentence: what cannot be done and where to make credentials that can.
    public let description: String

    /// The error saying `description`.
    public init(_ description: String) {
        self.description = description
    }
}
