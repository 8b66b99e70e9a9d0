extension TimelineStore {
    /// How a store opens its database and keeps its snapshot.
    public struct Configuration: Sendable {
        /// Create the database (and its directory, private: 0700) when it does not exist (or is
        /// an empty file), at the first write that commits: until then nothing is created, and
        /// the store reads as an empty timeline. When `false`, opening a missing database (or
        /// an empty file) throws `TimelineStoreError.databaseMissing`.
        public var createIfMissing: Bool
        /// How long a statement waits for another process's lock before failing with
        /// `TimelineStoreError.busy`. Writers from a script can wait; `timeline show` uses a
        /// short bound so that it never hangs a shell.
        public var busyTimeout: Duration
        /// Whether every write transaction refreshes the snapshot beside the database.
        public var writesSnapshot: Bool
        /// Where the snapshot lives; `nil` means beside the database (`SnapshotFile.path(forDatabaseAt:)`).
        public var snapshotPath: String?
        /// How many of the newest messages the snapshot holds. `nil` keeps the limit of the
        /// snapshot on disk (so `timeline snapshot --limit 500` lasts), or
        /// `TimelineSnapshot.defaultLimit` when there is none.
        public var snapshotLimit: Int?
        /// When the store checkpoints the WAL and runs its weekly upkeep by itself.
        public var maintenance: MaintenancePolicy
        /// The largest database file (in bytes) that opening migrates to the newest schema; a
        /// larger one that needs migrating is refused with `TimelineStoreError.migrationNeeded`
        /// and left as it is. `nil` (the default) migrates whatever the size. Migrating rebuilds
        /// tables and indexes, about ten seconds a million messages: a program on a latency
        /// budget (`timeline show` at every terminal launch) sets a bound and leaves big
        /// upgrades to a command the person runs.
        public var migrationSizeLimit: Int?

        public init(
            createIfMissing: Bool = true,
            busyTimeout: Duration = .seconds(5),
            writesSnapshot: Bool = true,
            snapshotPath: String? = nil,
            snapshotLimit: Int? = nil,
            maintenance: MaintenancePolicy = MaintenancePolicy(),
            migrationSizeLimit: Int? = nil
        ) {
            self.maintenance = maintenance
            self.migrationSizeLimit = migrationSizeLimit
            self.createIfMissing = createIfMissing
            self.busyTimeout = busyTimeout
            self.writesSnapshot = writesSnapshot
            self.snapshotPath = snapshotPath
            self.snapshotLimit = snapshotLimit
        }

        var busyTimeoutMilliseconds: Int {
            let (seconds, attoseconds) = busyTimeout.components
            return Int(clamping: seconds.saturatingMultiplied(by: 1000).saturatingAdding(attoseconds / 1_000_000_000_000_000))
        }
    }
}
