// The containers `BinaryReader` hands to `init(from:)`. They hold no bytes of their own: each
// reads from the reader's cursor at once, in the order the encoder wrote (see `BinaryEncoder`).
// Reads throw `BinaryDecodingError`; each container puts its key in front of the error's coding
// path as the error passes through it. Their own `codingPath` is always empty (`BinaryReader`).

/// A positional keyed container, for structs and everything else but dictionaries: each decode
/// reads the next value, whatever the key, because keys are not stored.
///
/// Its only stored property is the reader: the standard library's `KeyedDecodingContainer` box
/// copies the container for every call, and each stored reference costs a retain and a release
/// per decoded field.
struct KeyedBinaryDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let reader: BinaryReader

    var codingPath: [any CodingKey] { [] }

    /// Keys are not stored, so this reports only the key in front of the nested container at the
    /// cursor, if there is one: that is how synthesized Codable of an enum with associated values
    /// learns which case follows.
    var allKeys: [Key] {
        reader.peekStoredKey(Key.self).map { [$0] } ?? []
    }

    /// `true` for every key: keys are not stored, every property has its place, and an absent
    /// optional is told by its presence byte (`decodeNil(forKey:)`).
    func contains(_ key: Key) -> Bool { true }

    /// Runs one read for `key`, putting the key in front of its error's coding path.
    @inline(__always)
    private func read<V>(_ key: Key, _ body: (BinaryReader) throws -> V) throws -> V {
        do {
            return try body(reader)
        } catch let error as BinaryDecodingError {
            throw error.prefixed(with: key)
        }
    }

    /// An optional: presence byte, then the value if there is one.
    @inline(__always)
    private func readIfPresent<V>(_ key: Key, _ body: (BinaryReader) throws -> V) throws -> V? {
        try read(key) { reader in
            guard try reader.readPresence() else { return nil }
            return try body(reader)
        }
    }

    /// Reads the presence byte: `true` for absent; `false` for present, the value to be decoded
    /// next with this key.
    func decodeNil(forKey key: Key) throws -> Bool {
        try !read(key) { try $0.readPresence() }
    }

    func decode(_: Bool.Type, forKey key: Key) throws -> Bool {
        try read(key) { try $0.readBool() }
    }
    func decode(_: String.Type, forKey key: Key) throws -> String {
        try read(key) { try $0.readString() }
    }
    func decode(_: Double.Type, forKey key: Key) throws -> Double {
        try read(key) { try $0.readDouble() }
    }
    func decode(_: Float.Type, forKey key: Key) throws -> Float {
        try read(key) { try $0.readFloat() }
    }
    func decode(_: Int.Type, forKey key: Key) throws -> Int {
        try read(key) { try $0.readSigned(Int.self) }
    }
    func decode(_: Int8.Type, forKey key: Key) throws -> Int8 {
        try read(key) { try $0.readInt8() }
    }
    func decode(_: Int16.Type, forKey key: Key) throws -> Int16 {
        try read(key) { try $0.readSigned(Int16.self) }
    }
    func decode(_: Int32.Type, forKey key: Key) throws -> Int32 {
        try read(key) { try $0.readSigned(Int32.self) }
    }
    func decode(_: Int64.Type, forKey key: Key) throws -> Int64 {
        try read(key) { try $0.readSigned(Int64.self) }
    }
    func decode(_: Int128.Type, forKey key: Key) throws -> Int128 {
        try read(key) { try $0.readInt128() }
    }
    func decode(_: UInt.Type, forKey key: Key) throws -> UInt {
        try read(key) { try $0.readUnsigned(UInt.self) }
    }
    func decode(_: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try read(key) { try $0.readByte() }
    }
    func decode(_: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try read(key) { try $0.readUnsigned(UInt16.self) }
    }
    func decode(_: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try read(key) { try $0.readUnsigned(UInt32.self) }
    }
    func decode(_: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try read(key) { try $0.readUnsigned(UInt64.self) }
    }
    func decode(_: UInt128.Type, forKey key: Key) throws -> UInt128 {
        try read(key) { try $0.readUInt128() }
    }

    func decode<T: Decodable>(_: T.Type, forKey key: Key) throws -> T {
        try reader.decodeValue(T.self, at: key)
    }

    // Every `decodeIfPresent` is overridden to read the presence byte that every
    // `encodeIfPresent` writes (the default ones would call `contains` and `decodeNil`).

    func decodeIfPresent(_: Bool.Type, forKey key: Key) throws -> Bool? {
        try readIfPresent(key) { try $0.readBool() }
    }
    func decodeIfPresent(_: String.Type, forKey key: Key) throws -> String? {
        try readIfPresent(key) { try $0.readString() }
    }
    func decodeIfPresent(_: Double.Type, forKey key: Key) throws -> Double? {
        try readIfPresent(key) { try $0.readDouble() }
    }
    func decodeIfPresent(_: Float.Type, forKey key: Key) throws -> Float? {
        try readIfPresent(key) { try $0.readFloat() }
    }
    func decodeIfPresent(_: Int.Type, forKey key: Key) throws -> Int? {
        try readIfPresent(key) { try $0.readSigned(Int.self) }
    }
    func decodeIfPresent(_: Int8.Type, forKey key: Key) throws -> Int8? {
        try readIfPresent(key) { try $0.readInt8() }
    }
    func decodeIfPresent(_: Int16.Type, forKey key: Key) throws -> Int16? {
        try readIfPresent(key) { try $0.readSigned(Int16.self) }
    }
    func decodeIfPresent(_: Int32.Type, forKey key: Key) throws -> Int32? {
        try readIfPresent(key) { try $0.readSigned(Int32.self) }
    }
    func decodeIfPresent(_: Int64.Type, forKey key: Key) throws -> Int64? {
        try readIfPresent(key) { try $0.readSigned(Int64.self) }
    }
    func decodeIfPresent(_: Int128.Type, forKey key: Key) throws -> Int128? {
        try readIfPresent(key) { try $0.readInt128() }
    }
    func decodeIfPresent(_: UInt.Type, forKey key: Key) throws -> UInt? {
        try readIfPresent(key) { try $0.readUnsigned(UInt.self) }
    }
    func decodeIfPresent(_: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try readIfPresent(key) { try $0.readByte() }
    }
    func decodeIfPresent(_: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try readIfPresent(key) { try $0.readUnsigned(UInt16.self) }
    }
    func decodeIfPresent(_: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try readIfPresent(key) { try $0.readUnsigned(UInt32.self) }
    }
    func decodeIfPresent(_: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try readIfPresent(key) { try $0.readUnsigned(UInt64.self) }
    }
    func decodeIfPresent(_: UInt128.Type, forKey key: Key) throws -> UInt128? {
        try readIfPresent(key) { try $0.readUInt128() }
    }

    func decodeIfPresent<T: Decodable>(_: T.Type, forKey key: Key) throws -> T? {
        guard try read(key, { try $0.readPresence() }) else { return nil }
        return try reader.decodeValue(T.self, at: key)
    }

    /// Checks the key stored in front of a nested container or super decoder.
    private func nestedEntry(_ key: some CodingKey) throws {
        do {
            try reader.expectStoredKey(key)
        } catch {
            throw error.prefixed(with: key)
        }
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try nestedEntry(key)
        return try read(key) { try $0.keyedContainer(keyedBy: NestedKey.self) }
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try nestedEntry(key)
        return try read(key) { try $0.makeUnkeyedContainer() }
    }

    func superDecoder() throws -> any Decoder {
        try nestedEntry(BinaryCodingKey(stringValue: "super"))
        return reader
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try nestedEntry(key)
        return reader
    }
}

/// The keyed container of a dictionary (`DictionaryCodingKeyType`): its key table is read when
/// it opens, and values follow in the table's order, which is the order of `allKeys` and the
/// order in which `Dictionary.init(from:)` decodes them. Decoding values in another order throws.
final class DictionaryBinaryDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    /// Reads the values, which are stored as in a positional container.
    private let values: KeyedBinaryDecodingContainer<Key>
    let allKeys: [Key]
    /// The index in `allKeys` of the next value.
    private var next = 0

    /// Reads a varint count and that many stored keys.
    init(reader: BinaryReader) throws(BinaryDecodingError) {
        values = KeyedBinaryDecodingContainer(reader: reader)
        // Every stored key takes at least one byte, so `readCount` bounds the allocation.
        let count = try reader.readCount()
        var keys: [Key] = []
        keys.reserveCapacity(count)
        for _ in 0 ..< count {
            let start = reader.cursor
            let stored = try reader.readStoredKey()
            guard let key = stored.key(Key.self) else {
                throw reader.fail(.unknownKey(stored.text), at: start)
            }
            keys.append(key)
        }
        allKeys = keys
    }

    var codingPath: [any CodingKey] { [] }

    func contains(_ key: Key) -> Bool {
        allKeys.contains { Self.same($0, key) }
    }

    private static func same(_ a: some CodingKey, _ b: some CodingKey) -> Bool {
        a.stringValue == b.stringValue && a.intValue == b.intValue
    }

    /// Checks that `key` is the next entry, and moves past it.
    private func step(_ key: some CodingKey) throws {
        let reader = values.reader
        guard next < allKeys.count else {
            throw reader.fail(.noMoreElements(count: allKeys.count), at: reader.cursor).prefixed(with: key)
        }
        guard Self.same(allKeys[next], key) else {
            let found = allKeys[next].stringValue
            throw reader.fail(.keyMismatch(expected: key.stringValue, found: found), at: reader.cursor)
                .prefixed(with: key)
        }
        next += 1
    }

    /// Reads the presence byte: `true` (absent) consumes the entry; `false` (present) leaves the
    /// value to be decoded next with this key.
    func decodeNil(forKey key: Key) throws -> Bool {
        try step(key)
        let isNil = try values.decodeNil(forKey: key)
        if !isNil { next -= 1 }
        return isNil
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try step(key)
        return try values.decode(type, forKey: key)
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try step(key)
        return try values.decode(type, forKey: key)
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try step(key)
        return try values.decode(type, forKey: key)
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try step(key)
        return try values.decode(type, forKey: key)
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try step(key)
        return try values.decode(type, forKey: key)
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        try step(key)
        return try values.decode(type, forKey: key)
    }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try step(key)
        return try values.decode(type, forKey: key)
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try step(key)
        return try values.decode(type, forKey: key)
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try step(key)
        return try values.decode(type, forKey: key)
    }
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 {
        try step(key)
        return try values.decode(type, forKey: key)
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        try step(key)
        return try values.decode(type, forKey: key)
    }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try step(key)
        return try values.decode(type, forKey: key)
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try step(key)
        return try values.decode(type, forKey: key)
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try step(key)
        return try values.decode(type, forKey: key)
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try step(key)
        return try values.decode(type, forKey: key)
    }
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 {
        try step(key)
        return try values.decode(type, forKey: key)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try step(key)
        return try values.decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try step(key)
        return try values.decodeIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try step(key)
        return try values.decodeIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try step(key)
        return try values.decodeIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try step(key)
        return try values.decodeIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try step(key)
        return try values.decodeIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try step(key)
        return try values.decodeIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try step(key)
        return try values.decodeIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try step(key)
        return try values.decodeIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try step(key)
        return try values.decodeIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? {
        try step(key)
        return try values.decodeIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try step(key)
        return try values.decodeIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try step(key)
        return try values.decodeIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try step(key)
        return try values.decodeIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try step(key)
        return try values.decodeIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try step(key)
        return try values.decodeIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? {
        try step(key)
        return try values.decodeIfPresent(type, forKey: key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try step(key)
        return try values.decodeIfPresent(type, forKey: key)
    }

    // Nested containers and super decoders of a dictionary entry have their key in the key
    // table, not in front of them.

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try step(key)
        do {
            return try values.reader.keyedContainer(keyedBy: NestedKey.self)
        } catch let error as BinaryDecodingError {
            throw error.prefixed(with: key)
        }
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try step(key)
        do {
            return try values.reader.makeUnkeyedContainer()
        } catch {
            throw error.prefixed(with: key)
        }
    }

    func superDecoder() throws -> any Decoder {
        try step(BinaryCodingKey(stringValue: "super"))
        return values.reader
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try step(key)
        return values.reader
    }
}

/// An unkeyed container: its element count has been read; each decode reads the next element.
/// Three words, so that the `any UnkeyedDecodingContainer` holding it needs no allocation.
struct UnkeyedBinaryDecodingContainer: UnkeyedDecodingContainer {
    let reader: BinaryReader
    private let elementCount: Int
    private(set) var currentIndex = 0

    init(reader: BinaryReader, count: Int) {
        self.reader = reader
        self.elementCount = count
    }

    var codingPath: [any CodingKey] { [] }
    var count: Int? { elementCount }
    var isAtEnd: Bool { currentIndex >= elementCount }

    private var indexKey: IndexCodingKey { IndexCodingKey(currentIndex) }

    @inline(__always)
    private func checkNotAtEnd() throws {
        guard currentIndex < elementCount else {
            throw reader.fail(.noMoreElements(count: elementCount), at: reader.cursor).prefixed(with: indexKey)
        }
    }

    /// Reads one element.
    @inline(__always)
    private mutating func element<V>(_ body: (BinaryReader) throws -> V) throws -> V {
        try checkNotAtEnd()
        do {
            let value = try body(reader)
            currentIndex += 1
            return value
        } catch let error as BinaryDecodingError {
            throw error.prefixed(with: indexKey)
        }
    }

    /// Reads the presence byte: `true` (absent) consumes the element; `false` (present) leaves
    /// the value to be decoded next.
    mutating func decodeNil() throws -> Bool {
        let present = try element { try $0.readPresence() }
        if present { currentIndex -= 1 }
        return !present
    }

    mutating func decode(_: Bool.Type) throws -> Bool {
        try element { try $0.readBool() }
    }
    mutating func decode(_: String.Type) throws -> String {
        try element { try $0.readString() }
    }
    mutating func decode(_: Double.Type) throws -> Double {
        try element { try $0.readDouble() }
    }
    mutating func decode(_: Float.Type) throws -> Float {
        try element { try $0.readFloat() }
    }
    mutating func decode(_: Int.Type) throws -> Int {
        try element { try $0.readSigned(Int.self) }
    }
    mutating func decode(_: Int8.Type) throws -> Int8 {
        try element { try $0.readInt8() }
    }
    mutating func decode(_: Int16.Type) throws -> Int16 {
        try element { try $0.readSigned(Int16.self) }
    }
    mutating func decode(_: Int32.Type) throws -> Int32 {
        try element { try $0.readSigned(Int32.self) }
    }
    mutating func decode(_: Int64.Type) throws -> Int64 {
        try element { try $0.readSigned(Int64.self) }
    }
    mutating func decode(_: Int128.Type) throws -> Int128 {
        try element { try $0.readInt128() }
    }
    mutating func decode(_: UInt.Type) throws -> UInt {
        try element { try $0.readUnsigned(UInt.self) }
    }
    mutating func decode(_: UInt8.Type) throws -> UInt8 {
        try element { try $0.readByte() }
    }
    mutating func decode(_: UInt16.Type) throws -> UInt16 {
        try element { try $0.readUnsigned(UInt16.self) }
    }
    mutating func decode(_: UInt32.Type) throws -> UInt32 {
        try element { try $0.readUnsigned(UInt32.self) }
    }
    mutating func decode(_: UInt64.Type) throws -> UInt64 {
        try element { try $0.readUnsigned(UInt64.self) }
    }
    mutating func decode(_: UInt128.Type) throws -> UInt128 {
        try element { try $0.readUInt128() }
    }

    /// Decodes the next element, which must take at least one byte: valid data always does, and
    /// refusing empty elements keeps a hostile count from making the decoder spin.
    mutating func decode<T: Decodable>(_: T.Type) throws -> T {
        try checkNotAtEnd()
        let start = reader.cursor
        let value = try reader.decodeValue(T.self, at: indexKey)
        guard reader.cursor > start else {
            throw reader.fail(.emptyElement, at: start).prefixed(with: indexKey)
        }
        currentIndex += 1
        return value
    }

    /// `nil` at the end of the container or for an absent optional; otherwise the value.
    mutating func decodeIfPresent<T: Decodable>(_: T.Type) throws -> T? {
        guard !isAtEnd, try !decodeNil() else { return nil }
        let value = try reader.decodeValue(T.self, at: indexKey)
        currentIndex += 1
        return value
    }

    /// Starts an element that is a nested container or a super decoder: reads the marker byte
    /// (0) the encoder writes so that every element takes at least one byte.
    private mutating func nestedElement() throws {
        try element { reader throws in
            let start = reader.cursor
            let marker = try reader.readByte()
            guard marker == BinaryWriter.nestedElementMarker else {
                throw reader.fail(.invalidMarker(marker), at: start)
            }
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try nestedElement()
        do {
            return try reader.keyedContainer(keyedBy: NestedKey.self)
        } catch let error as BinaryDecodingError {
            throw error.prefixed(with: IndexCodingKey(currentIndex - 1))
        }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try nestedElement()
        do {
            return try reader.makeUnkeyedContainer()
        } catch {
            throw error.prefixed(with: IndexCodingKey(currentIndex - 1))
        }
    }

    mutating func superDecoder() throws -> any Decoder {
        try nestedElement()
        return reader
    }
}

/// A single value, read in line. `decodeNil()` reads an optional's presence byte (it is how
/// `Optional.init(from:)` asks); as it cannot throw, a bad presence byte is remembered and
/// thrown by the next decode.
struct SingleValueBinaryDecodingContainer: SingleValueDecodingContainer {
    let reader: BinaryReader

    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool {
        guard reader.deferredError == nil else { return false }
        do throws(BinaryDecodingError) {
            return try !reader.readPresence()
        } catch {
            reader.deferError(error)
            return false
        }
    }

    @inline(__always)
    private func read<V>(_ body: (BinaryReader) throws -> V) throws -> V {
        if let error = reader.deferredError { throw error }
        return try body(reader)
    }

    func decode(_: Bool.Type) throws -> Bool {
        try read { try $0.readBool() }
    }
    func decode(_: String.Type) throws -> String {
        try read { try $0.readString() }
    }
    func decode(_: Double.Type) throws -> Double {
        try read { try $0.readDouble() }
    }
    func decode(_: Float.Type) throws -> Float {
        try read { try $0.readFloat() }
    }
    func decode(_: Int.Type) throws -> Int {
        try read { try $0.readSigned(Int.self) }
    }
    func decode(_: Int8.Type) throws -> Int8 {
        try read { try $0.readInt8() }
    }
    func decode(_: Int16.Type) throws -> Int16 {
        try read { try $0.readSigned(Int16.self) }
    }
    func decode(_: Int32.Type) throws -> Int32 {
        try read { try $0.readSigned(Int32.self) }
    }
    func decode(_: Int64.Type) throws -> Int64 {
        try read { try $0.readSigned(Int64.self) }
    }
    func decode(_: Int128.Type) throws -> Int128 {
        try read { try $0.readInt128() }
    }
    func decode(_: UInt.Type) throws -> UInt {
        try read { try $0.readUnsigned(UInt.self) }
    }
    func decode(_: UInt8.Type) throws -> UInt8 {
        try read { try $0.readByte() }
    }
    func decode(_: UInt16.Type) throws -> UInt16 {
        try read { try $0.readUnsigned(UInt16.self) }
    }
    func decode(_: UInt32.Type) throws -> UInt32 {
        try read { try $0.readUnsigned(UInt32.self) }
    }
    func decode(_: UInt64.Type) throws -> UInt64 {
        try read { try $0.readUnsigned(UInt64.self) }
    }
    func decode(_: UInt128.Type) throws -> UInt128 {
        try read { try $0.readUInt128() }
    }

    func decode<T: Decodable>(_: T.Type) throws -> T {
        if let error = reader.deferredError { throw error }
        return try reader.decodeValue(T.self)
    }
}
