/// One thing `TimelineStore.checkHealth` found wrong, or worth doing, with what to do about it.
public struct HealthProblem: Sendable, Equatable, CustomStringConvertible {
    /// The kinds of problem, from the most to the least serious; `timeline doctor` gives each
    /// failure its own exit status.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// No file at the database's path.
        case databaseMissing = "database_missing"
        /// The file exists but cannot be opened or read (permissions).
        case unreadable
        /// The file is not an SQLite database, or is another program's.
        case notADatabase = "not_a_database"
        /// SQLite's integrity check failed, or reading the database hit damage.
        case damaged
        /// The counts kept by triggers disagree with the tables (the triggers were bypassed).
        case countsDisagree = "counts_disagree"
        /// The database was written by a newer timeline.
        case newerSchema = "newer_schema"
        /// The snapshot cannot be read.
        case snapshotUnusable = "snapshot_unusable"
        /// There is no snapshot.
        case snapshotMissing = "snapshot_missing"
        /// The snapshot shows an older state of the database.
        case snapshotStale = "snapshot_stale"
        /// The server refused an account's credentials at its last sync: only logging in again
        /// brings its timeline back.
        case syncNeedsLogin = "sync_needs_login"
        /// An account's syncs have failed for a while, or none has run for a day.
        case notSyncing = "not_syncing"
        /// Advice: the database predates this timeline's schema; the next write migrates it.
        case olderSchema = "older_schema"
        /// Advice: a quarter or more of the file is free pages.
        case manyFreePages = "many_free_pages"
        /// Advice: the WAL is larger than the maintenance policy lets it stay.
        case largeWriteAheadLog = "large_wal"
    }

    public var kind: Kind
    /// What is wrong, in a sentence.
    public var detail: String
    /// What to do about it.
    public var remedy: String

    public init(kind: Kind, detail: String, remedy: String) {
        self.kind = kind
        self.detail = detail
        self.remedy = remedy
    }

    /// Whether this makes the timeline unhealthy; the rest are advice.
    public var isFailure: Bool {
        switch kind {
        case .olderSchema, .manyFreePages, .largeWriteAheadLog: false
        default: true
        }
    }

    public var description: String { remedy.isEmpty ? detail : "\(detail) \(remedy)" }
}
