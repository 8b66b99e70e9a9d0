/// The input of one decoding: the bytes and a cursor that record fields (`BinaryField`) read
/// from, in order (see `BinaryEncoder` for the format).
///
/// Safety: the input is read through an unsafe buffer pointer, for speed. Every read first checks
/// `cursor + size <= end`, and `end <= bytes.count` always holds (`end` starts at `bytes.count`,
/// or at what a growing input has ready, grows only through `grow(toAtLeast:)`, which keeps it
/// within `bytes.count`, and drops to 0 in `invalidate()`), so no read leaves the buffer. The
/// buffer is valid only while `BinaryDecoder` runs; it calls `invalidate()` before returning, so a
/// reader kept by mistake reads nothing afterwards instead of freed memory.
///
/// A growing input (`init(_:ready:more:)`) is one whose bytes are made as they are read: a
/// snapshot's payload decompressed block by block, so that a first screen decompresses only the
/// blocks it reads. A read that runs past `end` asks `more` for the bytes it needs before it
/// calls them missing.
///
/// Field paths: the reader does not track where it is while decoding (that bookkeeping cost
/// several percent of the decoding time). A failure's path is built instead as its
/// `BinaryDecodingError` travels up: each field adds its name, each array element its index.
final class BinaryReader {
    // The mutable state is `@exclusivity(unchecked)`: the dynamic exclusivity checks Swift
    // would otherwise run on every access to a class property cost more than the reads. The
    // accesses never overlap: each is a plain load or store that calls no other code.

    /// The input. Read only at offsets below `end`.
    private let bytes: UnsafeBufferPointer<UInt8>
    /// The position of the next byte to read; `0 <= cursor <= end`.
    @exclusivity(unchecked) private(set) var cursor = 0
    /// The end of the readable input: `bytes.count` (a growing input: what it has ready), or 0
    /// once invalidated.
    @exclusivity(unchecked) private(set) var end: Int
    /// A growing input's source: asked for the bytes up to an offset, it makes at least those it
    /// can below `bytes.count` and answers where its ready bytes end. `nil` for an input that is
    /// all there, and once invalidated.
    @exclusivity(unchecked) private var more: ((Int) -> Int)?

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        self.end = bytes.count
    }

    /// A growing input: `bytes[..<ready]` is there, the rest is made by `more` as reads need it.
    init(_ bytes: UnsafeBufferPointer<UInt8>, ready: Int, more: @escaping (Int) -> Int) {
        self.bytes = bytes
        self.end = min(max(0, ready), bytes.count)
        self.more = more
    }

    /// Makes every later read fail: called before the input's memory goes away.
    func invalidate() {
        end = 0
        cursor = 0
        more = nil
    }

    /// Whether the bytes up to `needed` are readable, after asking a growing input for them.
    /// Off the hot path: reads call it only when their bytes are not ready.
    @inline(never)
    private func grow(toAtLeast needed: Int) -> Bool {
        guard let more, needed <= bytes.count else { return false }
        end = min(bytes.count, max(end, more(needed)))
        return end >= needed
    }

    /// How many bytes the input holds past the cursor, ready or not.
    private var remainingInInput: Int { (more == nil ? end : bytes.count) - cursor }

    /// How many bytes are left to read.
    @inline(__always)
    var remaining: Int { end - cursor }

    // MARK: Errors

    /// An error at `offset`; fields add its path as it travels up.
    func fail(_ reason: BinaryDecodingError.Reason, at offset: Int) -> BinaryDecodingError {
        BinaryDecodingError(reason, offset: offset)
    }

    // MARK: Primitives

    @inline(__always)
    private func truncated(_ needed: Int, at offset: Int) -> BinaryDecodingError {
        fail(.truncated(needed: needed, available: max(0, end - offset)), at: offset)
    }

    @inline(__always)
    func readByte() throws(BinaryDecodingError) -> UInt8 {
        guard cursor < end || grow(toAtLeast: cursor + 1) else { throw truncated(1, at: cursor) }
        // In bounds: 0 <= cursor < end <= bytes.count.
        let byte = bytes[cursor]
        cursor += 1
        return byte
    }

    @inline(__always)
    func readBool() throws(BinaryDecodingError) -> Bool {
        let byte = try readByte()
        guard byte <= 1 else { throw fail(.invalidBool(byte), at: cursor - 1) }
        return byte == 1
    }

    /// An enumeration written as one byte, its case's place in `cases`.
    func readCase<Case>(of cases: [Case], named type: String) throws(BinaryDecodingError) -> Case {
        let byte = try readByte()
        guard Int(byte) < cases.count else { throw fail(.unknownCase(type: type, byte: byte), at: cursor - 1) }
        return cases[Int(byte)]
    }

    /// An optional's presence byte: `true` if a value follows.
    @inline(__always)
    func readPresence() throws(BinaryDecodingError) -> Bool {
        let byte = try readByte()
        guard byte <= 1 else { throw fail(.invalidPresenceByte(byte), at: cursor - 1) }
        return byte == 1
    }

    /// An unsigned LEB128 varint of at most 10 bytes that fits 64 bits.
    @inline(__always)
    func readVarint() throws(BinaryDecodingError) -> UInt64 {
        if cursor < end {
            // In bounds: 0 <= cursor < end <= bytes.count.
            let first = bytes[cursor]
            if first < 0x80 {
                cursor += 1
                return UInt64(first)
            }
        }
        return try readLongVarint()
    }

    @inline(never)
    private func readLongVarint() throws(BinaryDecodingError) -> UInt64 {
        var position = cursor
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < end || grow(toAtLeast: position + 1) else { throw truncated(1, at: position) }
            // In bounds: 0 <= cursor <= position < end <= bytes.count.
            let byte = bytes[position]
            position += 1
            if shift == 63 {
                // The tenth byte holds only the top bit; anything more overflows 64 bits
                // (or, with its high bit set, makes the varint longer than 10 bytes).
                guard byte <= 1 else { throw fail(.varintOverflow, at: cursor) }
                result |= UInt64(byte) << 63
                break
            }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        cursor = position
        return result
    }

    func readUnsigned<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) throws(BinaryDecodingError) -> T {
        let start = cursor
        let raw = try readVarint()
        guard let value = T(exactly: raw) else {
            throw fail(.integerOutOfRange(type: "\(T.self)", value: "\(raw)"), at: start)
        }
        return value
    }

    @inline(__always)
    func readSigned<T: FixedWidthInteger & SignedInteger>(_: T.Type) throws(BinaryDecodingError) -> T {
        let start = cursor
        let raw = try readVarint()
        let decoded = Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
        guard let value = T(exactly: decoded) else {
            throw fail(.integerOutOfRange(type: "\(T.self)", value: "\(decoded)"), at: start)
        }
        return value
    }

    @inline(__always)
    private func readLittleEndian<I: FixedWidthInteger>(_: I.Type) throws(BinaryDecodingError) -> I {
        let size = MemoryLayout<I>.size
        guard end - cursor >= size || grow(toAtLeast: cursor + size) else { throw truncated(size, at: cursor) }
        // In bounds: cursor + size <= end <= bytes.count.
        let value = UnsafeRawBufferPointer(bytes).loadUnaligned(fromByteOffset: cursor, as: I.self)
        cursor += size
        return I(littleEndian: value)
    }

    func readFloat() throws(BinaryDecodingError) -> Float {
        Float(bitPattern: try readLittleEndian(UInt32.self))
    }

    @inline(__always)
    func readDouble() throws(BinaryDecodingError) -> Double {
        Double(bitPattern: try readLittleEndian(UInt64.self))
    }

    /// A varint count or length, refused if larger than the bytes left. Every element and every
    /// byte of a string takes at least one byte, so valid data never declares more; checking
    /// here means no count can make the decoder allocate or loop beyond the input's size. The
    /// bytes counted are ready when it returns (a growing input makes them), so a string's can
    /// be read or stepped over at once.
    @inline(__always)
    func readCount() throws(BinaryDecodingError) -> Int {
        let start = cursor
        let declared = try readVarint()
        guard declared <= UInt64(remaining)
            || (declared <= UInt64(remainingInInput) && grow(toAtLeast: cursor + Int(declared))) else {
            throw fail(.countTooLarge(declared: declared, remainingBytes: remainingInInput), at: start)
        }
        return Int(declared)
    }

    func readString() throws(BinaryDecodingError) -> String {
        let start = cursor
        let length = try readCount()
        // In bounds: readCount checked length <= end - cursor, and end <= bytes.count.
        let utf8 = UnsafeBufferPointer(rebasing: bytes[cursor ..< cursor + length])
        cursor += length
        // `String(decoding:)` replaces invalid UTF-8 with U+FFFD instead of failing; the bytes
        // are valid exactly when it kept them all as they were. (`String(validating:)` would say
        // so directly, but through an unspecialized generic path slower than the rest of decoding.)
        let string = String(decoding: utf8, as: UTF8.self)
        guard UTF8Validator.isASCII(utf8) || UTF8Validator.isIdentical(string, to: utf8) else {
            throw fail(.invalidUTF8(byteCount: length), at: start)
        }
        return string
    }

    /// `body` of the bytes of the string at the cursor, which stays where it is: the message
    /// or user whose ID it is (both list their ID first: `SnapshotPayload.swift`,
    /// `SnapshotPreviewTests`) is then made or stepped over. The bytes are not checked to be
    /// UTF-8 (comparing them with valid UTF-8 tells), and are valid only inside `body`.
    func peekString<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) throws(BinaryDecodingError) -> Result {
        let start = cursor
        let length = try readCount()
        // In bounds: readCount checked length <= end - cursor, and end <= bytes.count.
        let utf8 = UnsafeBufferPointer(rebasing: bytes[cursor ..< cursor + length])
        cursor = start
        return body(utf8)
    }

    // MARK: Stepping over

    /// Moves back to `offset`, a position this reader was at before.
    func rewind(to offset: Int) {
        precondition(offset >= 0 && offset <= cursor, "rewinding past the start or forward")
        cursor = offset
    }

    /// Moves forward to `offset`, a position this reader reached before and then rewound from.
    func move(to offset: Int) {
        precondition(offset >= cursor && offset <= end, "moving backwards or past the end")
        cursor = offset
    }

    /// Steps over a string's length and bytes without making a `String`.
    func skipString() throws(BinaryDecodingError) {
        let length = try readCount()
        cursor += length
    }

    /// Steps over `count` bytes, refusing to step past the end.
    func skipBytes(_ count: Int) throws(BinaryDecodingError) {
        guard end - cursor >= count || (count <= bytes.count - cursor && grow(toAtLeast: cursor + count)) else {
            throw truncated(count, at: cursor)
        }
        cursor += count
    }

    /// Steps over a varint, refusing an unterminated or overlong one.
    func skipVarint() throws(BinaryDecodingError) {
        _ = try readVarint()
    }
}
