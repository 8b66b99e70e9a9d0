/// A type that `BinaryDecoder` decodes straight from the reader, skipping Codable's containers.
///
/// Synthesized `init(from:)` costs a runtime type lookup and an allocation per value and a
/// dynamic dispatch per field, which made decoding a snapshot of messages take several times
/// longer than reading its bytes. The types on that hot path therefore read their fields here
/// themselves, from exactly the bytes their synthesized `encode(to:)` writes: the same fields,
/// in `CodingKeys` order, with `decode(_:forKey:)` for each property and
/// `decodeIfPresent(_:forKey:)` for each optional one. Encoding still goes through Codable, so
/// the format is defined by the synthesized conformance alone.
///
/// When a property is added, removed or reordered, update the conformance with it (the tests
/// check that both routes decode the same bytes to the same value); until then, decoding data
/// written for the new shape fails with a `BinaryDecodingError` rather than returning nonsense.
protocol BinaryDecodable: Decodable {
    /// Reads a value's fields from `reader`, in the order its synthesized Codable conformance
    /// wrote them. (A static function rather than an initializer, so that `decodeDirectly` can
    /// move the value it returns into place instead of copying it.)
    static func decode(binary reader: BinaryReader) throws -> Self
}

extension BinaryDecodable {
    /// Decodes a value of this type as `T`, which is this type: `BinaryReader` found this
    /// method by casting `T.self`, so the cast below always succeeds (and moves, not copies).
    static func decodeDirectly<T>(from reader: BinaryReader, as type: T.Type) throws -> T {
        try decode(binary: reader) as! T
    }
}
