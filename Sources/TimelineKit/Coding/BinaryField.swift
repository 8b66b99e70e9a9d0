#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A type whose bytes are written, read and stepped over here, once: the types a
/// `BinaryRecord` field can hold. The bytes are those of the format table at `BinaryEncoder`.
protocol BinaryField {
    func write(to writer: BinaryWriter)
    static func read(from reader: BinaryReader) throws(BinaryDecodingError) -> Self
    /// Moves the reader past one value without making it (bounds-checked, not validated).
    static func skip(in reader: BinaryReader) throws(BinaryDecodingError)
}

extension String: BinaryField {
    func write(to writer: BinaryWriter) { writer.writeString(self) }
    static func read(from reader: BinaryReader) throws(BinaryDecodingError) -> String { try reader.readString() }
    static func skip(in reader: BinaryReader) throws(BinaryDecodingError) { try reader.skipString() }
}

/// Integers wider than a byte: zigzag varints when signed, varints when not (see `BinaryEncoder`).
extension BinaryField where Self: FixedWidthInteger & SignedInteger {
    func write(to writer: BinaryWriter) { writer.writeSigned(self) }
    static func read(from reader: BinaryReader) throws(BinaryDecodingError) -> Self { try reader.readSigned(Self.self) }
    static func skip(in reader: BinaryReader) throws(BinaryDecodingError) { try reader.skipVarint() }
}

extension BinaryField where Self: FixedWidthInteger & UnsignedInteger {
    func write(to writer: BinaryWriter) { writer.writeUnsigned(self) }
    static func read(from reader: BinaryReader) throws(BinaryDecodingError) -> Self { try reader.readUnsigned(Self.self) }
    static func skip(in reader: BinaryReader) throws(BinaryDecodingError) { try reader.skipVarint() }
}

extension Int: BinaryField {}
extension Int16: BinaryField {}
extension Int32: BinaryField {}
extension Int64: BinaryField {}
extension UInt: BinaryField {}
extension UInt16: BinaryField {}
extension UInt32: BinaryField {}
extension UInt64: BinaryField {}

/// One byte, never longer than a varint: it makes `[UInt8]` and `Data` their count and bytes.
extension UInt8: BinaryField {
    func write(to writer: BinaryWriter) { writer.writeByte(self) }
    static func read(from reader: BinaryReader) throws(BinaryDecodingError) -> UInt8 { try reader.readByte() }
    static func skip(in reader: BinaryReader) throws(BinaryDecodingError) { try reader.skipBytes(1) }
}

/// One byte, two's complement.
extension Int8: BinaryField {
    func write(to writer: BinaryWriter) { writer.writeByte(UInt8(bitPattern: self)) }
    static func read(from reader: BinaryReader) throws(BinaryDecodingError) -> Int8 { Int8(bitPattern: try reader.readByte()) }
    static func skip(in reader: BinaryReader) throws(BinaryDecodingError) { try reader.skipBytes(1) }
}

/// The IEEE 754 bits, little-endian: NaN payloads and -0 survive.
extension Double: BinaryField {
    func write(to writer: BinaryWriter) { writer.writeDouble(self) }
    static func read(from reader: BinaryReader) throws(BinaryDecodingError) -> Double { try reader.readDouble() }
    static func skip(in reader: BinaryReader) throws(BinaryDecodingError) { try reader.skipBytes(8) }
}

extension Float: BinaryField {
    func write(to writer: BinaryWriter) { writer.writeFloat(self) }
    static func read(from reader: BinaryReader) throws(BinaryDecodingError) -> Float { try reader.readFloat() }
    static func skip(in reader: BinaryReader) throws(BinaryDecodingError) { try reader.skipBytes(4) }
}

extension Bool: BinaryField {
    func write(to writer: BinaryWriter) { writer.writeBool(self) }
    static func read(from reader: BinaryReader) throws(BinaryDecodingError) -> Bool { try reader.readBool() }
    static func skip(in reader: BinaryReader) throws(BinaryDecodingError) { try reader.skipBytes(1) }
}

/// As `Date`'s own Codable does: its `timeIntervalSinceReferenceDate`.
extension Date: BinaryField {
    func write(to writer: BinaryWriter) { writer.writeDouble(timeIntervalSinceReferenceDate) }
    static func read(from reader: BinaryReader) throws(BinaryDecodingError) -> Date {
        Date(timeIntervalSinceReferenceDate: try reader.readDouble())
    }
    static func skip(in reader: BinaryReader) throws(BinaryDecodingError) { try reader.skipBytes(8) }
}

/// A presence byte, then the value when there is one.
extension Optional: BinaryField where Wrapped: BinaryField {
    func write(to writer: BinaryWriter) {
        writer.writePresence(self != nil)
        self?.write(to: writer)
    }

    static func read(from reader: BinaryReader) throws(BinaryDecodingError) -> Wrapped? {
        guard try reader.readPresence() else { return nil }
        return try Wrapped.read(from: reader)
    }

    static func skip(in reader: BinaryReader) throws(BinaryDecodingError) {
        if try reader.readPresence() { try Wrapped.skip(in: reader) }
    }
}

/// The element count, then the elements. Every field type writes at least one byte, so the
/// count is at most the bytes left (`readCount`), which bounds the reservation and the loop.
extension Array: BinaryField where Element: BinaryField {
    func write(to writer: BinaryWriter) {
        writer.writeUnsigned(UInt64(count))
        for element in self { element.write(to: writer) }
    }

    static func read(from reader: BinaryReader) throws(BinaryDecodingError) -> [Element] {
        let count = try reader.readCount()
        var array: [Element] = []
        array.reserveCapacity(count)
        try array.append(readingFrom: reader, indices: 0 ..< count)
        return array
    }

    /// Reads the elements `indices` of a list, which start at the cursor, onto the end of this
    /// array; a failure gets the element's index in front of its path.
    mutating func append(readingFrom reader: BinaryReader, indices: Range<Int>) throws(BinaryDecodingError) {
        for index in indices {
            do {
                append(try Element.read(from: reader))
            } catch {
                throw error.prefixed(with: IndexCodingKey(index))
            }
        }
    }

    static func skip(in reader: BinaryReader) throws(BinaryDecodingError) {
        for _ in 0 ..< (try reader.readCount()) { try Element.skip(in: reader) }
    }
}
