/// One message as terminal lines.
///
/// `lines` has no line feeds; each line is at most the render width in display columns, and
/// any style it has is reset before its end, so a caller can move to an entry, erase its
/// `lines.count` lines and write a new rendering in their place. Entries are separated by one
/// empty line that belongs to neither.
public struct RenderedEntry: Sendable, Hashable {
    /// The ID of the timeline message (for a repost, the repost's ID, not the original's).
    public var messageID: String
    /// The lines, top to bottom.
    public var lines: [String]

    /// An entry for the message `messageID`, shown as `lines`.
    public init(messageID: String, lines: [String]) {
        self.messageID = messageID
        self.lines = lines
    }
}
