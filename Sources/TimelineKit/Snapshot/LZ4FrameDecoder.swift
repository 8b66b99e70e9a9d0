import Synchronization

/// A standard LZ4 frame decompressed block by block, as far as its reader has come: for a reader
/// that shows the start of the content before it needs the rest (`timeline show`'s first paint
/// reads the first blocks of a snapshot's payload, `SnapshotPreview`).
///
/// What is checked when it is made, before any content is used: the frame header (magic,
/// version, reserved bits, block size, header checksum), the content size against the caller's
/// limit, and the frame's whole structure: every block's size, every block's checksum (XXH32 of
/// its stored bytes), the end mark, the content checksum's place and nothing after it. So no
/// damaged or missing byte of the file is ever decompressed, and a cut file is refused as
/// truncated at once. What is left for `finish()`: that the blocks decompress to exactly the
/// declared size, and the content checksum (XXH32 of the whole content, `isIntact`), which only a
/// decompressor at fault or a file crafted to pass the block checksums can fail.
///
/// Frames of another shape than ``LZ4Frame/compress(_:)`` writes (dependent blocks, no block
/// checksums, a dictionary ID) are decompressed whole at once by ``LZ4Frame/decompress(_:maxContentSize:)``.
final class LZ4FrameDecoder: @unchecked Sendable {
    // Why `@unchecked Sendable` holds: `progress` is a `Mutex`; the content's bytes below
    // `progress.produced` are written once, under the lock, before `produced` passes them, and never
    // again, so code that reads only that range (`withContent`, after `decompress(upTo:)` said it
    // is there) needs no lock; `frame`, `blocks` and the checksum are constants.

    /// How many bytes the content has, as the frame header declares.
    let contentSize: Int
    /// The frame's bytes.
    private let frame: ArraySlice<UInt8>
    /// Where each block's stored bytes are in `frame`, in order.
    private let blocks: [Block]
    /// The content checksum the frame carries, if it has one and it is not compared yet.
    private let contentChecksum: UInt32?
    /// The most content one block may hold (the frame header's block size).
    private let maximumBlockSize: Int
    /// The content, `contentSize` bytes, made from the front.
    private let content: UnsafeMutableRawBufferPointer
    private let progress: Mutex<Progress>

    private struct Block {
        /// The offset in `frame` of the block's stored bytes.
        let start: Int
        let size: Int
        let isCompressed: Bool
    }

    private struct Progress {
        /// The first block not yet decompressed.
        var nextBlock = 0
        /// How many bytes of the content are made.
        var produced = 0
        /// Why a block would not decompress, once one did not.
        var failure: LZ4FrameError?
    }

    /// Reads the frame at the start of `input`, which must end exactly where the frame does, and
    /// checks it as the type's documentation says; nothing is decompressed yet.
    ///
    /// - Throws: ``LZ4FrameError``, as ``LZ4Frame/decompress(_:maxContentSize:)`` would for the same bytes.
    static func open(_ input: ArraySlice<UInt8>, maxContentSize: Int) throws(LZ4FrameError) -> LZ4FrameDecoder {
        let header = Array(input.prefix(headerSize))
        guard header.count >= 6, header.starts(with: LZ4Frame.magicNumber),
              header[4] & requiredFlags == requiredFlags, header[4] & dictionaryIDFlag == 0 else {
            // Not one of ours, or too short to tell: the whole frame, the whole way.
            let whole = try LZ4Frame.decompress(input, maxContentSize: maxContentSize)
            return LZ4FrameDecoder(frame: input, contentSize: whole.count, maximumBlockSize: 0, blocks: [], contentChecksum: nil, whole: whole)
        }
        let flags = header[4], blockDescriptor = header[5]
        guard flags & 0xC0 == 0x40, flags & 0x02 == 0 else { throw .corrupt("ERROR_headerVersion_wrong") }
        let blockSizeID = Int(blockDescriptor >> 4) & 0x07
        guard blockDescriptor & 0x8F == 0, (4...7).contains(blockSizeID) else { throw .corrupt("ERROR_maxBlockSize_invalid") }
        guard header.count == headerSize else { throw .truncated }
        let described = header.withUnsafeBytes { XXH32.checksum(UnsafeRawBufferPointer(rebasing: $0[4 ..< 14])) }
        guard UInt8(truncatingIfNeeded: described >> 8) == header[14] else { throw .corrupt("ERROR_headerChecksum_invalid") }
        let declared = (6 ..< 14).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64(header[$1]) }
        guard declared <= UInt64(max(0, maxContentSize)) else { throw .contentTooLarge(declared: declared, limit: maxContentSize) }
        let maximumBlockSize = 1 << (2 * blockSizeID + 8)
        let walked = input.withUnsafeBytes { source in
            Result { () throws(LZ4FrameError) in
                try walk(source, maximumBlockSize: maximumBlockSize, hasContentChecksum: flags & contentChecksumFlag != 0)
            }
        }
        let (blocks, checksum) = try walked.get()
        // Every block decompresses to at most its maximum size: more than that is no complete frame.
        guard declared <= UInt64(blocks.count) * UInt64(maximumBlockSize) else { throw .contentSizeMismatch(declared: declared) }
        let shifted = blocks.map { Block(start: input.startIndex + $0.start, size: $0.size, isCompressed: $0.isCompressed) }
        // Exact: declared <= maxContentSize <= Int.max.
        return LZ4FrameDecoder(frame: input, contentSize: Int(declared), maximumBlockSize: maximumBlockSize, blocks: shifted,
                               contentChecksum: checksum, whole: nil)
    }

    /// The blocks of the frame in `source` after its header, each block's checksum compared, and
    /// the content checksum after the end mark (LZ4 frame format, "Data Blocks": a little-endian
    /// 32-bit size whose highest bit marks a block stored uncompressed, 0 being the end mark, that
    /// many bytes, then the block checksum, XXH32 of those bytes as stored).
    private static func walk(
        _ source: UnsafeRawBufferPointer, maximumBlockSize: Int, hasContentChecksum: Bool
    ) throws(LZ4FrameError) -> ([Block], UInt32?) {
        var blocks: [Block] = []
        var position = headerSize
        while true {
            guard source.count - position >= 4 else { throw .truncated }
            // In bounds: position + 4 <= source.count.
            let word = source.loadUnaligned(fromByteOffset: position, as: UInt32.self).littleEndian
            position += 4
            if word == 0 { break }
            let size = Int(word & 0x7FFF_FFFF)
            guard size <= maximumBlockSize else { throw .corrupt("ERROR_maxBlockSize_invalid") }
            guard source.count - position >= size + 4 else { throw .truncated }
            // In bounds: position + size + 4 <= source.count.
            let stored = source.loadUnaligned(fromByteOffset: position + size, as: UInt32.self).littleEndian
            guard XXH32.checksum(UnsafeRawBufferPointer(rebasing: source[position ..< position + size])) == stored else {
                throw .corrupt("ERROR_blockChecksum_invalid")
            }
            blocks.append(Block(start: position, size: size, isCompressed: word & 0x8000_0000 == 0))
            position += size + 4
        }
        var checksum: UInt32?
        if hasContentChecksum {
            guard source.count - position >= 4 else { throw .truncated }
            // In bounds: position + 4 <= source.count.
            checksum = source.loadUnaligned(fromByteOffset: position, as: UInt32.self).littleEndian
            position += 4
        }
        guard position == source.count else { throw .trailingBytes(source.count - position) }
        return (blocks, checksum)
    }

    /// A decoder of `frame`: with `whole`, the content liblz4 decompressed and checked.
    private init(
        frame: ArraySlice<UInt8>, contentSize: Int, maximumBlockSize: Int, blocks: [Block], contentChecksum: UInt32?, whole: [UInt8]?
    ) {
        self.frame = frame
        self.contentSize = contentSize
        self.maximumBlockSize = maximumBlockSize
        self.blocks = blocks
        self.contentChecksum = contentChecksum
        let content = UnsafeMutableRawBufferPointer.allocate(byteCount: contentSize, alignment: 16)
        if let whole {
            // In bounds: `content` holds `contentSize` = `whole.count` bytes.
            whole.withUnsafeBytes { content.copyMemory(from: $0) }
        }
        self.content = content
        progress = Mutex(Progress(produced: whole?.count ?? 0))
    }

    deinit {
        content.deallocate()
    }

    /// The frame header of every frame `LZ4Frame.compress` writes: magic (4), FLG, BD, content size (8), checksum.
    private static let headerSize = 15
    /// FLG bits this decoder needs: version 01, independent blocks, block checksums, content size.
    private static let requiredFlags: UInt8 = 0x40 | 0x20 | 0x10 | 0x08
    private static let contentChecksumFlag: UInt8 = 0x04
    private static let dictionaryIDFlag: UInt8 = 0x01

    /// Decompresses blocks in order until the content up to `offset` is made, or all of it is;
    /// returns how many bytes of the content are made. A block that does not decompress stops it
    /// there (`finish()` says why).
    @discardableResult
    func decompress(upTo offset: Int) -> Int {
        progress.withLock { progress in
            frame.withUnsafeBytes { source in
                while progress.produced < offset, progress.nextBlock < blocks.count, progress.failure == nil {
                    let block = blocks[progress.nextBlock]
                    let start = block.start - frame.startIndex
                    // In bounds: the init found each block inside the frame.
                    let stored = UnsafeRawBufferPointer(rebasing: source[start ..< start + block.size])
                    // A block holds at most the frame's block size, as liblz4's frame decoder demands.
                    let room = UnsafeMutableRawBufferPointer(
                        rebasing: content[progress.produced ..< min(contentSize, progress.produced + maximumBlockSize)])
                    if !block.isCompressed {
                        guard stored.count <= room.count else {
                            progress.failure = .contentSizeMismatch(declared: UInt64(contentSize))
                            break
                        }
                        // In bounds: stored.count <= room.count.
                        room.copyMemory(from: stored)
                        progress.produced += stored.count
                    } else if let written = LZ4Frame.decompressBlock(stored, into: room) {
                        progress.produced += written
                    } else {
                        progress.failure = .corrupt("ERROR_decompressionFailed")
                    }
                    progress.nextBlock += 1
                }
            }
            return progress.produced
        }
    }

    /// Decompresses the rest, and checks that the blocks made exactly the declared content.
    ///
    /// - Throws: ``LZ4FrameError``: a block that does not decompress, or a content of another size.
    func finish() throws(LZ4FrameError) {
        decompress(upTo: contentSize)
        let (produced, failure, blocksLeft) = progress.withLock { ($0.produced, $0.failure, blocks.count - $0.nextBlock) }
        if let failure { throw failure }
        guard produced == contentSize, blocksLeft == 0 else { throw .contentSizeMismatch(declared: UInt64(contentSize)) }
    }

    /// Whether the content is the one the frame's content checksum vouches for (after `finish()`:
    /// the whole content). A frame without one, or decompressed whole by liblz4, which compared it, is intact.
    var isIntact: Bool {
        guard let contentChecksum else { return true }
        return progress.withLock { $0.produced } == contentSize
            && XXH32.checksum(UnsafeRawBufferPointer(content)) == contentChecksum
    }

    /// `body` of the content's memory, `contentSize` bytes of which only those `decompress(upTo:)`
    /// answered are made; valid only inside `body`.
    func withContent<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeBufferPointer(content.bindMemory(to: UInt8.self)))
    }

    /// How many bytes of the content are made.
    var produced: Int { progress.withLock { $0.produced } }

    /// Why a block would not decompress, if one did not.
    var failure: LZ4FrameError? { progress.withLock { $0.failure } }
}
