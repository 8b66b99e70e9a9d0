/// A type whose binary form is its fields, in the order that `visitFields` lists them: the one
/// definition of the type's place in the format, which writing, reading and stepping over all
/// follow.
///
/// ```swift
/// extension Attachment: BinaryRecord {
///     static var blank: Attachment { Attachment(kind: "") }
///     mutating func visitFields<Visitor: BinaryFieldVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
///         try visitor.visit(&kind, "kind")
///         try visitor.visit(&url, "url")
///         try visitor.visit(&altText, "alt_text")
///     }
/// }
/// ```
///
/// Writing hands each field to a visitor that appends it; reading starts from `blank` and has
/// each field overwritten in turn; stepping over (a snapshot preview skips the messages a first
/// screen does not show) moves past each field without making it. A field added to the type and
/// to its list is therefore written, read and skipped alike, with no other edit; the format
/// version must change with it all the same (`TimelineSnapshot.formatVersion`).
///
/// The bytes are those that the type's synthesized `Codable` conformance writes through
/// `BinaryEncoder`'s containers when the list follows the order of declaration, as it must: the
/// payload stays a Codable payload that `init(from:)` reads too, and a test checks that both
/// routes give the same bytes and values. Records are read and written without Codable only
/// because its containers cost a type lookup and an allocation per value, several times the
/// reading itself, on the path of a terminal's first paint.
///
/// A record must not hold itself (directly, or through an optional or an array): hostile input
/// could then nest it as deep as the input is long.
protocol BinaryRecord: BinaryField, Codable {
    /// A value for reading to fill in: every field is overwritten, so any value will do.
    static var blank: Self { get }

    /// Hands each stored field to `visitor`, in format order, with its name for errors.
    mutating func visitFields<Visitor: BinaryFieldVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure)
}

/// What `BinaryRecord.visitFields` hands each field to.
protocol BinaryFieldVisitor {
    associatedtype Failure: Error
    mutating func visit<Field: BinaryField>(_ field: inout Field, _ name: StaticString) throws(Failure)
}

extension BinaryFieldVisitor {
    /// When `Field` is `Record`, visits the record's fields with this same visitor instead of
    /// handing it the record whole, so that the visitor meets the fields inside; returns whether
    /// it did.
    mutating func visitFields<Field, Record: BinaryRecord>(
        of field: inout Field, as _: Record.Type
    ) throws(Failure) -> Bool {
        guard Field.self == Record.self else { return false }
        // Both casts convert between `Field` and `Record`, which the guard found to be one type.
        var record = field as! Record
        try record.visitFields(&self)
        field = record as! Field
        return true
    }
}

extension BinaryRecord {
    func write(to writer: BinaryWriter) {
        var fields = FieldWriter(writer: writer)
        var value = self
        value.visitFields(&fields)
    }

    static func read(from reader: BinaryReader) throws(BinaryDecodingError) -> Self {
        var fields = FieldReader(reader: reader)
        var value = blank
        try value.visitFields(&fields)
        return value
    }

    static func skip(in reader: BinaryReader) throws(BinaryDecodingError) {
        var scratch = blank
        try skip(in: reader, scratch: &scratch)
    }

    /// `skip(in:)`, visiting the fields of `scratch`, which stay as they are: a caller that steps
    /// over many records makes one `blank` value for all of them.
    @inline(__always)
    static func skip(in reader: BinaryReader, scratch: inout Self) throws(BinaryDecodingError) {
        var fields = FieldSkipper(reader: reader)
        try scratch.visitFields(&fields)
    }

    /// `read(from:)` as `T`, which is this type: `BinaryReader.decodeValue` found this method by
    /// casting `T.self`, so the cast below always succeeds.
    static func read<T>(from reader: BinaryReader, as _: T.Type) throws(BinaryDecodingError) -> T {
        try read(from: reader) as! T
    }
}

/// Appends each field.
private struct FieldWriter: BinaryFieldVisitor {
    let writer: BinaryWriter

    func visit<Field: BinaryField>(_ field: inout Field, _: StaticString) {
        field.write(to: writer)
    }
}

/// Reads each field in place; a failure gets the field's name in front of its coding path.
struct FieldReader: BinaryFieldVisitor {
    let reader: BinaryReader

    @inline(__always)
    func visit<Field: BinaryField>(_ field: inout Field, _ name: StaticString) throws(BinaryDecodingError) {
        do {
            field = try Field.read(from: reader)
        } catch {
            throw error.prefixed(with: BinaryCodingKey(stringValue: name.description))
        }
    }
}

/// Steps over each field, checking only that its bytes are there (strings are not validated).
private struct FieldSkipper: BinaryFieldVisitor {
    let reader: BinaryReader

    @inline(__always)
    func visit<Field: BinaryField>(_: inout Field, _: StaticString) throws(BinaryDecodingError) {
        try Field.skip(in: reader)
    }
}
