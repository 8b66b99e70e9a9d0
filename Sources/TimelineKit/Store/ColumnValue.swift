#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A Swift value as a column holds it: how it binds to a statement's parameter and how it reads
/// from a row, written once per kind of value for every table (`StoredRecord`).
protocol ColumnValue {
    func bind(to statement: SQLiteStatement, at index: Int32) throws(SQLiteError)
    static func read(from row: SQLiteStatement, at index: Int32) -> Self
}

extension String: ColumnValue {
    @inline(__always)
    func bind(to statement: SQLiteStatement, at index: Int32) throws(SQLiteError) { try statement.bind(self, at: index) }
    @inline(__always)
    static func read(from row: SQLiteStatement, at index: Int32) -> String { row.text(at: index) }
}

extension Int: ColumnValue {
    @inline(__always)
    func bind(to statement: SQLiteStatement, at index: Int32) throws(SQLiteError) { try statement.bind(self, at: index) }
    @inline(__always)
    static func read(from row: SQLiteStatement, at index: Int32) -> Int { row.int(at: index) }
}

/// 0 or 1.
extension Bool: ColumnValue {
    @inline(__always)
    func bind(to statement: SQLiteStatement, at index: Int32) throws(SQLiteError) { try statement.bind(self, at: index) }
    @inline(__always)
    static func read(from row: SQLiteStatement, at index: Int32) -> Bool { row.bool(at: index) }
}

/// Milliseconds since 1970, as every time column of the schema holds it (`MillisecondTime`).
extension Date: ColumnValue {
    @inline(__always)
    func bind(to statement: SQLiteStatement, at index: Int32) throws(SQLiteError) {
        try statement.bind(MillisecondTime.milliseconds(from: self), at: index)
    }

    @inline(__always)
    static func read(from row: SQLiteStatement, at index: Int32) -> Date {
        MillisecondTime.date(fromMilliseconds: row.int64(at: index))
    }
}

/// NULL when absent.
extension Optional: ColumnValue where Wrapped: ColumnValue {
    @inline(__always)
    func bind(to statement: SQLiteStatement, at index: Int32) throws(SQLiteError) {
        if let self { try self.bind(to: statement, at: index) } else { try statement.bindNull(at: index) }
    }

    @inline(__always)
    static func read(from row: SQLiteStatement, at index: Int32) -> Wrapped? {
        row.isNull(at: index) ? nil : Wrapped.read(from: row, at: index)
    }
}

/// A message's attachments: the `attachments` column's JSON (`AttachmentsColumn`).
extension Array: ColumnValue where Element == Attachment {
    @inline(__always)
    func bind(to statement: SQLiteStatement, at index: Int32) throws(SQLiteError) {
        try statement.bind(AttachmentsColumn.encode(self), at: index)
    }

    @inline(__always)
    static func read(from row: SQLiteStatement, at index: Int32) -> [Attachment] {
        AttachmentsColumn.decode(row.optionalText(at: index))
    }
}

/// Its raw value (`public`, `unlisted`, `private`, `direct`); text another program wrote that is
/// none of them reads as public, the widest, so that nothing is painted as more private than it is.
extension PostVisibility: ColumnValue {
    @inline(__always)
    func bind(to statement: SQLiteStatement, at index: Int32) throws(SQLiteError) { try statement.bind(rawValue, at: index) }
    @inline(__always)
    static func read(from row: SQLiteStatement, at index: Int32) -> PostVisibility {
        PostVisibility(rawValue: row.text(at: index)) ?? .public
    }
}

/// Its name; a name another program wrote that cannot name a source reads as `import`.
extension MessageSource: ColumnValue {
    @inline(__always)
    func bind(to statement: SQLiteStatement, at index: Int32) throws(SQLiteError) { try statement.bind(rawValue, at: index) }
    @inline(__always)
    static func read(from row: SQLiteStatement, at index: Int32) -> MessageSource {
        let name = row.text(at: index)
        return isValidName(name) ? MessageSource(unchecked: name) : .import
    }
}

/// A message's moderation facts: the `moderation` column's JSON (`ModerationColumn`), NULL when
/// there are none (nearly every message).
extension ModerationFacts: ColumnValue {
    @inline(__always)
    func bind(to statement: SQLiteStatement, at index: Int32) throws(SQLiteError) {
        try statement.bind(ModerationColumn.encode(self), at: index)
    }

    @inline(__always)
    static func read(from row: SQLiteStatement, at index: Int32) -> ModerationFacts {
        row.isNull(at: index) ? .none : ModerationColumn.decode(row.optionalText(at: index))
    }
}
