/// Decodes values that `BinaryEncoder` encoded, fast enough for a terminal's launch path.
///
/// The format (described at `BinaryEncoder`) stores no keys and no types, so decoding reads values
/// in the order the type asks for them, with no parsing and no lookups; a snapshot of 200 messages
/// decodes in a small fraction of the time `JSONDecoder` takes. The snapshot's own types are read
/// by their field lists, without Codable's containers; any other `Decodable` goes through its
/// `init(from:)`.
///
/// The input may be damaged, truncated, from another version of the model, or hostile: every
/// read is bounds-checked, counts and lengths larger than the bytes left are refused before
/// anything is allocated, integers are range-checked, strings must be valid UTF-8, and bytes
/// left over after the value are refused. Any such problem throws a `BinaryDecodingError` naming
/// the byte offset and coding path; none traps.
///
/// ```swift
/// do {
///     let snapshot = try BinaryDecoder().decode(TimelineSnapshot.self, from: payload)
/// } catch {
///     // error is a BinaryDecodingError: rebuild the snapshot from the database.
/// }
/// ```
///
/// Errors thrown by a type's own `init(from:)` (say, a `DecodingError` for an unknown enum raw
/// value) arrive wrapped in `BinaryDecodingError.Reason.valueRejected`, so `decode` throws only
/// `BinaryDecodingError` (typed throws).
public struct BinaryDecoder: Sendable {
    /// Whether the snapshot's types are read by their field lists; `false` only in tests, to
    /// check that their synthesized `init(from:)` reads the same bytes to the same values.
    let readsRecords: Bool

    public init() {
        readsRecords = true
    }

    init(readsRecords: Bool) {
        self.readsRecords = readsRecords
    }

    /// Decodes a value of type `type` from all of `bytes`.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws(BinaryDecodingError) -> T {
        try decodeWithReader(from: bytes) { reader in try reader.decodeValue(T.self) }
    }

    /// Decodes a value of type `type` from all of `bytes`.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: ArraySlice<UInt8>) throws(BinaryDecodingError) -> T {
        try bytes.withUnsafeBufferPointer { (buffer) throws(BinaryDecodingError) -> T in
            try decodeWithReader(from: buffer) { reader in try reader.decodeValue(T.self) }
        }
    }

    /// Decodes a value of type `type` from all of `bytes`, which must stay valid during the call.
    public func decode<T: Decodable>(
        _ type: T.Type,
        from bytes: UnsafeRawBufferPointer
    ) throws(BinaryDecodingError) -> T {
        // Viewing raw memory as bytes is always valid: UInt8 may alias any memory.
        try bytes.withMemoryRebound(to: UInt8.self) { (buffer) throws(BinaryDecodingError) -> T in
            try decodeWithReader(from: buffer) { reader in try reader.decodeValue(T.self) }
        }
    }

    /// Runs `body` on a reader of all of `bytes`, with the same end-of-input checks as `decode`:
    /// for readers that read a value their own way (a snapshot, a snapshot preview).
    func decodeWithReader<T>(from bytes: [UInt8], _ body: (BinaryReader) throws -> T) throws(BinaryDecodingError) -> T {
        try bytes.withUnsafeBufferPointer { (buffer) throws(BinaryDecodingError) -> T in
            try decodeWithReader(from: buffer, body)
        }
    }

    private func decodeWithReader<T>(
        from buffer: UnsafeBufferPointer<UInt8>, _ body: (BinaryReader) throws -> T
    ) throws(BinaryDecodingError) -> T {
        let reader = BinaryReader(buffer, readsRecords: readsRecords)
        // The buffer is only valid during this call: make sure nothing reads it afterwards.
        defer { reader.invalidate() }
        let value: T
        do {
            value = try body(reader)
        } catch let error as BinaryDecodingError {
            throw error
        } catch {
            throw reader.deferredError ?? BinaryDecodingError(.valueRejected(error), offset: reader.cursor)
        }
        if let error = reader.deferredError { throw error }
        guard reader.remaining == 0 else {
            throw BinaryDecodingError(.trailingBytes(count: reader.remaining), offset: reader.cursor)
        }
        return value
    }
}
