import TimelineSQLite

/// SQLite's "copy this buffer now" destructor. Swift cannot import the `SQLITE_TRANSIENT` macro,
/// which is `((sqlite3_destructor_type)-1)`.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A prepared statement, owned by the `SQLiteConnection` that prepared it and only ever used on
/// that connection's thread of control. Indexes are 1-based for bindings (as in SQL's `?1`) and
/// 0-based for result columns, as in the C API.
final class SQLiteStatement {
    let sql: String
    private let handle: OpaquePointer
    // Unowned: the connection owns its statements (in its cache) and finalizes them before it closes.
    private unowned let connection: SQLiteConnection

    init(handle: OpaquePointer, sql: String, connection: SQLiteConnection) {
        self.handle = handle
        self.sql = sql
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Makes the statement ready for a new run: clears the previous run's state and bindings.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    // MARK: Binding

    /// The largest parameter index the statement uses (`?3` → 3).
    var parameterCount: Int32 { sqlite3_bind_parameter_count(handle) }

    func bind(_ value: Int64, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    func bind(_ value: Int, at index: Int32) throws(SQLiteError) {
        try bind(Int64(value), at: index)
    }

    func bind(_ value: Bool, at index: Int32) throws(SQLiteError) {
        try bind(Int64(value ? 1 : 0), at: index)
    }

    /// Binds text with its explicit UTF-8 length, so a NUL inside untrusted text does not
    /// silently cut the value short.
    func bind(_ value: String, at index: Int32) throws(SQLiteError) {
        var value = value
        let code = value.withUTF8 { utf8 -> Int32 in
            // An empty buffer may have a nil base address, which SQLite would store as NULL.
            guard let base = utf8.baseAddress, utf8.count > 0 else {
                return sqlite3_bind_text(handle, index, "", 0, transient)
            }
            // `transient` makes SQLite copy the bytes before `withUTF8` ends.
            return sqlite3_bind_text64(handle, index, base, sqlite3_uint64(utf8.count), transient, UInt8(SQLITE_UTF8))
        }
        try check(code)
    }

    func bind(_ value: String?, at index: Int32) throws(SQLiteError) {
        if let value { try bind(value, at: index) } else { try bindNull(at: index) }
    }

    func bind(_ value: Int64?, at index: Int32) throws(SQLiteError) {
        if let value { try bind(value, at: index) } else { try bindNull(at: index) }
    }

    func bindNull(at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_null(handle, index))
    }

    // MARK: Running

    /// Advances to the next row. Returns `false` when the statement has finished.
    @discardableResult
    func step() throws(SQLiteError) -> Bool {
        if sqlite3_stmt_busy(handle) == 0 { connection.statementRuns &+= 1 }
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw connection.error(code, sql: sql)
        }
    }

    /// Runs a statement that returns no rows (or whose rows are not needed) to completion.
    /// Bindings stay until the next `reset()` or rebinding: callers rebind every parameter.
    func run() throws(SQLiteError) {
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    // MARK: Reading columns of the current row

    func isNull(at column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    func int64(at column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    func int(at column: Int32) -> Int {
        Int(sqlite3_column_int64(handle, column))
    }

    func bool(at column: Int32) -> Bool {
        sqlite3_column_int64(handle, column) != 0
    }

    /// The column as text; NULL reads as the empty string. Embedded NULs are kept.
    func text(at column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        // sqlite3_column_bytes is called after sqlite3_column_text, as the SQLite docs require,
        // and gives the exact length of the buffer that `bytes` points to.
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func optionalText(at column: Int32) -> String? {
        isNull(at: column) ? nil : text(at: column)
    }

    func optionalInt64(at column: Int32) -> Int64? {
        isNull(at: column) ? nil : int64(at: column)
    }

    private func check(_ code: Int32) throws(SQLiteError) {
        if code != SQLITE_OK { throw connection.error(code, sql: sql) }
    }
}
