/// What is made from a `StoredRecord`'s one list of columns: the column list of a SELECT, the
/// upsert, binding a value to it and reading a row back.
///
/// The SQL is made once per process and kept in `static let`s (the statements built from it are
/// prepared once and cached by each connection). The SELECT list and the upsert are made apart,
/// each at its first use: `show` reads the database without writing to it and makes only the
/// list. They are appended piece by piece, into strings reserved at their size: `map` and
/// `joined` would make the runtime look up protocol conformances at their first use, half a
/// million instructions of such a `show`.
struct StoredColumns<Record: StoredRecord>: Sendable {
    /// The table's name.
    let table: String
    /// The column names, in order; the first is the table's key.
    let columns: [String]
    /// The column names, comma-separated, in order: what a SELECT or INSERT lists.
    let names: String

    init(table: String) {
        var visitor = ColumnNames()
        var record = Record.blank
        record.visitColumns(&visitor)
        precondition(!visitor.names.isEmpty, "a table has columns")
        self.table = table
        columns = visitor.names
        var names = ""
        names.reserveCapacity(columns.count * 20)
        for name in columns {
            if !names.isEmpty { names += ", " }
            names += name
        }
        self.names = names
    }

    /// How many columns there are: a query that selects more after them reads those from here on.
    var count: Int32 { Int32(columns.count) }

    /// Inserts a record, or updates the stored row with the same key in place, only when a column
    /// differs, so that storing the same value twice changes nothing (and moves no generation).
    /// Parameter `?n` is column `n` (from 1), as `bind` fills them.
    func makeUpsert() -> String {
        var parameters = "", updates = "", stored = "", excluded = ""
        parameters.reserveCapacity(columns.count * 5)
        updates.reserveCapacity(names.utf8.count * 3)
        stored.reserveCapacity(names.utf8.count)
        excluded.reserveCapacity(names.utf8.count * 2)
        for (index, name) in columns.enumerated() {
            parameters += index == 0 ? "?1" : ", ?" + String(index + 1)
            guard index > 0 else { continue }
            if index > 1 {
                updates += ", "
                stored += ", "
                excluded += ", "
            }
            updates += name + " = excluded." + name
            stored += name
            excluded += "excluded." + name
        }
        return """
            INSERT INTO \(table) (\(names)) VALUES (\(parameters))
            ON CONFLICT (\(columns[0])) DO UPDATE SET \(updates)
            WHERE (\(stored)) IS NOT (\(excluded))
            """
    }

    /// Binds each column of `record` to its parameter of the upsert.
    @inline(__always)
    func bind(_ record: Record, to statement: SQLiteStatement) throws(SQLiteError) {
        var binder = ColumnBinder(statement: statement)
        var record = record
        try record.visitColumns(&binder)
    }

    /// Sets `record`'s columns from the current row of a statement that selected `names` first.
    /// In place: a `Message` is copied, each of its strings retained, on every copy.
    @inline(__always)
    func read(from row: SQLiteStatement, into record: inout Record) {
        var reader = ColumnReader(row: row)
        record.visitColumns(&reader)
    }
}
