/// Encodes `Encodable` values into a compact binary form that `BinaryDecoder` reads back quickly.
///
/// TimelineKit writes its snapshot (the newest messages, painted at every terminal launch) with
/// it. Compared with JSON the bytes are a fraction of the size and decoding is many times
/// faster, because nothing is parsed or looked up by name: values are read in order.
///
/// ```swift
/// let bytes = try BinaryEncoder().encode(snapshot)
/// let again = try BinaryDecoder().decode(TimelineSnapshot.self, from: bytes)
/// ```
///
/// `encode` throws only `BinaryEncodingError` (typed throws); an error thrown by a value's own
/// `encode(to:)` arrives wrapped in `BinaryEncodingError.Reason.valueRejected`.
///
/// ## Format
///
/// A value's encoding is the encodings of its parts in the order its `encode(to:)` writes them,
/// with no header, no padding and no type information:
///
/// | value | bytes |
/// |---|---|
/// | `UInt`, `UInt16`, `UInt32`, `UInt64` | unsigned LEB128 varint: 7 bits a byte, lowest first, high bit set on all bytes but the last; at most 10 bytes |
/// | `Int`, `Int16`, `Int32`, `Int64` | zigzag (0, -1, 1, -2, … → 0, 1, 2, 3, …), then as unsigned |
/// | `UInt8`, `Int8` | one byte (two's complement for `Int8`): never longer than a varint, and it makes `[UInt8]` and `Data` their count and bytes |
/// | `Bool` | one byte, 0 or 1 |
/// | `Float`, `Double` | the IEEE 754 bits, 4 or 8 bytes little-endian (NaN payloads and -0 survive) |
/// | `String` | varint byte count, then the UTF-8 bytes |
/// | `Date` | its `timeIntervalSinceReferenceDate` as a `Double`, as `Date`'s own Codable does |
/// | optional | presence byte: 0 absent, or 1 followed by the value |
/// | struct (keyed container) | its values in encoding order: no keys, no count |
/// | array, set (unkeyed container) | varint element count, then the elements |
/// | enum with a raw value | the raw value |
///
/// Each of these types' bytes is written, read and stepped over in one place, its `BinaryField`
/// conformance. The snapshot's own types (`TimelineSnapshot` and the model types in it) list
/// their fields once, as `BinaryRecord`s, and are written and read by those lists; the bytes are
/// the same as their synthesized Codable conformances write, so the payload stays a Codable
/// payload.
///
/// ### Keyed containers are positional; the model's shape is part of the format
///
/// Keys of keyed containers are not stored: synthesized Codable encodes and decodes a type's
/// properties in declaration order, so position identifies them. The bytes are therefore only
/// meaningful for the exact shape of the type that wrote them. Adding, removing, reordering or
/// retyping a stored property of any type inside the value changes the format. The snapshot
/// file carries a format version (`TimelineSnapshot.formatVersion`), which must change with
/// every such model change; files of another version are rebuilt from the database, never decoded.
///
/// ### What it does not code
///
/// What a snapshot and a program embedding TimelineKit need, and no more: dictionaries (their
/// keys would need storing), nested containers (which enums with associated values, and cases of
/// enums without a raw value, use), super encoders, and `Int128`/`UInt128` are refused with an
/// error that names them (`BinaryEncodingError.Reason.unsupported`, or the standard library's
/// own error for the 128-bit integers), never coded wrong.
///
/// ### Optionals
///
/// Every optional value takes a presence byte, so that the values after it stay in place:
/// `encodeNil` writes 0; `encodeIfPresent` (every overload, all overridden) and encoding a value
/// of an `Optional` type write 0, or 1 and the value. On the decoding side, a keyed container
/// `contains(_:)` every key (keys are not stored, and every property has its place);
/// `decodeNil(forKey:)` and the single-value and unkeyed `decodeNil()` read the presence byte:
/// `true` for absent, `false` for present, after which the value is decoded as usual. Custom
/// `encode(to:)` code must therefore write a value that may be nil as an `Optional`
/// (`encodeIfPresent`, or `encode` of the optional), not as `encodeNil()` or the unwrapped value.
///
/// ### Limits
///
/// - Each element of an unkeyed container takes at least one byte, so that the decoder can
///   refuse a count larger than the bytes left; encoding an array of a type that encodes to
///   nothing (an empty struct) throws `.emptyElement`.
/// - Values nest at most `maximumNesting` levels deep (64).
/// - `userInfo` is empty, and so is `codingPath` of the encoder and its containers: tracking it
///   cost several percent of the decoding time. Errors carry the full path all the same: each container
///   adds its key as an error passes through it.
public struct BinaryEncoder: Sendable {
    /// How deeply values may nest inside each other, in both `BinaryEncoder` and `BinaryDecoder`.
    /// Real models nest a handful of levels; the limit stops reference cycles and hostile input
    /// long before the stack runs out.
    static let maximumNesting = 64

    /// Whether the snapshot's types are written by their field lists; `false` only in tests, to
    /// check that their synthesized `encode(to:)` writes the same bytes.
    let writesRecords: Bool

    public init() {
        writesRecords = true
    }

    init(writesRecords: Bool) {
        self.writesRecords = writesRecords
    }

    /// Encodes `value` into a new byte array.
    ///
    /// - Throws: `BinaryEncodingError` if the value cannot be represented (see its `Reason`),
    ///   with the coding path of the failing part.
    public func encode<T: Encodable>(_ value: T) throws(BinaryEncodingError) -> [UInt8] {
        let writer = BinaryWriter(writesRecords: writesRecords)
        do {
            try writer.encodeValue(value)
        } catch let error as BinaryEncodingError {
            throw error
        } catch {
            throw writer.error(.valueRejected(error))
        }
        return writer.bytes
    }
}
