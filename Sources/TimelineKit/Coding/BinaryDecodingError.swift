/// Why `BinaryDecoder` refused a byte sequence, where in it that happened, and what to do next.
///
/// The decoder reads files that may be damaged, truncated, written by another version of the
/// model, or hostile, so every inconsistency is reported as one of these instead of a crash or a
/// silently wrong value. `offset` is the byte position in the input, `codingPath` the field names
/// and array indices that lead from the snapshot to the field being read. Data written by
/// `BinaryEncoder` always decodes; any of these errors therefore means the bytes are damaged or
/// were written for a different shape of the snapshot: discard them and rebuild the snapshot from
/// the database.
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
        /// A byte that names none of the cases of `type` (an enumeration written as one byte).
        case unknownCase(type: String, byte: UInt8)
    }

    /// What went wrong.
    public let reason: Reason
    /// The byte position in the input where it went wrong.
    public let offset: Int
    /// The field names and array indices from the snapshot to where it went wrong.
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
        case .unknownCase(let type, let byte):
            what = "\(byte) names no \(type)"
        }
        return "Binary decoding failed \(place): \(what). \(advice)"
    }
}
