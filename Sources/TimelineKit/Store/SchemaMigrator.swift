/// Brings a database to the newest schema by applying the missing `Migration`s in order, in one
/// transaction, and refuses databases it must not touch.
enum SchemaMigrator {
    /// The schema version recorded in the database (`PRAGMA user_version`).
    static func version(of connection: SQLiteConnection) throws(SQLiteError) -> Int {
        let statement = try connection.statement("PRAGMA user_version")
        defer { statement.reset() }
        return try statement.step() ? statement.int(at: 0) : 0
    }

    /// Refuses a database written by a newer library before anything is changed.
    static func checkNotNewer(_ version: Int, path: String) throws(TimelineStoreError) {
        if version > Migration.latestVersion {
            throw .databaseNewerThanLibrary(path: path, schemaVersion: version, newestKnown: Migration.latestVersion)
        }
    }

    /// Applies every migration newer than the database's version, in one transaction of its own.
    /// Safe against a second process migrating at the same time: the version is read again once
    /// the write lock is held.
    ///
    /// Foreign keys are off while migrations run, as SQLite's procedure for rebuilding a table asks
    /// (otherwise dropping the old table would delete through its references), and on again after.
    /// Rows a hand-written v1 database already breaks them with are carried over, not refused: a
    /// migration that failed on them would lock the person out of their own timeline.
    static func migrate(_ connection: SQLiteConnection) throws(TimelineStoreError) {
        try connection.reportingStoreErrors { () throws(SQLiteError) -> Void in
            try connection.execute("PRAGMA foreign_keys = OFF")
        }
        defer { try? connection.execute("PRAGMA foreign_keys = ON") }
        try connection.reportingStoreErrors { () throws(SQLiteError) -> Void in try connection.execute("BEGIN IMMEDIATE") }
        let migrated: Bool
        do throws(TimelineStoreError) {
            migrated = try applyPending(connection)
            try connection.reportingStoreErrors { () throws(SQLiteError) -> Void in try connection.execute("COMMIT") }
        } catch {
            if !connection.isAutocommit { try? connection.execute("ROLLBACK") }
            throw error
        }
        // Copies the new page 1 from the WAL into the file, where the next open reads the
        // application ID without SQLite (`DatabaseIdentity`). Passive: never waits for a reader.
        if migrated { try? connection.execute("PRAGMA wal_checkpoint(PASSIVE)") }
    }

    /// Applies the migrations the database still needs, inside the write transaction the caller
    /// holds (`BEGIN IMMEDIATE`), so that they commit or roll back with whatever follows them.
    /// Returns whether there were any.
    @discardableResult
    static func applyPending(_ connection: SQLiteConnection) throws(TimelineStoreError) -> Bool {
        let version = try connection.reportingStoreErrors { () throws(SQLiteError) in try Self.version(of: connection) }
        try checkNotNewer(version, path: connection.path)
        let holdsOtherTables = try connection.reportingStoreErrors { () throws(SQLiteError) in
            version == 0 ? try hasTables(connection) : false
        }
        if holdsOtherTables {
            throw TimelineStoreError.notATimelineDatabase(
                path: connection.path, reason: "it is an SQLite database with tables of another program")
        }
        if version >= Migration.latestVersion { return false }
        try connection.reportingStoreErrors { () throws(SQLiteError) -> Void in
            for migration in Migration.all where migration.version > version {
                try connection.execute(migration.sql)
            }
            try connection.execute("PRAGMA user_version = \(Migration.latestVersion)")
        }
        return true
    }

    private static func hasTables(_ connection: SQLiteConnection) throws(SQLiteError) -> Bool {
        let statement = try connection.statement("SELECT count(*) FROM sqlite_master WHERE type = 'table'")
        defer { statement.reset() }
        return try statement.step() && statement.int(at: 0) > 0
    }
}
