/// What a `TimelineStore` does by itself to keep its database small and quick, from its write
/// paths only (never from a read such as `timeline show`).
///
/// - After every write transaction, when the WAL has grown past `walSizeLimit` (one huge import,
///   or a long-running reader that kept SQLite's automatic checkpoints from restarting the WAL),
///   the store runs `PRAGMA optimize` and a `wal_checkpoint(TRUNCATE)` that empties the WAL file.
///   It waits at most a moment for readers; if one is still reading, the next write tries again.
/// - Every `interval` (a week by default, as the original program did), the first write
///   after it has passed also does the upkeep: `PRAGMA optimize`, giving free pages back to the
///   file system (`PRAGMA incremental_vacuum`) when they are a quarter of the file or more, and
///   the checkpoint. The time is recorded in the database's `maintenance` table.
/// - `TimelineStore.prune(olderThan:keepUnread:dryRun:)` ends with the upkeep and always gives the
///   pages it freed back. `TimelineStore.vacuum()` rewrites the whole file (never automatic: it
///   takes as long as copying the database, and needs as much free disk space).
/// - `journal_size_limit` is set to `walSizeLimit`, so a WAL that SQLite resets is also cut back.
public struct MaintenancePolicy: Sendable, Equatable {
    /// How often the upkeep runs by itself; `nil` never (run `TimelineStore.maintain()` yourself).
    public var interval: Duration?
    /// The WAL size in bytes above which a write ends with a checkpoint that truncates the WAL.
    public var walSizeLimit: Int

    /// A week, and 16 MiB: four times the WAL that SQLite's own automatic checkpoint (every 1000
    /// pages) lets a stream of ordinary writes reach.
    public init(interval: Duration? = .seconds(7 * 86_400), walSizeLimit: Int = 16 << 20) {
        self.interval = interval
        self.walSizeLimit = walSizeLimit
    }
}
