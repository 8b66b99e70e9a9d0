import TimelineSQLite

/// An SQLite result code, kept faithful to the integer SQLite returned, with the primary code
/// (the low byte) available for matching: `SQLITE_BUSY_SNAPSHOT` is still `.busy` at heart.
public struct SQLiteResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary result code, with the extended bits removed.
    public var primary: SQLiteResultCode { SQLiteResultCode(rawValue: rawValue & 0xFF) }

    public static let ok = SQLiteResultCode(rawValue: SQLITE_OK)
    public static let error = SQLiteResultCode(rawValue: SQLITE_ERROR)
    public static let busy = SQLiteResultCode(rawValue: SQLITE_BUSY)
    public static let locked = SQLiteResultCode(rawValue: SQLITE_LOCKED)
    public static let readOnly = SQLiteResultCode(rawValue: SQLITE_READONLY)
    public static let ioError = SQLiteResultCode(rawValue: SQLITE_IOERR)
    public static let corrupt = SQLiteResultCode(rawValue: SQLITE_CORRUPT)
    public static let full = SQLiteResultCode(rawValue: SQLITE_FULL)
    public static let cantOpen = SQLiteResultCode(rawValue: SQLITE_CANTOPEN)
    public static let constraint = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT)
    public static let notADatabase = SQLiteResultCode(rawValue: SQLITE_NOTADB)

    /// SQLite's own short description of the code, e.g. "database is locked".
    public var description: String { String(cString: sqlite3_errstr(rawValue)) }
}

/// An error reported by SQLite, with the statement that failed.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The extended result code.
    public let code: SQLiteResultCode
    /// SQLite's message for this failure (`sqlite3_errmsg`).
    public let message: String
    /// The SQL that failed, when the failure belongs to a statement.
    public let sql: String?

    public init(code: SQLiteResultCode, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    public var description: String {
        var text = "SQLite error \(code.rawValue) (\(code)): \(message)"
        if let sql { text += " — while running: \(sql)" }
        return text
    }
}
