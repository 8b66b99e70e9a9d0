/// What a JSON Lines export wrote.
public struct ExportSummary: Sendable, Equatable {
    /// User lines written.
    public var users: Int
    /// Message lines written.
    public var messages: Int
    /// Bytes written.
    public var bytes: Int

    public init(users: Int = 0, messages: Int = 0, bytes: Int = 0) {
        self.users = users
        self.messages = messages
        self.bytes = bytes
    }
}
