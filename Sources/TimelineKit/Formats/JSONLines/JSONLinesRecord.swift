/// One non-blank line of a JSON Lines file, decoded and validated.
public enum JSONLinesRecord: Sendable, Equatable {
    /// A `{"type":"user",…}` line.
    case user(User)
    /// A `{"type":"message",…}` line. `readState` is `.overwrite` when the line has a `read`
    /// field and `.keepStored` when it has none (or `null`): then the stored flag stays, and a new
    /// message is unread.
    case message(Message, readState: ReadStateUpdate)
}
