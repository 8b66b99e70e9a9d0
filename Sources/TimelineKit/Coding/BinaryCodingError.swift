/// Why `BinaryEncoder` refused to encode a value, and where in the value that happened.
///
/// Encoding fails only for values the binary format cannot represent faithfully (see
/// `BinaryEncoder` for the format), for misuse of the Codable containers, or because the value's
/// own `encode(to:)` threw (`Reason.valueRejected`). Print it (or read `description`) to see what
/// happened, at which coding path, and what to do about it.
public struct BinaryEncodingError: Error, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable {
        /// An element of an array (an unkeyed container) encoded to zero bytes, e.g. an empty
        /// struct. The decoder refuses elements that take no bytes (so that a tiny hostile file
        /// cannot declare billions of them), so such data could not be read back.
        case emptyElement
        /// The value uses what the binary format leaves out (see `BinaryEncoder`, "What it does
        /// not code"): a dictionary, a nested container (as enums with associated values use),
        /// or a super encoder. `what` names it.
        case unsupported(what: String)
        /// A container was used after the `encode(to:)` call that created it had returned.
        case containerUsedAfterCompletion
        /// Values nest deeper than `limit` levels, most likely because an object graph has a cycle.
        case nestingTooDeep(limit: Int)
        /// The value's own `encode(to:)` threw this error.
        case valueRejected(any Error)
    }

    /// What went wrong.
    public let reason: Reason
    /// The path of keys and array indices from the top-level value to where it went wrong.
    public internal(set) var codingPath: [BinaryCodingKey]
    /// How many bytes had been written when it went wrong.
    public let offset: Int

    init(_ reason: Reason, codingPath: [BinaryCodingKey] = [], offset: Int) {
        self.reason = reason
        self.codingPath = codingPath
        self.offset = offset
    }

    /// The error as seen from one level up: `key` in front of its coding path.
    func prefixed(with key: some CodingKey) -> Self {
        var error = self
        error.codingPath.insert(BinaryCodingKey(key), at: 0)
        return error
    }

    /// What happened, where, and what to do next, in one paragraph.
    public var description: String {
        let place = "at \(BinaryCodingKey.render(codingPath)) (after \(offset) bytes)"
        switch reason {
        case .emptyElement:
            return "Binary encoding failed \(place): an array element encoded to zero bytes. "
                + "Give the element type at least one stored property, or encode the array differently."
        case .unsupported(let what):
            return "Binary encoding failed \(place): \(what) cannot be encoded: the binary format codes "
                + "structs, arrays, optionals, strings, numbers, booleans and dates. Model it with those "
                + "(a dictionary as an array of key and value pairs, an enum as a raw value)."
        case .containerUsedAfterCompletion:
            return "Binary encoding failed \(place): a container was used after the encode(to:) "
                + "that created it returned. Finish writing every container inside its encode(to:)."
        case .nestingTooDeep(let limit):
            return "Binary encoding failed \(place): values nest more than \(limit) levels deep. "
                + "Check the value for a reference cycle."
        case .valueRejected(let error):
            return "Binary encoding failed \(place): the value's encode(to:) threw \(error). "
                + "Fix the value or its Encodable conformance."
        }
    }
}

/// Why `BinaryDecoder` refused a byte sequence, where in it that happened, and what to do next.
///
/// The decoder reads files that may be damaged, truncated, written by another version of the
/// model, or hostile, so every inconsistency is reported as one of these instead of a crash or a
/// silently wrong value. `offset` is the byte position in the input, `codingPath` the keys and
/// array indices that lead from the top-level value to the field being read. Data written by
/// `BinaryEncoder` for the same type always decodes; any of these errors therefore means the
/// bytes are damaged or were written for a different shape of the type: discard them and rebuild
/// them from their source (for the snapshot: from the database).
public struct BinaryDecodingError: Error, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable {
        /// The input ended in the middle of a value: `needed` more bytes were required at
        /// `offset` but only `available` remained.
        case truncated(needed: Int, available: Int)
        /// A variable-length integer ran over 10 bytes or overflowed 64 bits.
        case varintOverflow
        /// A `Bool` byte other than 0 or 1.
        case invalidBool(UInt8)
        /// An optional's presence byte other than 0 (absent) or 1 (present).
        case invalidPresenceByte(UInt8)
        /// A decoded integer does not fit the requested type.
        case integerOutOfRange(type: String, value: String)
        /// A string's bytes are not valid UTF-8.
        case invalidUTF8(byteCount: Int)
        /// A count or length declares more elements or bytes than remain in the input.
        case countTooLarge(declared: UInt64, remainingBytes: Int)
        /// The top-level value ended `count` bytes before the end of the input.
        case trailingBytes(count: Int)
        /// An unkeyed container has no more elements (it holds `count`).
        case noMoreElements(count: Int)
        /// An array element took no bytes, which valid data never does.
        case emptyElement
        /// Values nest deeper than `limit` levels.
        case nestingTooDeep(limit: Int)
        /// The type asks for what the binary format leaves out (see `BinaryEncoder`): the keys
        /// of a dictionary or of an enum with associated values, a nested container, or a super
        /// decoder. `what` names it.
        case unsupported(what: String)
        /// The type's own `init(from:)` threw this error (e.g. a `DecodingError` for an unknown
        /// enum raw value).
        case valueRejected(any Error)
    }

    /// What went wrong.
    public let reason: Reason
    /// The byte position in the input where it went wrong.
    public let offset: Int
    /// The path of keys and array indices from the top-level value to where it went wrong.
    public internal(set) var codingPath: [BinaryCodingKey]

    init(_ reason: Reason, offset: Int, codingPath: [BinaryCodingKey] = []) {
        self.reason = reason
        self.offset = offset
        self.codingPath = codingPath
    }

    /// The error as seen from one level up: `key` in front of its coding path.
    func prefixed(with key: some CodingKey) -> Self {
        var error = self
        error.codingPath.insert(BinaryCodingKey(key), at: 0)
        return error
    }

    /// What happened, where, and what to do next, in one paragraph.
    public var description: String {
        let place = "at byte \(offset) (\(BinaryCodingKey.render(codingPath)))"
        let advice = "The data is damaged or was written for a different shape of the type; "
            + "discard it and rebuild it from its source."
        let what: String
        switch reason {
        case .truncated(let needed, let available):
            what = "the input ends early: \(needed) more bytes needed, \(available) left"
        case .varintOverflow:
            what = "a variable-length integer is too long or overflows"
        case .invalidBool(let byte):
            what = "a Bool is stored as \(byte) instead of 0 or 1"
        case .invalidPresenceByte(let byte):
            what = "an optional's presence byte is \(byte) instead of 0 or 1"
        case .integerOutOfRange(let type, let value):
            what = "the integer \(value) does not fit \(type)"
        case .invalidUTF8(let byteCount):
            what = "a string of \(byteCount) bytes is not valid UTF-8"
        case .countTooLarge(let declared, let remaining):
            what = "a count of \(declared) exceeds the \(remaining) bytes left"
        case .trailingBytes(let count):
            what = "\(count) unexpected bytes follow the value"
        case .noMoreElements(let count):
            what = "all \(count) elements of an array have already been decoded"
        case .emptyElement:
            what = "an array element takes no bytes"
        case .nestingTooDeep(let limit):
            what = "values nest more than \(limit) levels deep"
        case .unsupported(let unsupported):
            // Not damage: the type itself cannot be decoded, whatever the bytes.
            return "Binary decoding failed \(place): \(unsupported) cannot be decoded: the binary format "
                + "codes structs, arrays, optionals, strings, numbers, booleans and dates. Model the "
                + "type with those (a dictionary as an array of key and value pairs, an enum as a raw value)."
        case .valueRejected(let error):
            what = "the type's init(from:) threw \(error)"
        }
        return "Binary decoding failed \(place): \(what). \(advice)"
    }
}
