/// Opens a connection that reads a database, also where nothing can be written.
///
/// To read a database in WAL mode, SQLite needs its `-shm` file, and creates it (and the `-wal`)
/// when they are missing. In a read-only directory or on a read-only file system it cannot, and
/// even a read-only connection fails with `SQLITE_READONLY_DIRECTORY` or `SQLITE_CANTOPEN` on its
/// first read. SQLite reads such a database only as *immutable* (https://www.sqlite.org/wal.html,
/// "Read-Only Databases"). That is sound when there is no `-wal`: the main file then holds every
/// commit, and no writer can start, since a writer would have to create the `-wal` in that same
/// directory. (A user with more rights, writing the database while it is read immutable, would
/// make reads fail or see a mix of states: the limit of reading someone else's live timeline from
/// a directory you cannot write.) With a `-wal` present, a read-only connection can read, so
/// that is what it falls back to.
enum ReadingConnection {
    /// Opens `path` in `mode` with the busy timeout and reads the schema version (the first read,
    /// which makes SQLite map the `-shm`). When that fails because the directory or file system
    /// cannot be written, opens the database again read-only as above and reads it there.
    ///
    /// - Returns: the connection, the schema version, and whether it is the read-only fallback
    ///   (then the database cannot be written from here at all).
    /// `reusing` is a connection already opened on `path` in `mode` on which nothing has run yet
    /// (`DatabaseIdentity.identifyReading`'s), used instead of opening another.
    static func open(
        _ path: String, mode: SQLiteConnection.OpenMode, busyTimeoutMilliseconds: Int, reusing opened: SQLiteConnection? = nil
    ) throws(TimelineStoreError) -> (connection: SQLiteConnection, schemaVersion: Int, fellBack: Bool) {
        let connection: SQLiteConnection
        if let opened {
            opened.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
            connection = opened
        } else {
            connection = try opening(path, mode: mode, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        }
        let failure: SQLiteError
        do throws(SQLiteError) {
            return (connection, try SchemaMigrator.version(of: connection), false)
        } catch {
            failure = error
        }
        guard failure.code.primary == .readOnly || failure.code.primary == .cantOpen else {
            throw TimelineStoreError(failure, on: connection)
        }
        let fallbackMode: SQLiteConnection.OpenMode = FileSystem.kind(at: path + "-wal") == .missing ? .immutable : .readOnly
        guard fallbackMode != mode else { throw TimelineStoreError(failure, on: connection) }
        let fallback = try opening(path, mode: fallbackMode, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        do throws(SQLiteError) {
            return (fallback, try SchemaMigrator.version(of: fallback), true)
        } catch {
            // The first failure says what is wrong with the place; this one would only repeat it.
            throw TimelineStoreError(failure, on: connection)
        }
    }

    static func opening(_ path: String, mode: SQLiteConnection.OpenMode, busyTimeoutMilliseconds: Int) throws(TimelineStoreError) -> SQLiteConnection {
        let connection: SQLiteConnection
        do {
            connection = try SQLiteConnection(path: path, mode: mode)
        } catch {
            throw .cannotOpen(path: path, reason: error.message)
        }
        connection.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
        return connection
    }
}
