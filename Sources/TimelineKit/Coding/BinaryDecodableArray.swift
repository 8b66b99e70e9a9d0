/// `Array`, as seen by `BinaryReader.decodeValue`: decoded with its capacity reserved up front
/// and without the per-element type lookups of `Array.init(from:)`, which took a tenth of the
/// time of decoding a timeline. The bytes are the same: an unkeyed container.
protocol BinaryDecodableArray {
    /// Decodes an array of this type as `T`, which must be this type.
    static func decodeArray<T>(from reader: BinaryReader, as type: T.Type) throws -> T
}

extension Array: BinaryDecodableArray where Element: Decodable {
    static func decodeArray<T>(from reader: BinaryReader, as type: T.Type) throws -> T {
        var container = try reader.makeUnkeyedContainer()
        var array: [Element] = []
        // The count is at most the number of bytes left (`readCount`), so this is bounded.
        array.reserveCapacity(container.count ?? 0)
        while !container.isAtEnd {
            array.append(try container.decode(Element.self))
        }
        // `T` is this array type: `BinaryReader` found this method by casting `T.self`.
        return unsafeBitCast(array, to: T.self)
    }
}
