/// Encodes a `TimelineSnapshot` into the compact binary form of the snapshot file's payload,
/// which `BinaryDecoder` reads back quickly.
///
/// `SnapshotFile` writes and reads the whole file (a header, then this payload in one standard
/// LZ4 frame: see docs/snapshot-format.md); these two are for a program that holds a payload on
/// its own, from `lz4 -dc` for example. Compared with JSON the bytes are a fraction of the size
/// and decoding is many times faster, because nothing is parsed or looked up by name: values are
/// read in order.
///
/// ```swift
/// let bytes = BinaryEncoder().encode(snapshot)
/// let again = try BinaryDecoder().decode(TimelineSnapshot.self, from: bytes)
/// ```
///
/// ## Only the snapshot
///
/// The coder codes the snapshot's own types, by their field lists (`SnapshotPayload.swift`), and
/// nothing else: it is not a general `Encoder`/`Decoder` for any Codable type. It was one (keyed,
/// unkeyed and single-value containers, 650 lines), which the snapshot itself never used once its
/// types listed their fields, because the containers cost a type lookup and an allocation per
/// value on the path of a terminal's first paint. A program embedding TimelineKit that wants its
/// own types in bytes is better served by `JSONEncoder` (in FoundationEssentials) or a
/// serialisation library: this format stores no keys, no types and no version of its own, so the
/// bytes mean something only to the exact shape of the type that wrote them, and a coder kept
/// for that use alone would be code the snapshot pays to keep right. `TimelineSnapshot` and the
/// model types in it stay `Codable` all the same (`timeline snapshot --dump` prints one with
/// `JSONEncoder`), and the payload's bytes are those their synthesized `Codable` conformances
/// wrote through the old containers, field for field, in declaration order.
///
/// ## Format
///
/// A value's encoding is the encodings of its fields in the order its type lists them, with no
/// header, no padding and no type information:
///
/// | value | bytes |
/// |---|---|
/// | `UInt`, `UInt16`, `UInt32`, `UInt64` | unsigned LEB128 varint: 7 bits a byte, lowest first, high bit set on all bytes but the last; at most 10 bytes |
/// | `Int`, `Int16`, `Int32`, `Int64` | zigzag (0, -1, 1, -2, … → 0, 1, 2, 3, …), then as unsigned |
/// | `UInt8`, `Int8` | one byte (two's complement for `Int8`) |
/// | `Bool` | one byte, 0 or 1 |
/// | `Float`, `Double` | the IEEE 754 bits, 4 or 8 bytes little-endian (NaN payloads and -0 survive) |
/// | `String` | varint byte count, then the UTF-8 bytes |
/// | `Date` | its `timeIntervalSinceReferenceDate` as a `Double`, as `Date`'s own Codable does |
/// | optional | presence byte: 0 absent, or 1 followed by the value |
/// | record (a snapshot type) | its fields in the order its list gives: no keys, no count |
/// | array | varint element count, then the elements |
///
/// Each of these types' bytes is written, read and stepped over in one place, its `BinaryField`
/// conformance; each record's fields are listed in one place, its `BinaryRecord` conformance.
///
/// ### The model's shape is part of the format
///
/// Field names are not stored: position identifies them. Adding, removing, reordering or
/// retyping a field of any type inside the snapshot changes the format, so the snapshot file
/// carries a format version (`TimelineSnapshot.formatVersion`), which must change with every
/// such change; files of another version are rebuilt from the database, never decoded.
public struct BinaryEncoder: Sendable {
    public init() {}

    /// The payload bytes of `snapshot`. Every snapshot can be encoded, so this never fails.
    public func encode(_ snapshot: TimelineSnapshot) -> [UInt8] {
        let writer = BinaryWriter()
        snapshot.write(to: writer)
        return writer.bytes
    }
}
