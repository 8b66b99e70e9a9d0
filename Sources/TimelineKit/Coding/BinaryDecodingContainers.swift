// `BinaryReader` as the `Decoder` handed to `init(from:)`, and its containers. They hold no
// bytes of their own: each reads from the reader's cursor at once, in the order the encoder
// wrote, each value as its `BinaryField` conformance has it. Reads throw `BinaryDecodingError`;
// each container puts its key in front of the error's coding path as the error passes through it.
// Their own `codingPath` is always empty (`BinaryReader`).
//
// What the format leaves out (see `BinaryEncoder`) is refused with `.unsupported`: nested
// containers and super decoders when asked for, and `allKeys` (which a dictionary or an enum
// with associated values reads to learn what follows) with a deferred error, as it cannot throw.

extension BinaryReader: Decoder {
    /// Always empty (see the type's documentation); errors carry the full path.
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(KeyedBinaryDecodingContainer<Key>(reader: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        UnkeyedBinaryDecodingContainer(reader: self, count: try readCount())
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueBinaryDecodingContainer(reader: self)
    }

    /// Reads one value, putting `key` in front of its error's coding path.
    @inline(__always)
    fileprivate func read<T: BinaryField>(_ key: some CodingKey) throws -> T {
        do {
            return try T.read(from: self)
        } catch {
            throw error.prefixed(with: key)
        }
    }

    fileprivate func refusal(_ what: String, at key: some CodingKey) -> BinaryDecodingError {
        fail(.unsupported(what: what), at: cursor).prefixed(with: key)
    }

    fileprivate static let nestedContainer = "a nested container (an enum with associated values, or an init(from:) that nests containers)"
    fileprivate static let superDecoder = "a super decoder (a subclass's init(from:))"
}

/// A positional keyed container: each decode reads the next value, whatever the key, because
/// keys are not stored.
///
/// Its only stored property is the reader: the standard library's `KeyedDecodingContainer` box
/// copies the container for every call, and each stored reference costs a retain and a release
/// per decoded field.
struct KeyedBinaryDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let reader: BinaryReader

    var codingPath: [any CodingKey] { [] }

    /// Keys are not stored, so there are none to list: a type that asks (a dictionary, an enum
    /// with associated values) is refused.
    var allKeys: [Key] {
        reader.deferError(reader.fail(.unsupported(what: "a type that lists its keys (a dictionary or an enum with associated values)"), at: reader.cursor))
        return []
    }

    /// `true` for every key: keys are not stored, every property has its place, and an absent
    /// optional is told by its presence byte (`decodeNil(forKey:)`).
    func contains(_ key: Key) -> Bool { true }

    /// Reads the presence byte: `true` for absent; `false` for present, the value to be decoded
    /// next with this key. (The default `decodeIfPresent` calls this, then `decode`.)
    func decodeNil(forKey key: Key) throws -> Bool {
        do {
            return try !reader.readPresence()
        } catch {
            throw error.prefixed(with: key)
        }
    }

    func decode(_: Bool.Type, forKey key: Key) throws -> Bool { try reader.read(key) }
    func decode(_: String.Type, forKey key: Key) throws -> String { try reader.read(key) }
    func decode(_: Double.Type, forKey key: Key) throws -> Double { try reader.read(key) }
    func decode(_: Float.Type, forKey key: Key) throws -> Float { try reader.read(key) }
    func decode(_: Int.Type, forKey key: Key) throws -> Int { try reader.read(key) }
    func decode(_: Int8.Type, forKey key: Key) throws -> Int8 { try reader.read(key) }
    func decode(_: Int16.Type, forKey key: Key) throws -> Int16 { try reader.read(key) }
    func decode(_: Int32.Type, forKey key: Key) throws -> Int32 { try reader.read(key) }
    func decode(_: Int64.Type, forKey key: Key) throws -> Int64 { try reader.read(key) }
    func decode(_: UInt.Type, forKey key: Key) throws -> UInt { try reader.read(key) }
    func decode(_: UInt8.Type, forKey key: Key) throws -> UInt8 { try reader.read(key) }
    func decode(_: UInt16.Type, forKey key: Key) throws -> UInt16 { try reader.read(key) }
    func decode(_: UInt32.Type, forKey key: Key) throws -> UInt32 { try reader.read(key) }
    func decode(_: UInt64.Type, forKey key: Key) throws -> UInt64 { try reader.read(key) }

    func decode<T: Decodable>(_: T.Type, forKey key: Key) throws -> T {
        try reader.decodeValue(T.self, at: key)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        throw reader.refusal(BinaryReader.nestedContainer, at: key)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw reader.refusal(BinaryReader.nestedContainer, at: key)
    }

    func superDecoder() throws -> any Decoder {
        throw reader.refusal(BinaryReader.superDecoder, at: BinaryCodingKey(stringValue: "super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        throw reader.refusal(BinaryReader.superDecoder, at: key)
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
    private mutating func next<T: BinaryField>() throws -> T {
        try checkNotAtEnd()
        let value: T = try reader.read(indexKey)
        currentIndex += 1
        return value
    }

    /// Reads the presence byte: `true` (absent) consumes the element; `false` (present) leaves
    /// the value to be decoded next.
    mutating func decodeNil() throws -> Bool {
        try checkNotAtEnd()
        do {
            guard try reader.readPresence() else {
                currentIndex += 1
                return true
            }
            return false
        } catch {
            throw error.prefixed(with: indexKey)
        }
    }

    mutating func decode(_: Bool.Type) throws -> Bool { try next() }
    mutating func decode(_: String.Type) throws -> String { try next() }
    mutating func decode(_: Double.Type) throws -> Double { try next() }
    mutating func decode(_: Float.Type) throws -> Float { try next() }
    mutating func decode(_: Int.Type) throws -> Int { try next() }
    mutating func decode(_: Int8.Type) throws -> Int8 { try next() }
    mutating func decode(_: Int16.Type) throws -> Int16 { try next() }
    mutating func decode(_: Int32.Type) throws -> Int32 { try next() }
    mutating func decode(_: Int64.Type) throws -> Int64 { try next() }
    mutating func decode(_: UInt.Type) throws -> UInt { try next() }
    mutating func decode(_: UInt8.Type) throws -> UInt8 { try next() }
    mutating func decode(_: UInt16.Type) throws -> UInt16 { try next() }
    mutating func decode(_: UInt32.Type) throws -> UInt32 { try next() }
    mutating func decode(_: UInt64.Type) throws -> UInt64 { try next() }

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

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        throw reader.refusal(BinaryReader.nestedContainer, at: indexKey)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw reader.refusal(BinaryReader.nestedContainer, at: indexKey)
    }

    mutating func superDecoder() throws -> any Decoder {
        throw reader.refusal(BinaryReader.superDecoder, at: indexKey)
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
    private func read<T: BinaryField>() throws -> T {
        if let error = reader.deferredError { throw error }
        return try T.read(from: reader)
    }

    func decode(_: Bool.Type) throws -> Bool { try read() }
    func decode(_: String.Type) throws -> String { try read() }
    func decode(_: Double.Type) throws -> Double { try read() }
    func decode(_: Float.Type) throws -> Float { try read() }
    func decode(_: Int.Type) throws -> Int { try read() }
    func decode(_: Int8.Type) throws -> Int8 { try read() }
    func decode(_: Int16.Type) throws -> Int16 { try read() }
    func decode(_: Int32.Type) throws -> Int32 { try read() }
    func decode(_: Int64.Type) throws -> Int64 { try read() }
    func decode(_: UInt.Type) throws -> UInt { try read() }
    func decode(_: UInt8.Type) throws -> UInt8 { try read() }
    func decode(_: UInt16.Type) throws -> UInt16 { try read() }
    func decode(_: UInt32.Type) throws -> UInt32 { try read() }
    func decode(_: UInt64.Type) throws -> UInt64 { try read() }

    func decode<T: Decodable>(_: T.Type) throws -> T {
        if let error = reader.deferredError { throw error }
        return try reader.decodeValue(T.self)
    }
}
