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
/// The list is the type's binary form and nothing else: its `Codable` conformance (for JSON)
/// stays synthesized from its declaration. A test checks that every `Codable` key is in the list
/// and every name in the list is a `Codable` key, so that a property added to the type and not to
/// its list fails. The lists keep the order of declaration, which is the order the payload had
/// when `BinaryEncoder` wrote it through Codable's containers.
///
/// A record must not hold itself (directly, or through an optional or an array): hostile input
/// could then nest it as deep as the input is long.
protocol BinaryRecord: BinaryField {
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
