#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `TimelineStore.checkHealth(path:snapshotPath:thorough:)` found: the database's integrity,
/// schema, counts and pages, the snapshot's freshness, the files' sizes, and the problems, each
/// with what to do. Values that could not be read (no database, a file that is not one) are `nil`.
public struct HealthReport: Sendable, Equatable {
    /// The database file checked.
    public var databasePath: String
    /// The snapshot file checked.
    public var snapshotPath: String
    /// `true` for SQLite's `integrity_check` (every page, index and constraint), `false` for
    /// `quick_check` (no index contents; much faster on a large database).
    public var thorough: Bool
    /// What the integrity check said, one line each: `["ok"]` when the database is sound, empty
    /// when it did not run (no database).
    public var integrity: [String]
    /// The schema version recorded in the database (`PRAGMA user_version`).
    public var schemaVersion: Int?
    /// The newest schema version this library knows.
    public var latestSchemaVersion: Int
    /// The database's identity, generation and counts (from `timeline_state`).
    public var state: TimelineState?
    /// Whether the snapshot shows what the database holds, and if not, why.
    public var snapshotStatus: SnapshotStatus?
    /// Bytes of the database file, its WAL and the snapshot (0 for a missing file).
    public var databaseBytes: Int
    public var writeAheadLogBytes: Int
    public var snapshotBytes: Int
    /// SQLite's page size, pages in the file, and pages of those that are free.
    public var pageSize: Int?
    public var pageCount: Int?
    public var freePages: Int?
    /// `PRAGMA auto_vacuum`: "none", "full" or "incremental".
    public var autoVacuum: String?
    /// When the upkeep last ran (see `MaintenancePolicy`).
    public var lastMaintenance: Date?
    /// The actions waiting to be sent to their servers, per account (``WaitingActions``); `nil`
    /// when the database could not be read that far.
    public var waitingActions: WaitingActions?
    /// What is wrong or worth doing, the most serious first.
    public var problems: [HealthProblem]

    /// Whether no problem is a failure (advice alone leaves the timeline healthy).
    public var isHealthy: Bool { !problems.contains(where: \.isFailure) }
}
