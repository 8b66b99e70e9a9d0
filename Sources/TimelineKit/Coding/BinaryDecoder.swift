/// Decodes a snapshot payload that `BinaryEncoder` encoded, fast enough for a terminal's launch
/// path (see `BinaryEncoder` for the format, and for why it codes the snapshot only).
///
/// The input may be damaged, truncated, from another version of the model, or hostile: every
/// read is bounds-checked, counts and lengths larger than the bytes left are refused before
/// anything is allocated, integers are range-checked, strings must be valid UTF-8, and bytes
/// left over after the value are refused. Any such problem throws a `BinaryDecodingError` naming
/// the byte offset and the field's path; none traps.
///
/// ```swift
/// do {
///     let snapshot = try BinaryDecoder().decode(TimelineSnapshot.self, from: payload)
/// } catch {
///     // error is a BinaryDecodingError: rebuild the snapshot from the database.
/// }
/// ```
public struct BinaryDecoder: Sendable {
    public init() {}

    /// Decodes a snapshot from all of `bytes`.
    public func decode(_ type: TimelineSnapshot.Type, from bytes: [UInt8]) throws(BinaryDecodingError) -> TimelineSnapshot {
        try decodeWithReader(from: bytes) { reader throws(BinaryDecodingError) in try TimelineSnapshot.read(from: reader) }
    }

    /// Runs `body` on a reader of all of `bytes`, then refuses bytes left over: for readers that
    /// read a value their own way (a snapshot, a snapshot preview).
    func decodeWithReader<T>(
        from bytes: [UInt8], _ body: (BinaryReader) throws(BinaryDecodingError) -> T
    ) throws(BinaryDecodingError) -> T {
        try bytes.withUnsafeBufferPointer { (buffer) throws(BinaryDecodingError) -> T in
            try decodeWithReader(from: buffer, body)
        }
    }

    /// `decodeWithReader(from:_:)` of bytes in memory that stays valid during the call.
    func decodeWithReader<T>(
        from buffer: UnsafeBufferPointer<UInt8>, _ body: (BinaryReader) throws(BinaryDecodingError) -> T
    ) throws(BinaryDecodingError) -> T {
        let reader = BinaryReader(buffer)
        // The buffer is only valid during this call: make sure nothing reads it afterwards.
        defer { reader.invalidate() }
        let value = try body(reader)
        guard reader.remaining == 0 else {
            throw BinaryDecodingError(.trailingBytes(count: reader.remaining), offset: reader.cursor)
        }
        return value
    }
}
