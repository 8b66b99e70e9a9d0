// `BinaryWriter` as the `Encoder` handed to `encode(to:)`, and its containers. They hold no
// bytes of their own: each appends to the writer's buffer at once, the value's bytes as its
// `BinaryField` conformance has them. Each puts its key in front of the coding path of an error
// that passes through it; their own `codingPath` is always empty (`BinaryWriter`).
//
// What the format leaves out (see `BinaryEncoder`) is refused with `.unsupported`: nested
// containers and super encoders, whose openings cannot throw, leave a deferred error that
// `BinaryEncoder.encode` throws.

extension BinaryWriter: Encoder {
    /// Always empty (see the type's documentation); errors carry the full path.
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedBinaryEncodingContainer<Key>(writer: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedBinaryEncodingContainer(writer: self, handle: openPending())
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueBinaryEncodingContainer(writer: self)
    }

    /// Records that `what` was asked for, and hands back a container whose bytes will never be
    /// returned: the encoding fails with `.unsupported` when it ends.
    fileprivate func refuse(_ what: String, at key: some CodingKey) {
        deferError(error(.unsupported(what: what)).prefixed(with: key))
    }

    fileprivate static let nestedContainer = "a nested container (an enum with associated values, or an encode(to:) that nests containers)"
    fileprivate static let superEncoder = "a super encoder (a subclass's encode(to:))"
}

/// A keyed container. Positional: values follow each other in the order they are encoded and
/// keys are not written; synthesized Codable reads them back in the same order.
struct KeyedBinaryEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: BinaryWriter

    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { writer.writePresence(false) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { value.write(to: writer) }
    mutating func encode(_ value: String, forKey key: Key) throws { value.write(to: writer) }
    mutating func encode(_ value: Double, forKey key: Key) throws { value.write(to: writer) }
    mutating func encode(_ value: Float, forKey key: Key) throws { value.write(to: writer) }
    mutating func encode(_ value: Int, forKey key: Key) throws { value.write(to: writer) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { value.write(to: writer) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { value.write(to: writer) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { value.write(to: writer) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { value.write(to: writer) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { value.write(to: writer) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { value.write(to: writer) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { value.write(to: writer) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { value.write(to: writer) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { value.write(to: writer) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try writer.encodeValue(value, at: key)
    }

    // Every `encodeIfPresent` is overridden: the default ones write nothing for `nil`, which
    // would shift every later value of this positional container. An optional `BinaryField`
    // writes its presence byte itself.

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { value.write(to: writer) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { value.write(to: writer) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { value.write(to: writer) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { value.write(to: writer) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { value.write(to: writer) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { value.write(to: writer) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { value.write(to: writer) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { value.write(to: writer) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { value.write(to: writer) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { value.write(to: writer) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { value.write(to: writer) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { value.write(to: writer) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { value.write(to: writer) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { value.write(to: writer) }

    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        writer.writePresence(value != nil)
        if let value { try writer.encodeValue(value, at: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        writer.refuse(BinaryWriter.nestedContainer, at: key)
        return writer.container(keyedBy: NestedKey.self)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        writer.refuse(BinaryWriter.nestedContainer, at: key)
        return writer.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        writer.refuse(BinaryWriter.superEncoder, at: BinaryCodingKey(stringValue: "super"))
        return writer
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        writer.refuse(BinaryWriter.superEncoder, at: key)
        return writer
    }
}

/// An unkeyed container: a varint element count (patched in when the `encode(to:)` that opened
/// it returns), then the elements. Every element takes at least one byte, which the decoder
/// relies on to refuse absurd counts; an element type that encodes to nothing is refused here.
struct UnkeyedBinaryEncodingContainer: UnkeyedEncodingContainer {
    let writer: BinaryWriter
    let handle: BinaryWriter.PendingHandle

    var codingPath: [any CodingKey] { [] }
    var count: Int { writer.pendingCount(handle) }

    /// Counts a new element; returns its index.
    @inline(__always)
    private func element() throws -> Int {
        guard let index = writer.countElement(handle) else {
            throw writer.error(.containerUsedAfterCompletion).prefixed(with: IndexCodingKey(count))
        }
        return index
    }

    private mutating func append(_ value: some BinaryField) throws {
        _ = try element()
        value.write(to: writer)
    }

    mutating func encodeNil() throws {
        _ = try element()
        writer.writePresence(false)
    }
    mutating func encode(_ value: Bool) throws { try append(value) }
    mutating func encode(_ value: String) throws { try append(value) }
    mutating func encode(_ value: Double) throws { try append(value) }
    mutating func encode(_ value: Float) throws { try append(value) }
    mutating func encode(_ value: Int) throws { try append(value) }
    mutating func encode(_ value: Int8) throws { try append(value) }
    mutating func encode(_ value: Int16) throws { try append(value) }
    mutating func encode(_ value: Int32) throws { try append(value) }
    mutating func encode(_ value: Int64) throws { try append(value) }
    mutating func encode(_ value: UInt) throws { try append(value) }
    mutating func encode(_ value: UInt8) throws { try append(value) }
    mutating func encode(_ value: UInt16) throws { try append(value) }
    mutating func encode(_ value: UInt32) throws { try append(value) }
    mutating func encode(_ value: UInt64) throws { try append(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let index = try element()
        let start = writer.bytes.count
        try writer.encodeValue(value, at: IndexCodingKey(index))
        guard writer.bytes.count > start else {
            throw writer.error(.emptyElement).prefixed(with: IndexCodingKey(index))
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        writer.refuse(BinaryWriter.nestedContainer, at: IndexCodingKey(count))
        return writer.container(keyedBy: NestedKey.self)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        writer.refuse(BinaryWriter.nestedContainer, at: IndexCodingKey(count))
        return writer.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        writer.refuse(BinaryWriter.superEncoder, at: IndexCodingKey(count))
        return writer
    }
}

/// A single value: written in line with no marker, except `encodeNil()`, which writes the
/// "absent" presence byte of an optional.
struct SingleValueBinaryEncodingContainer: SingleValueEncodingContainer {
    let writer: BinaryWriter

    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { writer.writePresence(false) }
    mutating func encode(_ value: Bool) throws { value.write(to: writer) }
    mutating func encode(_ value: String) throws { value.write(to: writer) }
    mutating func encode(_ value: Double) throws { value.write(to: writer) }
    mutating func encode(_ value: Float) throws { value.write(to: writer) }
    mutating func encode(_ value: Int) throws { value.write(to: writer) }
    mutating func encode(_ value: Int8) throws { value.write(to: writer) }
    mutating func encode(_ value: Int16) throws { value.write(to: writer) }
    mutating func encode(_ value: Int32) throws { value.write(to: writer) }
    mutating func encode(_ value: Int64) throws { value.write(to: writer) }
    mutating func encode(_ value: UInt) throws { value.write(to: writer) }
    mutating func encode(_ value: UInt8) throws { value.write(to: writer) }
    mutating func encode(_ value: UInt16) throws { value.write(to: writer) }
    mutating func encode(_ value: UInt32) throws { value.write(to: writer) }
    mutating func encode(_ value: UInt64) throws { value.write(to: writer) }

    mutating func encode<T: Encodable>(_ value: T) throws { try writer.encodeValue(value) }
}
