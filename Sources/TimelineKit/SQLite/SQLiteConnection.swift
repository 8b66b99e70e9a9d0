import TimelineSQLite

/// One SQLite connection and its prepared-statement cache: the only owner of a `sqlite3*`.
///
/// Not `Sendable`: a connection is confined to whoever holds the lock that guards it
/// (see `TimelineStore`). It is opened with `SQLITE_OPEN_NOMUTEX` ("multi-thread" mode), which the
/// SQLite documentation declares safe "provided that no single database connection nor any object
/// derived from database connection, such as a prepared statement, is used in two or more threads
/// at the same time" — exactly what that lock guarantees, so SQLite's own mutex would be wasted work.
final class SQLiteConnection {
    enum OpenMode {
        case readWrite
        case readWriteCreate
        /// Never writes the database (`timeline doctor`). In WAL mode SQLite still creates the
        /// `-wal` and `-shm` files beside it when they are missing, and may leave them there.
        case readOnly
        /// Never writes, never locks, and creates no file: SQLite's `immutable` URI parameter,
        /// which promises SQLite that nothing changes the file while it is open, so it reads the
        /// main file alone and ignores any `-wal`. Only for a file nothing can be writing: one
        /// whose directory cannot hold a `-wal` (so no writer can start), or a file not yet known
        /// to be ours, read once to tell whose it is.
        case immutable
    }

    let path: String
    private let handle: OpaquePointer
    private var statementCache: [String: SQLiteStatement] = [:]

    /// Statements started on this connection (cached ones and `execute`), for diagnostics and for
    /// tests that prove a bulk operation is one statement, not one per row.
    var statementRuns = 0

    /// How large one statement's journal may grow in memory before SQLite writes it to a
    /// temporary file: 127 KiB instead of SQLite's 64 KiB (issue 28).
    ///
    /// Inside a transaction, a statement that writes more than one row (its triggers count) and
    /// may abort keeps the original of each page it changes that existed before it started, so
    /// that it can undo itself alone. Past the spill size SQLite moves that journal to an
    /// unlinked temporary file (`etilqs_*`), and the file then serves every later statement of
    /// the transaction. An import is one transaction of one upsert per message, and an upsert
    /// whose page splits reach up the b-trees journals 16 pages: 100k messages wrote 2.4 GiB
    /// to that file in 1.1 M `pwrite`s, a second system call pair for every page each upsert
    /// touched.
    ///
    /// TimelineKit's upserts no longer take a statement journal in a bulk transaction: what
    /// made them "may abort" (an `ON CONFLICT DO UPDATE`, always compiled ABORT; the search
    /// index's row-by-row triggers, which write a virtual table; the immediate foreign key of
    /// `unread_messages`) is gone from them (`StoredColumns.makeInsert`,
    /// `SearchIndexBatch.suspendRowByRowTriggers`, migration 12), and `BulkWriteJournalTests`
    /// checks it. This bound is for what still has one: the upserts of a small write (below
    /// `TimelineTransaction.bulkRows`) and one-statement bulk writes (a delete of many
    /// messages, the search index's `finish`). It is this process's: other programs writing the
    /// database (the sqlite3 shell) keep SQLite's 64 KiB.
    ///
    /// Why not more: SQLite's in-memory journal is one chunk of this size, written to the file
    /// in one call when it spills, and the unix VFS writes at most 128 KiB per call (`nBuf &=
    /// 0x1ffff` in `seekAndWriteFd`): with 4 MiB, the first statement to spill (the search index
    /// built at the end of a 100k import) failed with SQLITE_FULL. 127 KiB is 31 pages.
    static let statementJournalSpillBytes: Int32 = 127 << 10

    /// Sets `statementJournalSpillBytes` once per process, before SQLite initialises (the first
    /// connection opened). When something else in the process initialised SQLite first (a
    /// program linking TimelineKit beside another SQLite library), SQLite refuses and keeps its
    /// default: everything works as before, only slower for huge transactions.
    private static let configured: Bool = {
        timeline_sqlite3_config_statement_journal_spill(statementJournalSpillBytes) == SQLITE_OK
    }()

    /// Whether this process's SQLite took `statementJournalSpillBytes` (for tests and diagnostics).
    static var statementJournalSpillConfigured: Bool { configured }

    init(path: String, mode: OpenMode) throws(SQLiteError) {
        _ = Self.configured
        var db: OpaquePointer?
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        switch mode {
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .immutable: flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
        }
        let code = sqlite3_open_v2(mode == .immutable ? Self.immutableURI(path) : path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(db)
            throw SQLiteError(code: SQLiteResultCode(rawValue: code), message: message)
        }
        self.path = path
        self.handle = db
    }

    /// The first `count` bytes of the main database file (fewer when the file is shorter), read
    /// through SQLite's own descriptor for it.
    ///
    /// Why not `open(2)` and `read(2)`: POSIX advisory locks belong to the process, and closing
    /// *any* descriptor of a file drops every lock the process holds on it ("How To Corrupt Your
    /// Database Files", 2.2). A header read of our own beside an open connection would silently
    /// unlock that connection; another process could then checkpoint and delete the WAL under it,
    /// and its commits would be lost. SQLite's unix VFS shares one record per file between the
    /// connections of a process and defers closing a descriptor while locks are held.
    ///
    /// Opening a connection reads nothing beyond the header, takes no lock and creates no
    /// file, so a foreign file stays as it was.
    func mainFilePrefix(count: Int) throws(SQLiteError) -> [UInt8] {
        var file: UnsafeMutablePointer<sqlite3_file>?
        let code = sqlite3_file_control(handle, "main", SQLITE_FCNTL_FILE_POINTER, &file)
        guard code == SQLITE_OK, let file, let methods = file.pointee.pMethods else {
            throw SQLiteError(code: SQLiteResultCode(rawValue: code == SQLITE_OK ? SQLITE_CANTOPEN : code),
                              message: "no file handle for \(path)")
        }
        var size: sqlite3_int64 = 0
        let sizeCode = methods.pointee.xFileSize(file, &size)
        guard sizeCode == SQLITE_OK else { throw SQLiteError(code: SQLiteResultCode(rawValue: sizeCode), message: "cannot read the size of \(path)") }
        let length = Int(min(sqlite3_int64(count), max(0, size)))
        if length == 0 { return [] }
        var bytes = [UInt8](repeating: 0, count: length)
        let readCode = bytes.withUnsafeMutableBytes { methods.pointee.xRead(file, $0.baseAddress, Int32(length), 0) }
        guard readCode == SQLITE_OK else { throw SQLiteError(code: SQLiteResultCode(rawValue: readCode), message: "cannot read the header of \(path)") }
        return bytes
    }

    /// `path` as an SQLite URI with `immutable=1`. The path's `%`, `?` and `#` are escaped, as URI
    /// syntax asks; an absolute path gets an empty authority (`file:///…`), so that one starting
    /// with `//` is not read as a host name.
    static func immutableURI(_ path: String) -> String {
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return (path.hasPrefix("/") ? "file://" : "file:") + escaped + "?immutable=1"
    }

    deinit {
        statementCache.removeAll()  // finalizes every statement before the connection closes
        sqlite3_close_v2(handle)
    }

    /// Runs one or more SQL statements that take no parameters (schema changes, pragmas).
    func execute(_ sql: String) throws(SQLiteError) {
        statementRuns &+= 1
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        if code != SQLITE_OK { throw error(code, sql: sql) }
    }

    /// A prepared statement for `sql`, prepared once and reused: the caller binds, steps and the
    /// statement is reset before it is handed out again.
    func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let cached = statementCache[sql] {
            cached.reset()
            return cached
        }
        var stmt: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard code == SQLITE_OK, let stmt else { throw error(code, sql: sql) }
        let statement = SQLiteStatement(handle: stmt, sql: sql, connection: self)
        statementCache[sql] = statement
        return statement
    }

    /// The SQL functions `defineTextPredicate` has defined on this connection.
    private var definedPredicates: Set<String> = []

    /// Defines the SQL function `name(text)` on this connection, once: 1 when `predicate` holds
    /// for the text's UTF-8 bytes, 0 when not, NULL for NULL. Deterministic, and callable only
    /// from statements this connection runs itself (`SQLITE_DIRECTONLY`): a trigger or view that
    /// another program wrote into the file cannot call it, and schema that names it would not
    /// work in the sqlite3 shell.
    func defineTextPredicate(_ name: String, _ predicate: TextPredicate) throws(SQLiteError) {
        guard !definedPredicates.contains(name) else { return }
        let code = sqlite3_create_function_v2(
            handle, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY,
            unsafeBitCast(predicate, to: UnsafeMutableRawPointer.self), Self.callTextPredicate, nil, nil, nil)
        if code != SQLITE_OK { throw error(code, sql: nil) }
        definedPredicates.insert(name)
    }

    /// A test of a text's UTF-8 bytes, as a C function so that SQLite can hold it.
    typealias TextPredicate = @convention(c) (UnsafePointer<UInt8>?, Int32) -> Bool

    private static let callTextPredicate: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
        context, _, arguments in
        // SQLite calls with exactly the one argument the definition declares.
        guard let value = arguments?[0], sqlite3_value_type(value) != SQLITE_NULL else {
            sqlite3_result_null(context)
            return
        }
        let bytes = sqlite3_value_text(value)  // before _bytes, as SQLite's documentation orders
        let count = sqlite3_value_bytes(value)
        let predicate = unsafeBitCast(sqlite3_user_data(context), to: TextPredicate.self)
        sqlite3_result_int(context, predicate(bytes, count) ? 1 : 0)
    }

    /// The first column of the first row `sql` returns as an integer (`PRAGMA page_count`,
    /// `SELECT count(*) …`), or `nil` when it returns no row.
    func integer(_ sql: String) throws(SQLiteError) -> Int? {
        let statement = try statement(sql)
        defer { statement.reset() }
        return try statement.step() ? statement.int(at: 0) : nil
    }

    /// How long a statement waits for another connection's lock before failing with `SQLITE_BUSY`.
    func setBusyTimeout(milliseconds: Int) {
        busyTimeoutMilliseconds = milliseconds
        sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
    }

    private(set) var busyTimeoutMilliseconds = 0

    /// Whether SQLite opened the database file for reading only: asked to, or because the file
    /// itself is not writable (SQLite then falls back to reading without saying so).
    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// Whether no transaction is open.
    var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// Rows changed by the most recent INSERT, UPDATE or DELETE (not counting trigger work).
    var changes: Int { Int(sqlite3_changes64(handle)) }

    /// The rowid of the most recent successful INSERT into a rowid table on this connection (0 when
    /// none). Inserts made by triggers do not count once the trigger has finished. Settable so a
    /// caller can tell whether an upsert inserted: set it to 0, run, and look.
    var lastInsertRowID: Int64 {
        get { sqlite3_last_insert_rowid(handle) }
        set { sqlite3_set_last_insert_rowid(handle, newValue) }
    }

    /// Writes the open write transaction's dirty pages out of the page cache now
    /// (`sqlite3_db_cacheflush`; to the WAL, uncommitted), while no statement is running.
    ///
    /// Why: a statement with a statement journal that fills the cache must spill pages dirtied
    /// before it, and in WAL mode SQLite first copies each into that statement's journal (it
    /// could not undo the statement otherwise). Each insert of the search index's `finish` after
    /// a bulk import is such a statement, run on a cache full of the import's pages: 3,500 pages
    /// (14.6 MB, 7,066 `pwrite`s) copied to a temporary file at 100k messages. Flushed before
    /// each, they need no copy (`SearchIndexBatch.finish(on:flushingCache:)`).
    func flushCache() throws(SQLiteError) {
        let code = sqlite3_db_cacheflush(handle)
        guard code == SQLITE_OK else { throw error(code, sql: nil) }
    }

    /// The SQLite library's version, e.g. "3.40.1".
    static var libraryVersion: String { String(cString: sqlite3_libversion()) }

    func error(_ code: Int32, sql: String?) -> SQLiteError {
        SQLiteError(code: SQLiteResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
}
