/// TimelineKit: a SQLite store for a timeline of messages, with an LZ4-compressed snapshot of its
/// newest part that a terminal can paint without opening the database.
public enum TimelineKit {
    /// The library's version, as reported by `timeline --version`.
    public static let version = "0.1.0"
}
