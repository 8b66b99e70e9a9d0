#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// "Nothing changed, nothing opened": how `timeline show` learns that the database is still
/// where its snapshot shows it, with two `lstat`s and no SQLite connection (docs/internals.md).
extension TimelineStore {
    /// The answer `reconcile(preview)` would give, known without opening the database: the
    /// preview is fresh, nothing changed. `nil` unless a stamp (`stampUnchangedDatabase()`) proves
    /// it, which takes all of: a stamp beside the snapshot that decodes, written by a library of
    /// this schema version, for the preview's database and generation; and the database file and
    /// its `-wal` as the stamp recorded them, device, inode, size and both times to the
    /// nanosecond (the `-wal` absent if it was); and the preview's content checksum
    /// (`SnapshotPreview.checkContent()`). Reads the stamp and `lstat`s two paths; opens nothing
    /// else, creates nothing, locks nothing.
    ///
    /// ```swift
    /// paint(preview.head)
    /// let answer = try TimelineStore.unchangedReconciliation(of: preview, databasePath: path)
    ///     ?? TimelineStore(path: path).reconcile(preview)
    /// ```
    ///
    /// Anything a reconcile would add beyond that is not answered here: ask the store for the
    /// whole window (`wholeWindow`, as `show -f` does) or to write.
    public static func unchangedReconciliation(of preview: SnapshotPreview, databasePath: String) -> TimelineReconciliation? {
        guard let stamp = SnapshotStamp.read(at: SnapshotStamp.path(forSnapshotAt: preview.path)),
              stamp.schemaVersion == latestSchemaVersion,
              preview.state.isShown(bySnapshotOf: stamp.databaseID, at: stamp.generation),
              FileSystem.identity(at: databasePath) == stamp.database,
              FileSystem.identity(at: databasePath + "-wal") == stamp.writeAheadLog,
              // The check a preview leaves for after the paint: a mismatch opens the database,
              // whose reconcile answers from it (`reconcile(_:)`, `snapshotProblem`).
              (try? preview.checkContent()) != nil
        else { return nil }
        return TimelineReconciliation(window: preview.head, changes: .none(since: preview.headSnapshot),
                                      isSnapshotFresh: true, snapshot: nil, snapshotProblem: nil)
    }

    /// What `stampUnchangedDatabase()` did.
    public enum StampOutcome: Sendable, Equatable {
        /// The stamp was written: until the database's files change, `unchangedReconciliation`
        /// answers for a snapshot of this generation.
        case stamped(generation: Int64)
        /// The files were written too recently to tell a later write by their times (within the
        /// clock's tick, or two seconds on a file system of whole seconds): no stamp. The next
        /// `show` opens the database and stamps it then.
        case unsettled
        /// A writer held the database or the snapshot lock: no stamp, no wait.
        case busy
        /// No stamp can prove anything here: the database is not a regular file (a symbolic
        /// link), not written yet, or on a file system whose times this machine's clock does not
        /// set in nanoseconds or seconds (NFS, SMB, FUSE, FAT: `FileSystem.keepsLocalFileTimes`).
        case unsupported
    }

    /// Records what the database's files look like at its current generation, for
    /// `unchangedReconciliation(of:databasePath:)`: taken under SQLite's write lock, so that no
    /// commit is half done (WAL frames written, not yet in the index) while the files are
    /// examined and none can start; the clock is read there too, and a stamp whose file times
    /// are not settled against it (`SnapshotStamp.isSettled`) is not written. Never waits: a
    /// database or snapshot lock held by someone else answers `.busy`. Writes nothing to the
    /// database (`BEGIN IMMEDIATE` … `COMMIT` with nothing in between changes no file).
    ///
    /// `show` calls it after a reconcile, when it had to open the database; the next `show` of an
    /// unchanged database then opens nothing.
    @discardableResult
    public func stampUnchangedDatabase() throws(TimelineStoreError) -> StampOutcome {
        guard creation?.isPending != true, !isReadOnly, FileSystem.identity(at: path)?.isRegularFile == true,
              FileSystem.keepsLocalFileTimes(at: path) else { return .unsupported }
        let stampPath = SnapshotStamp.path(forSnapshotAt: snapshotFile.path)
        let databasePath = path
        do throws(FileLockError<TimelineStoreError>) {
            let outcome = try FileLock.withLock(snapshotFile.path + ".lock", timeout: .zero) { () throws(TimelineStoreError) -> StampOutcome in
                let taken = try Self.unwrap(reader.withConnection { connection throws(TimelineStoreError) -> (stamp: SnapshotStamp, takenAt: FileTime)? in
                    try Self.stamp(of: databasePath, using: connection)
                })
                guard let (stamp, takenAt) = taken else { return .busy }
                // The `-wal`'s status-change time is compared but need not be settled: as root,
                // SQLite gives the `-wal` and `-shm` the database's owner at every open (`fchown`),
                // which moves it, so it is always within a tick after this very `show`'s open.
                // A write moves the modification time, which must be settled; the status-change
                // time only adds a file whose time was set back (`cp -p`), which would have to
                // happen within the same tick to be missed (docs/internals.md).
                let times = [stamp.database.modified, stamp.database.statusChanged] + (stamp.writeAheadLog.map { [$0.modified] } ?? [])
                guard SnapshotStamp.isSettled(times, now: takenAt, clockResolution: FileSystem.fileTimeClockResolution()) else {
                    return .unsettled
                }
                do throws(FileSystemError) {
                    try stamp.write(to: stampPath)
                } catch {
                    throw .snapshotNotWritten(path: stampPath, reason: error.reason)
                }
                return .stamped(generation: stamp.generation)
            }
            return outcome ?? .busy
        } catch {
            switch error {
            case let .lock(failure): throw .snapshotNotWritten(path: stampPath, reason: failure.description)
            case let .body(failure): throw failure
            }
        }
    }

    /// `stampUnchangedDatabase()` tried again, a clock tick apart, while the files' times are not
    /// yet settled, for at most `patience`: for a process that has just written and that no one
    /// waits for (the shell hook's background sync). A sync that found nothing new still records
    /// when it ran, in the database; stamped here, the next terminal's `show` opens nothing.
    @discardableResult
    public func stampUnchangedDatabase(settlingWithin patience: Duration) throws(TimelineStoreError) -> StampOutcome {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: patience)
        while true {
            let outcome = try stampUnchangedDatabase()
            guard outcome == .unsettled, clock.now < deadline else { return outcome }
            FileSystem.waitOneFileTimeTick()
        }
    }

    /// The stamp, and the clock read after the files, all under the write lock; `nil` when
    /// another connection holds the lock. The reader connection is `query_only`, which refuses
    /// `BEGIN IMMEDIATE`; it is lifted for the transaction, in which nothing is written, and
    /// the busy timeout set to 0 so that a writer at work is not waited for.
    private static func stamp(of path: String, using connection: SQLiteConnection) throws(TimelineStoreError) -> (stamp: SnapshotStamp, takenAt: FileTime)? {
        try connection.reportingStoreErrors { () throws(SQLiteError) -> (stamp: SnapshotStamp, takenAt: FileTime)? in
            let busyTimeout = connection.busyTimeoutMilliseconds
            connection.setBusyTimeout(milliseconds: 0)
            try connection.execute("PRAGMA query_only = 0")
            defer {
                if !connection.isAutocommit { try? connection.execute("ROLLBACK") }
                try? connection.execute("PRAGMA query_only = 1")
                connection.setBusyTimeout(milliseconds: busyTimeout)
            }
            do throws(SQLiteError) {
                try connection.execute("BEGIN IMMEDIATE")
            } catch {
                if error.code.primary == .busy || error.code.primary == .locked { return nil }
                throw error
            }
            let state = try TimelineReader(connection: connection).state()
            guard let database = FileSystem.identity(at: path) else { return nil }
            let writeAheadLog = FileSystem.identity(at: path + "-wal")
            let now = FileSystem.fileTimeClockNow()
            try connection.execute("COMMIT")
            return (SnapshotStamp(databaseID: state.databaseID, generation: state.generation, schemaVersion: latestSchemaVersion,
                                  database: database, writeAheadLog: writeAheadLog), now)
        }
    }
}
