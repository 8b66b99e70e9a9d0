/// The uncompressed header of a snapshot file: enough to tell which database and generation the
/// snapshot was built from, and whether this library can read it, without decompressing anything.
///
/// It lives in an LZ4 *skippable frame* in front of the LZ4 frame that holds the payload, so the
/// stock `lz4 -dc` skips it and prints the payload. Layout (integers little-endian):
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 4 | skippable-frame magic `0x184D2A54` |
/// | 4 | 4 | header length `H` that follows (32 + n) |
/// | 8 | 8 | magic `TLSNAP\r\n` |
/// | 16 | 2 | format version |
/// | 18 | 2 | n, the length of the database ID |
/// | 20 | 4 | payload length (uncompressed bytes) |
/// | 24 | 8 | generation (signed) |
/// | 32 | 4 | message limit the snapshot was built with |
/// | 36 | n | database ID (UTF-8) |
/// | 36+n | 4 | CRC-32 of bytes 8 ..< 36+n |
///
/// The payload (`BinaryEncoder` encoding of `TimelineSnapshot`) follows as one standard LZ4 frame
/// with content size, block checksums and content checksum. The header's CRC and the frame's
/// checksums together make every flipped bit in the file detectable.
public struct SnapshotHeader: Sendable, Hashable {
    public var formatVersion: Int
    public var payloadLength: Int
    public var generation: Int64
    /// How many messages the snapshot was asked to hold; later refreshes keep it.
    public var limit: Int
    public var databaseID: String

    static let skippableMagic: UInt32 = 0x184D_2A54
    static let magic: [UInt8] = Array("TLSNAP\r\n".utf8)
    /// Bytes of header content that precede the database ID.
    static let fixedLength = 28
    static let maximumDatabaseIDLength = 64
    /// A snapshot of even 10,000 long messages is a few megabytes; anything claiming more than
    /// this is damaged or hostile and is refused before anything is allocated for it.
    static let maximumPayloadLength = 64 << 20

    /// The header's bytes, skippable-frame prefix included.
    func encoded() -> [UInt8] {
        let id = Array(databaseID.utf8.prefix(Self.maximumDatabaseIDLength))
        var content: [UInt8] = Self.magic
        content.appendLittleEndian(UInt16(formatVersion))
        content.appendLittleEndian(UInt16(id.count))
        content.appendLittleEndian(UInt32(payloadLength))
        content.appendLittleEndian(UInt64(bitPattern: generation))
        content.appendLittleEndian(UInt32(clamping: limit))
        content += id
        content.appendLittleEndian(CRC32.checksum(content))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(8 + content.count)
        bytes.appendLittleEndian(Self.skippableMagic)
        bytes.appendLittleEndian(UInt32(content.count))
        return bytes + content
    }

    /// Parses the header at the start of `file`, returning it and the offset where the payload
    /// frame starts.
    static func decode(_ file: [UInt8], path: String) throws(SnapshotError) -> (header: SnapshotHeader, payloadOffset: Int) {
        guard file.count >= 8 else {
            throw Self.isPrefixOfSkippableMagic(file) ? .truncated(path: path) : .foreign(path: path)
        }
        guard file.readLittleEndianUInt32(at: 0) == skippableMagic else { throw .foreign(path: path) }
        let contentLength = Int(file.readLittleEndianUInt32(at: 4))
        guard contentLength >= fixedLength + 4, contentLength <= fixedLength + maximumDatabaseIDLength + 4 else {
            throw .foreign(path: path)
        }
        guard file.count >= 8 + contentLength else { throw .truncated(path: path) }
        let content = file[8 ..< 8 + contentLength]
        guard content.starts(with: magic) else { throw .foreign(path: path) }
        let stored = file.readLittleEndianUInt32(at: 8 + contentLength - 4)
        guard CRC32.checksum(content.dropLast(4)) == stored else {
            throw .corrupt(path: path, reason: "header checksum mismatch")
        }
        let version = Int(file.readLittleEndianUInt16(at: 16))
        let idLength = Int(file.readLittleEndianUInt16(at: 18))
        guard idLength == contentLength - fixedLength - 4 else {
            throw .corrupt(path: path, reason: "header length disagrees with its database ID length")
        }
        if version > TimelineSnapshot.formatVersion {
            throw .newerFormat(path: path, version: version, newestKnown: TimelineSnapshot.formatVersion)
        }
        if version < TimelineSnapshot.formatVersion {
            throw .unsupportedFormat(path: path, version: version)
        }
        let payloadLength = Int(file.readLittleEndianUInt32(at: 20))
        guard payloadLength <= maximumPayloadLength else {
            throw .tooLarge(path: path, size: payloadLength, limit: maximumPayloadLength)
        }
        let header = SnapshotHeader(
            formatVersion: version,
            payloadLength: payloadLength,
            generation: Int64(bitPattern: file.readLittleEndianUInt64(at: 24)),
            limit: Int(file.readLittleEndianUInt32(at: 32)),
            databaseID: String(decoding: file[36 ..< 36 + idLength], as: UTF8.self))
        return (header, 8 + contentLength)
    }

    private static func isPrefixOfSkippableMagic(_ bytes: [UInt8]) -> Bool {
        var magic: [UInt8] = []
        magic.appendLittleEndian(skippableMagic)
        return magic.starts(with: bytes.prefix(4))
    }
}

extension [UInt8] {
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        var value = value.littleEndian
        Swift.withUnsafeBytes(of: &value) { append(contentsOf: $0) }
    }

    /// Reads little-endian integers; callers have checked that the bytes are there.
    func readLittleEndianUInt16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
    }

    func readLittleEndianUInt32(at offset: Int) -> UInt32 {
        (0 ..< 4).reduce(UInt32(0)) { $0 | UInt32(self[offset + $1]) << (8 * $1) }
    }

    func readLittleEndianUInt64(at offset: Int) -> UInt64 {
        (0 ..< 8).reduce(UInt64(0)) { $0 | UInt64(self[offset + $1]) << (8 * $1) }
    }
}
