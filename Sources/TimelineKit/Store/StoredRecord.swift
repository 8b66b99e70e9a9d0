/// A model type stored as one row of a table, its columns listed once, in order, by
/// `visitColumns`: the one declaration of each column (its name, and through its value's
/// `ColumnValue` conformance how it binds and reads) from which `StoredColumns` makes the SQL,
/// the binding and the reading.
///
/// ```swift
/// extension User: StoredRecord {
///     mutating func visitColumns<Visitor: ColumnVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
///         try visitor.visit(&id, "id")
///         try visitor.visit(&handle, "handle")
///     }
/// }
/// ```
///
/// The first column is the table's key. The visitors are generic, so each is compiled to
/// straight-line code for each type: no closure or table is consulted per column.
protocol StoredRecord {
    /// A value for reading to fill in: every column is overwritten, so any value will do. (The
    /// stored types are snapshot records too, whose `blank` serves both.)
    static var blank: Self { get }

    /// Hands each stored column to `visitor`, in order, with its name.
    mutating func visitColumns<Visitor: ColumnVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure)
}

/// What `StoredRecord.visitColumns` hands each column to.
protocol ColumnVisitor {
    associatedtype Failure: Error
    mutating func visit<Value: ColumnValue>(_ value: inout Value, _ name: StaticString) throws(Failure)
}

/// Collects the column names.
struct ColumnNames: ColumnVisitor {
    var names: [String] = []

    mutating func visit<Value: ColumnValue>(_: inout Value, _ name: StaticString) {
        names.append(name.description)
    }
}

/// Binds each column to its parameter, `?1` first.
struct ColumnBinder: ColumnVisitor {
    let statement: SQLiteStatement
    var index: Int32 = 1

    @inline(__always)
    mutating func visit<Value: ColumnValue>(_ value: inout Value, _: StaticString) throws(SQLiteError) {
        try value.bind(to: statement, at: index)
        index += 1
    }
}

/// Reads each column from the row, column 0 first.
struct ColumnReader: ColumnVisitor {
    let row: SQLiteStatement
    var index: Int32 = 0

    @inline(__always)
    mutating func visit<Value: ColumnValue>(_ value: inout Value, _: StaticString) {
        value = Value.read(from: row, at: index)
        index += 1
    }
}
