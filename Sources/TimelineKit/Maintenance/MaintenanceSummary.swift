/// What an upkeep run (`TimelineStore.maintain()`, `vacuum()`, the end of a prune) did.
public struct MaintenanceSummary: Sendable, Equatable {
    /// Bytes of the database file plus its WAL before the upkeep (for a prune: before the prune).
    public var bytesBefore: Int
    /// Bytes of the database file plus its WAL after it.
    public var bytesAfter: Int
    /// Pages given back to the file system by `PRAGMA incremental_vacuum` (0 for a full vacuum,
    /// which rebuilds the file instead).
    public var pagesReleased: Int
    /// Whether the WAL was checkpointed completely and truncated. `false` when another process
    /// was reading at that moment; the next write tries again.
    public var walTruncated: Bool

    /// Bytes the database and WAL shrank by (0 when they grew).
    public var bytesReclaimed: Int { max(0, bytesBefore - bytesAfter) }
}
