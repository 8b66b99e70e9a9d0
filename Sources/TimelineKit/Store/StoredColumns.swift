/// What is made from a `StoredRecord`'s one list of columns: the column list of a SELECT, the
/// upsert (an insert and an update), binding a value to them and reading a row back.
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

    /// An upsert is two statements: `makeInsert()`, and only when it inserted nothing (the key
    /// is stored), `makeUpdate()` with the same parameters. Parameter `?n` is column `n` (from 1),
    /// as `bind` fills them, in both.
    ///
    /// Why not one `INSERT … ON CONFLICT DO UPDATE` (issue 28): SQLite compiles the DO UPDATE
    /// with the ABORT conflict policy whatever the statement says, and a statement that may
    /// abort and writes more than one row (its triggers do) gets a statement journal inside a
    /// transaction: a copy of every page it changes, so that it can undo itself alone. An
    /// import is one transaction of one upsert per message, and those journals went to a
    /// temporary file (`etilqs_*`) at 2.4 GiB per 100k messages. Written `OR FAIL`, neither
    /// statement (nor the triggers it fires, which take the statement's policy) may abort, and
    /// none is journaled.
    ///
    /// What `OR FAIL` gives up is the undo of a statement that fails halfway (a constraint its
    /// triggers break, a full disk): the rows it changed before the failure stay. Inside
    /// TimelineKit that never commits: `TimelineTransaction` remembers a failed upsert and
    /// `TimelineStore.write` rolls the whole transaction back, even when its closure caught
    /// the error and returned (every caller in TimelineKit and the tool lets it throw).
    ///
    /// The insert: the record as a new row, or nothing when its key is stored. `OR FAIL` covers
    /// the other constraints (NOT NULL, CHECK); the key's conflict is the DO NOTHING.
    ///
    /// `numbered` sets one more column, not a record's, to an SQL expression (the messages'
    /// `seq`, which the table would otherwise choose itself).
    func makeInsert(numbered: (column: String, value: String)? = nil) -> String {
        var parameters = ""
        parameters.reserveCapacity(columns.count * 5)
        for index in columns.indices {
            parameters += index == 0 ? "?1" : ", ?" + String(index + 1)
        }
        let extraName = numbered.map { $0.column + ", " } ?? ""
        let extraValue = numbered.map { $0.value + ", " } ?? ""
        return """
            INSERT OR FAIL INTO \(table) (\(extraName)\(names)) VALUES (\(extraValue)\(parameters))
            ON CONFLICT (\(columns[0])) DO NOTHING
            """
    }

    /// The update of the stored row with the record's key, only when a column differs, so that
    /// storing the same value twice changes nothing (and moves no generation).
    func makeUpdate() -> String {
        var updates = "", stored = "", given = ""
        updates.reserveCapacity(names.utf8.count * 2)
        stored.reserveCapacity(names.utf8.count)
        given.reserveCapacity(columns.count * 5)
        for (index, name) in columns.enumerated() where index > 0 {
            if index > 1 {
                updates += ", "
                stored += ", "
                given += ", "
            }
            let parameter = "?" + String(index + 1)
            updates += name + " = " + parameter
            stored += name
            given += parameter
        }
        return """
            UPDATE OR FAIL \(table) SET \(updates)
            WHERE \(columns[0]) = ?1 AND (\(stored)) IS NOT (\(given))
            """
    }

    /// Binds each column of `record` to its parameter of the insert or the update.
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
