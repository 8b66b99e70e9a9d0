#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Upkeep: vacuum, the weekly routine and the WAL bound of `MaintenancePolicy`. All of it runs on
/// the writer connection, so none of it ever runs on `timeline show`'s path, which only reads.
extension TimelineStore {
    /// Rewrites the whole database file without its free pages (SQLite's `VACUUM`), switching it
    /// to incremental auto-vacuum on the way (a database created before that mode existed gets it
    /// here), then runs the upkeep and truncates the WAL.
    ///
    /// Takes as long as copying the database and needs that much free disk space; readers go on
    /// reading meanwhile, other writers wait. Changes no message, so the snapshot stays fresh.
    ///
    /// - Throws: `.busy` when another process keeps writing, `.sqlite` (e.g. disk full: the
    ///   database is left as it was).
    @discardableResult
    public func vacuum() throws(TimelineStoreError) -> MaintenanceSummary {
        try Self.unwrap(writer.withConnection { connection throws(TimelineStoreError) -> MaintenanceSummary in
            let before = databaseAndWALBytes()
            try connection.reportingStoreErrors { () throws(SQLiteError) in
                try connection.execute("PRAGMA auto_vacuum = INCREMENTAL")
                try connection.execute(SearchIndexes.optimizeSQL)
                try connection.execute("VACUUM")
            }
            var summary = try upkeep(using: connection, releaseFreePages: false)
            summary.bytesBefore = before
            return summary
        })
    }

    /// Runs the upkeep now, whenever it last ran: `PRAGMA optimize`, free pages given back when
    /// they are a quarter of the file or more, the WAL checkpointed and truncated.
    @discardableResult
    public func maintain() throws(TimelineStoreError) -> MaintenanceSummary {
        try Self.unwrap(writer.withConnection { connection throws(TimelineStoreError) -> MaintenanceSummary in
            try upkeep(using: connection, releaseFreePages: nil)
        })
    }

    /// When the upkeep last ran (`maintain()`, `vacuum()`, a prune, or by itself), or `nil` when
    /// the database does not record it.
    public func lastMaintenance() throws(TimelineStoreError) -> Date? {
        try Self.unwrap(reader.withConnection { connection throws(TimelineStoreError) -> Date? in
            try connection.reportingStoreErrors { () throws(SQLiteError) in
                try Self.lastMaintenance(on: connection)
            }
        })
    }

    static func lastMaintenance(on connection: SQLiteConnection) throws(SQLiteError) -> Date? {
        try connection.integer("SELECT last_run_at FROM maintenance WHERE singleton = 1")
            .map { MillisecondTime.date(fromMilliseconds: Int64($0)) }
    }

    /// The upkeep. `releaseFreePages`: `true` always runs `incremental_vacuum`, `false` never,
    /// `nil` when free pages are a quarter of the file or more (below that, the next inserts reuse
    /// them, and giving them back would only make the file grow again).
    func upkeep(using connection: SQLiteConnection, releaseFreePages: Bool?) throws(TimelineStoreError) -> MaintenanceSummary {
        let before = databaseAndWALBytes()
        let released = try connection.reportingStoreErrors { () throws(SQLiteError) -> Int in
            // optimize runs ANALYZE only where the statistics would change a plan; the limit keeps
            // that to a sample, so a large database does not cost a full scan.
            try connection.execute("PRAGMA analysis_limit = 400")
            try connection.execute("PRAGMA optimize")
            var released = 0
            // A prune asks for its pages back: the search indexes hold them until merged.
            if releaseFreePages == true { try connection.execute(SearchIndexes.optimizeSQL) }
            let free = try connection.integer("PRAGMA freelist_count") ?? 0
            let pages = try connection.integer("PRAGMA page_count") ?? 0
            let incremental = try connection.integer("PRAGMA auto_vacuum") == 2
            if incremental, free > 0, releaseFreePages ?? (free * 4 >= pages) {
                try connection.execute("PRAGMA incremental_vacuum")
                released = free - (try connection.integer("PRAGMA freelist_count") ?? 0)
            }
            let now = MillisecondTime.milliseconds(from: Date())
            try connection.execute("UPDATE maintenance SET last_run_at = \(now) WHERE singleton = 1")
            return released
        }
        let truncated = Self.truncateWAL(connection, waitingAtMost: connection.busyTimeoutMilliseconds)
        return MaintenanceSummary(bytesBefore: before, bytesAfter: databaseAndWALBytes(),
                                  pagesReleased: released, walTruncated: truncated)
    }

    /// What `MaintenancePolicy` asks of the end of every write transaction. Never throws: the
    /// write has committed, and upkeep that cannot run now runs after a later write.
    func maintainAfterWrite(using connection: SQLiteConnection) {
        let policy = configuration.maintenance
        if let interval = policy.interval, let last = try? Self.lastMaintenance(on: connection),
           Date().timeIntervalSince(last) >= Double(interval.components.seconds) {
            _ = try? upkeep(using: connection, releaseFreePages: nil)
            return
        }
        if (FileSystem.size(at: path + "-wal") ?? 0) > policy.walSizeLimit {
            try? connection.execute("PRAGMA analysis_limit = 400; PRAGMA optimize")
            // Briefly: a writer must not hang on a reader; the next write tries again.
            _ = Self.truncateWAL(connection, waitingAtMost: min(200, connection.busyTimeoutMilliseconds))
        }
    }

    /// Copies the whole WAL into the database and truncates the WAL file to zero bytes, waiting at
    /// most `milliseconds` for readers of older data to finish. Returns whether it got that far.
    static func truncateWAL(_ connection: SQLiteConnection, waitingAtMost milliseconds: Int) -> Bool {
        let previous = connection.busyTimeoutMilliseconds
        connection.setBusyTimeout(milliseconds: milliseconds)
        defer { connection.setBusyTimeout(milliseconds: previous) }
        // One row: busy (1 when a reader or writer kept it from finishing), WAL frames, frames copied.
        return (try? connection.integer("PRAGMA wal_checkpoint(TRUNCATE)")) == 0
    }

    func databaseAndWALBytes() -> Int {
        let usage = diskUsage()
        return usage.database + usage.writeAheadLog
    }
}
