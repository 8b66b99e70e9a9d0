// The containers `BinaryWriter` hands to `encode(to:)`. They hold no bytes of their own: each
// appends to the writer's buffer at once, so containers must be used in stack order (finish a
// nested container before writing to its parent again), as synthesized Codable always does.
// Each puts its key in front of the coding path of an error that passes through it; their own
// `codingPath` is always empty (`BinaryWriter`).

/// A keyed container. Positional (the usual case): values follow each other in the order they
/// are encoded and keys are not written, except in front of nested containers opened by key.
/// Dictionary (`dictionary` set): every entry's key also goes to the dictionary's key table.
struct KeyedBinaryEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: BinaryWriter
    /// The dictionary this container fills, or `nil` for a positional container.
    let dictionary: BinaryWriter.PendingHandle?

    var codingPath: [any CodingKey] { [] }

    /// Starts an entry: a dictionary records its key.
    @inline(__always)
    private func entry(_ key: some CodingKey) throws {
        guard let dictionary else { return }
        guard writer.addDictionaryKey(key, dictionary) else {
            throw writer.error(.containerUsedAfterCompletion).prefixed(with: key)
        }
    }

    /// Starts an entry that is a nested container or a super encoder: the key goes to the key
    /// table of a dictionary or, in a positional container, in front of the nested data.
    private func nestedEntry(_ key: some CodingKey) {
        if let dictionary {
            if !writer.addDictionaryKey(key, dictionary) {
                writer.deferError(writer.error(.containerUsedAfterCompletion).prefixed(with: key))
            }
        } else {
            StoredKey(key).append(to: &writer.bytes)
        }
    }

    /// An optional: presence byte, then the value if there is one.
    @inline(__always)
    private func present<V>(_ value: V?, _ key: Key, _ write: (BinaryWriter, V) -> Void) throws {
        try entry(key)
        if let value {
            writer.writePresence(true)
            write(writer, value)
        } else {
            writer.writePresence(false)
        }
    }

    mutating func encodeNil(forKey key: Key) throws {
        try entry(key)
        writer.writePresence(false)
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        try entry(key)
        writer.writeBool(value)
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        try entry(key)
        writer.writeString(value)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try entry(key)
        writer.writeDouble(value)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        try entry(key)
        writer.writeFloat(value)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        try entry(key)
        writer.writeSigned(value)
    }
    mutating func encode(_ value: Int8, forKey key: Key) throws {
        try entry(key)
        writer.writeByte(UInt8(bitPattern: value))
    }
    mutating func encode(_ value: Int16, forKey key: Key) throws {
        try entry(key)
        writer.writeSigned(value)
    }
    mutating func encode(_ value: Int32, forKey key: Key) throws {
        try entry(key)
        writer.writeSigned(value)
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws {
        try entry(key)
        writer.writeSigned(value)
    }
    mutating func encode(_ value: Int128, forKey key: Key) throws {
        try entry(key)
        writer.writeInt128(value)
    }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        try entry(key)
        writer.writeUnsigned(value)
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws {
        try entry(key)
        writer.writeByte(value)
    }
    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        try entry(key)
        writer.writeUnsigned(value)
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        try entry(key)
        writer.writeUnsigned(value)
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        try entry(key)
        writer.writeUnsigned(value)
    }
    mutating func encode(_ value: UInt128, forKey key: Key) throws {
        try entry(key)
        writer.writeUInt128(value)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try entry(key)
        try writer.encodeValue(value, at: key)
    }

    // Every `encodeIfPresent` is overridden: the default ones write nothing for `nil`, which
    // would shift every later value of this positional container.

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        try present(value, key) { $0.writeBool($1) }
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        try present(value, key) { $0.writeString($1) }
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        try present(value, key) { $0.writeDouble($1) }
    }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        try present(value, key) { $0.writeFloat($1) }
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        try present(value, key) { $0.writeSigned($1) }
    }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        try present(value, key) { $0.writeByte(UInt8(bitPattern: $1)) }
    }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        try present(value, key) { $0.writeSigned($1) }
    }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        try present(value, key) { $0.writeSigned($1) }
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        try present(value, key) { $0.writeSigned($1) }
    }
    mutating func encodeIfPresent(_ value: Int128?, forKey key: Key) throws {
        try present(value, key) { $0.writeInt128($1) }
    }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        try present(value, key) { $0.writeUnsigned($1) }
    }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        try present(value, key) { $0.writeByte($1) }
    }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        try present(value, key) { $0.writeUnsigned($1) }
    }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        try present(value, key) { $0.writeUnsigned($1) }
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        try present(value, key) { $0.writeUnsigned($1) }
    }
    mutating func encodeIfPresent(_ value: UInt128?, forKey key: Key) throws {
        try present(value, key) { $0.writeUInt128($1) }
    }

    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        try entry(key)
        guard let value else { return writer.writePresence(false) }
        writer.writePresence(true)
        try writer.encodeValue(value, at: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        nestedEntry(key)
        return writer.keyedContainer(keyedBy: NestedKey.self)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        nestedEntry(key)
        return writer.makeUnkeyedContainer()
    }

    /// The superclass's data is written in line, after the key `super`.
    mutating func superEncoder() -> any Encoder {
        nestedEntry(BinaryCodingKey(stringValue: "super"))
        return writer
    }

    /// The superclass's data is written in line, after `key`.
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        nestedEntry(key)
        return writer
    }
}

/// An unkeyed container: a varint element count (patched in when the `encode(to:)` that opened
/// it returns), then the elements. Every element takes at least one byte, which the decoder
/// relies on to refuse absurd counts; an element type that encodes to nothing is refused here.
struct UnkeyedBinaryEncodingContainer: UnkeyedEncodingContainer {
    let writer: BinaryWriter
    private let handle: BinaryWriter.PendingHandle

    init(writer: BinaryWriter, handle: BinaryWriter.PendingHandle) {
        self.writer = writer
        self.handle = handle
    }

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

    /// Counts a new element that is a nested container or a super encoder, and writes its
    /// marker byte so that it takes at least one byte even if the nested container stays empty.
    private func nestedElement() {
        writer.writeByte(BinaryWriter.nestedElementMarker)
        if writer.countElement(handle) == nil {
            writer.deferError(writer.error(.containerUsedAfterCompletion).prefixed(with: IndexCodingKey(count)))
        }
    }

    mutating func encodeNil() throws {
        _ = try element()
        writer.writePresence(false)
    }

    mutating func encode(_ value: Bool) throws {
        _ = try element()
        writer.writeBool(value)
    }
    mutating func encode(_ value: String) throws {
        _ = try element()
        writer.writeString(value)
    }
    mutating func encode(_ value: Double) throws {
        _ = try element()
        writer.writeDouble(value)
    }
    mutating func encode(_ value: Float) throws {
        _ = try element()
        writer.writeFloat(value)
    }
    mutating func encode(_ value: Int) throws {
        _ = try element()
        writer.writeSigned(value)
    }
    mutating func encode(_ value: Int8) throws {
        _ = try element()
        writer.writeByte(UInt8(bitPattern: value))
    }
    mutating func encode(_ value: Int16) throws {
        _ = try element()
        writer.writeSigned(value)
    }
    mutating func encode(_ value: Int32) throws {
        _ = try element()
        writer.writeSigned(value)
    }
    mutating func encode(_ value: Int64) throws {
        _ = try element()
        writer.writeSigned(value)
    }
    mutating func encode(_ value: Int128) throws {
        _ = try element()
        writer.writeInt128(value)
    }
    mutating func encode(_ value: UInt) throws {
        _ = try element()
        writer.writeUnsigned(value)
    }
    mutating func encode(_ value: UInt8) throws {
        _ = try element()
        writer.writeByte(value)
    }
    mutating func encode(_ value: UInt16) throws {
        _ = try element()
        writer.writeUnsigned(value)
    }
    mutating func encode(_ value: UInt32) throws {
        _ = try element()
        writer.writeUnsigned(value)
    }
    mutating func encode(_ value: UInt64) throws {
        _ = try element()
        writer.writeUnsigned(value)
    }
    mutating func encode(_ value: UInt128) throws {
        _ = try element()
        writer.writeUInt128(value)
    }

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
        nestedElement()
        return writer.keyedContainer(keyedBy: NestedKey.self)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        nestedElement()
        return writer.makeUnkeyedContainer()
    }

    /// The superclass's data is written in line as the next element.
    mutating func superEncoder() -> any Encoder {
        nestedElement()
        return writer
    }
}

/// A single value: written in line with no marker, except `encodeNil()`, which writes the
/// "absent" presence byte of an optional.
struct SingleValueBinaryEncodingContainer: SingleValueEncodingContainer {
    let writer: BinaryWriter

    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { writer.writePresence(false) }
    mutating func encode(_ value: Bool) throws { writer.writeBool(value) }
    mutating func encode(_ value: String) throws { writer.writeString(value) }
    mutating func encode(_ value: Double) throws { writer.writeDouble(value) }
    mutating func encode(_ value: Float) throws { writer.writeFloat(value) }
    mutating func encode(_ value: Int) throws { writer.writeSigned(value) }
    mutating func encode(_ value: Int8) throws { writer.writeByte(UInt8(bitPattern: value)) }
    mutating func encode(_ value: Int16) throws { writer.writeSigned(value) }
    mutating func encode(_ value: Int32) throws { writer.writeSigned(value) }
    mutating func encode(_ value: Int64) throws { writer.writeSigned(value) }
    mutating func encode(_ value: Int128) throws { writer.writeInt128(value) }
    mutating func encode(_ value: UInt) throws { writer.writeUnsigned(value) }
    mutating func encode(_ value: UInt8) throws { writer.writeByte(value) }
    mutating func encode(_ value: UInt16) throws { writer.writeUnsigned(value) }
    mutating func encode(_ value: UInt32) throws { writer.writeUnsigned(value) }
    mutating func encode(_ value: UInt64) throws { writer.writeUnsigned(value) }
    mutating func encode(_ value: UInt128) throws { writer.writeUInt128(value) }

    mutating func encode<T: Encodable>(_ value: T) throws { try writer.encodeValue(value) }
}
