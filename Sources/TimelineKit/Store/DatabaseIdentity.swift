/// Whose file a database path names, found out before anything is opened for writing, so that
/// another program's file is refused byte for byte as it was: same bytes, same modification time,
/// no `-wal` or `-shm` left beside it, no switch to WAL mode.
enum DatabaseIdentity: Equatable, Sendable {
    /// Nothing is there.
    case missing
    /// An empty file, or an SQLite database that holds nothing (no table, index, view or
    /// trigger; user version and application ID 0). The first write makes it a timeline database;
    /// commands that only read see no timeline yet.
    case empty
    /// A timeline database, of any schema version (a newer timeline's too).
    case timeline
    /// Anything else, and why it is not ours.
    case foreign(reason: String)

    /// `PRAGMA application_id` of a timeline database: the ASCII letters `TMLN` (0x544D4C4E,
    /// 1414351950). SQLite keeps the field for exactly this: telling one program's files from
    /// another's (`file(1)` reads it too). Migration 5 sets it in databases created before it.
    static let applicationID: Int32 = 0x544D_4C4E

    /// The schema versions timeline wrote before the application ID existed. A file of one of these
    /// versions, with application ID 0, is ours only when it holds the timeline's tables.
    static let versionsWithoutApplicationID = 1...4

    /// Finds out what is at `path` without writing anything: the file's header is read first,
    /// and only when it cannot tell (application ID 0: a timeline database from before migration
    /// 5, a timeline database whose header is still in its `-wal`, or another program's) does
    /// SQLite read it, read-only, creating no file (see `probe`).
    ///
    /// - Throws: `.cannotOpen` when the path names a directory, FIFO or other non-file, or the
    ///   file cannot be read; `.busy` when another process holds it locked.
    static func identify(_ path: String, busyTimeoutMilliseconds: Int) throws(TimelineStoreError) -> DatabaseIdentity {
        try identifyReading(path, busyTimeoutMilliseconds: busyTimeoutMilliseconds).identity
    }

    /// `identify`, also giving the connection the header was read through: opened read-write
    /// where the file allows (SQLite silently falls back to read-only where it does not), no
    /// statement run on it yet, so nothing is read beyond the header, nothing locked, nothing
    /// created. A store opening a timeline database keeps it as its reader, so telling whose the
    /// file is costs no second open (an open is some 80,000 instructions of `show`).
    ///
    /// The header is read through SQLite's own descriptor, never one of ours: closing ours would
    /// drop the locks of every connection this process has open on the file (see
    /// `SQLiteConnection.mainFilePrefix`).
    static func identifyReading(
        _ path: String, busyTimeoutMilliseconds: Int
    ) throws(TimelineStoreError) -> (identity: DatabaseIdentity, connection: SQLiteConnection?) {
        switch FileSystem.kind(at: path) {
        case .missing:
            return (.missing, nil)
        case .regularFile, .symbolicLink:
            break
        case let kind:
            throw .cannotOpen(path: path, reason: "it is \(kind), not a database file")
        }
        let connection: SQLiteConnection
        let bytes: [UInt8]
        do {
            connection = try SQLiteConnection(path: path, mode: .readWrite)
            bytes = try connection.mainFilePrefix(count: DatabaseHeader.size)
        } catch {
            throw .cannotOpen(path: path, reason: error.message)
        }
        if bytes.isEmpty { return (.empty, nil) }
        guard let header = DatabaseHeader(bytes) else { return (.foreign(reason: "it is not an SQLite database"), nil) }
        if header.applicationID == applicationID { return (.timeline, connection) }
        if header.applicationID != 0 { return (.foreign(reason: otherApplication(header.applicationID)), nil) }
        return (try probe(path, header: header, busyTimeoutMilliseconds: busyTimeoutMilliseconds), nil)
    }

    /// Asks SQLite, changing nothing. A file in rollback-journal mode is opened read-only, which
    /// creates no file. One in WAL mode is read through its `-wal` and `-shm` when both exist
    /// (reading them is what every reader does); without them, a read-only connection would
    /// create both and leave them there, so it is read as immutable, from the main file alone,
    /// which is complete when there is no `-wal`.
    private static func probe(_ path: String, header: DatabaseHeader, busyTimeoutMilliseconds: Int) throws(TimelineStoreError) -> DatabaseIdentity {
        let sideFilesExist = FileSystem.kind(at: path + "-wal") != .missing && FileSystem.kind(at: path + "-shm") != .missing
        let mode: SQLiteConnection.OpenMode = header.usesWAL && !sideFilesExist ? .immutable : .readOnly
        let connection = try ReadingConnection.opening(path, mode: mode, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        return try connection.reportingStoreErrors { () throws(SQLiteError) -> DatabaseIdentity in
            let id = Int32(truncatingIfNeeded: try connection.integer("PRAGMA application_id") ?? 0)
            if id == applicationID { return .timeline }
            if id != 0 { return .foreign(reason: otherApplication(id)) }
            let version = try connection.integer("PRAGMA user_version") ?? 0
            let objects = try connection.integer("SELECT count(*) FROM sqlite_master") ?? 0
            if version == 0 && objects == 0 { return .empty }
            if version == 0 { return .foreign(reason: "it is an SQLite database with tables of another program") }
            guard versionsWithoutApplicationID.contains(version), try holdsTimelineTables(connection) else {
                return .foreign(reason: "it is another program's SQLite database, of user version \(version) but without timeline's tables")
            }
            return .timeline
        }
    }

    /// The tables every timeline schema before the application ID had, and the one row of
    /// `timeline_state` with the columns the store reads first.
    private static func holdsTimelineTables(_ connection: SQLiteConnection) throws(SQLiteError) -> Bool {
        let tables = try connection.integer("""
            SELECT count(*) FROM sqlite_master
            WHERE type = 'table' AND name IN ('users', 'messages', 'timeline_state')
            """) ?? 0
        guard tables == 3 else { return false }
        do throws(SQLiteError) {
            return try connection.integer("""
                SELECT count(*) FROM (SELECT database_id, generation, message_count, unread_count, user_count
                                      FROM timeline_state WHERE singleton = 1)
                """) == 1
        } catch {
            // A table of that name with other columns: someone else's.
            if error.code.primary == .error { return false }
            throw error
        }
    }

    private static func otherApplication(_ id: Int32) -> String {
        let hex = String(UInt32(bitPattern: id), radix: 16, uppercase: true)
        return "it is another program's SQLite database, with application ID 0x\(String(repeating: "0", count: 8 - hex.count) + hex)"
    }
}
