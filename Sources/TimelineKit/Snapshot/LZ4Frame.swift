import TimelineLZ4

/// Standard LZ4 frames (the `.lz4` file format), compressed and decompressed in one call.
///
/// This is the only file in the package that calls liblz4 (`LZ4F_*`): the C API is wrapped once
/// here, and only Swift types (`[UInt8]`, `ArraySlice<UInt8>`, ``LZ4FrameError``) cross the boundary.
///
/// Frames written by ``compress(_:)`` record their content size and carry a checksum of the header,
/// of every block and of the whole content, so ``decompress(_:maxContentSize:)`` can refuse damaged
/// data instead of returning it. Both functions are thread-safe: every call uses its own context.
enum LZ4Frame {
    /// The four bytes that open every standard LZ4 frame: `LZ4F_MAGICNUMBER` (0x184D2204), little-endian.
    static let magicNumber: [UInt8] = [0x04, 0x22, 0x4D, 0x18]

    /// The frame ``compress(_:)`` returns for empty input, built by hand because liblz4 cannot write it.
    ///
    /// liblz4 treats a content size of 0 as "unknown" and leaves the content-size field out of the
    /// header, which ``decompress(_:maxContentSize:)`` would (rightly) refuse. This frame has the same
    /// flags as every other frame we write, with a content size of 0 actually recorded:
    /// - `04 22 4D 18`: magic number;
    /// - `7C`: FLG = version 01, independent blocks, block checksums, content size, content checksum;
    /// - `40`: BD = 64 KB maximum block size;
    /// - `00 × 8`: content size 0 (little-endian);
    /// - `C8`: header checksum, `(XXH32(FLG…content size, seed 0) >> 8) & 0xFF`;
    /// - `00 00 00 00`: end mark (no blocks);
    /// - `05 5D CC 02`: content checksum, XXH32 of no bytes (0x02CC5D05), little-endian.
    ///
    /// `lz4 -dc` decompresses it to nothing; the tests check that and that liblz4 accepts its checksums.
    static let emptyFrame: [UInt8] = [
        0x04, 0x22, 0x4D, 0x18,
        0x7C, 0x40,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0xC8,
        0x00, 0x00, 0x00, 0x00,
        0x05, 0x5D, 0xCC, 0x02,
    ]

    /// The frame descriptor's FLG and BD bytes (bytes 4 and 5 of the frame) that ``compress(_:)``
    /// always writes: version 01, independent blocks, block checksums, content size, content
    /// checksum; 64 KB blocks. A reader of our own files can demand exactly these, which closes the
    /// one gap in LZ4's 8-bit header checksum (a flipped block-mode or block-size bit that happens
    /// to keep the checksum valid).
    static let descriptorFlags: [UInt8] = [0x7C, 0x40]

    /// Bit 3 of the frame header's FLG byte (the fifth byte of the frame): the content size is present.
    private static let contentSizeFlag: UInt8 = 0x08

    /// More than the most output any LZ4 data can produce per input byte.
    ///
    /// In an LZ4 block each literal costs at least one input byte, and a match of length `4 + 15 + 255·k + r`
    /// (r < 255) costs a token, a two-byte offset and `k + 1` length bytes, so every input byte yields
    /// fewer than 255 output bytes; uncompressed blocks, block headers and checksums yield fewer still.
    /// A frame declaring more than this many bytes per remaining input byte cannot be complete.
    private static let maximumExpansion: UInt64 = 256

    /// The most memory (beyond the content itself) ``decompress(_:maxContentSize:)`` adds to the output
    /// buffer so that liblz4 can decode the final, partial block straight into it.
    private static let maximumSlack = 64 * 1024

    /// The most content one block of ``compress(_:)`` holds. A reader that needs only the start
    /// of the content (`timeline show`'s first screen, `LZ4FrameDecoder`) decompresses the
    /// blocks it reads and no more, so the blocks are smaller than the 64 KB the frame allows:
    /// 16 KB made the 10k bench set's snapshot 8% larger (43.4 → 46.8 KB: the blocks are
    /// independent, each starts without a dictionary) and its first paint decompress 48 KB of
    /// its 101 KB instead of 64 KB.
    static let blockContentSize = 16 * 1024

    /// Compresses `input` as one standard LZ4 frame: content size recorded in the frame header,
    /// content checksum ON (xxh32 of the decompressed data), block checksums ON, independent
    /// blocks of ``blockContentSize`` (the frame's 64 KB maximum, each block flushed at 16 KB),
    /// default compression level (fast). `lz4 -dc` decompresses it.
    ///
    /// - Throws: ``LZ4FrameError/compressionFailed(_:)`` if liblz4 reports an error (it should not).
    static func compress(_ input: [UInt8]) throws(LZ4FrameError) -> [UInt8] {
        if input.isEmpty { return emptyFrame }

        var preferences = LZ4F_preferences_t()  // all zero: every field at its default, reserved fields zero
        preferences.frameInfo.blockSizeID = LZ4F_max64KB
        preferences.frameInfo.blockMode = LZ4F_blockIndependent
        preferences.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled
        preferences.frameInfo.frameType = LZ4F_frame
        preferences.frameInfo.contentSize = UInt64(input.count)
        preferences.frameInfo.blockChecksumFlag = LZ4F_blockChecksumEnabled
        preferences.compressionLevel = 0  // 0 = default, the fast (non-HC) compressor
        // Each `LZ4F_compressUpdate` writes what it was given as a block of its own: one per chunk.
        preferences.autoFlush = 1

        var contextPointer: OpaquePointer?
        let created = LZ4F_createCompressionContext(&contextPointer, UInt32(LZ4F_VERSION))
        guard LZ4F_isError(created) == 0, let context = contextPointer else {
            if let contextPointer { LZ4F_freeCompressionContext(contextPointer) }
            throw .compressionFailed(errorName(created))
        }
        defer { LZ4F_freeCompressionContext(context) }

        // The header, each chunk's worst case, and the end mark with the content checksum.
        let chunkBound = LZ4F_compressBound(blockContentSize, &preferences)
        let endBound = LZ4F_compressBound(0, &preferences)
        if LZ4F_isError(chunkBound) != 0 { throw .compressionFailed(errorName(chunkBound)) }
        let chunks = (input.count + blockContentSize - 1) / blockContentSize
        let bound = Int(LZ4F_HEADER_SIZE_MAX) + chunks * chunkBound + endBound

        var failure: LZ4FrameError?
        let output = [UInt8](unsafeUninitializedCapacity: bound) { destination, initializedCount in
            initializedCount = 0
            input.withUnsafeBytes { source in
                // In bounds: each call writes at most the capacity it is given, what is left of
                // `destination` past `initializedCount`, and reads `source[offset ..< offset + count]`,
                // within `source`. Neither buffer is empty (`input` is not, nor then is `bound`), so
                // both base addresses are there.
                let begun = LZ4F_compressBegin(context, destination.baseAddress, destination.count, &preferences)
                if LZ4F_isError(begun) != 0 { failure = .compressionFailed(errorName(begun)); return }
                initializedCount = begun
                var offset = 0
                while offset < source.count {
                    let count = min(blockContentSize, source.count - offset)
                    let written = LZ4F_compressUpdate(
                        context, destination.baseAddress! + initializedCount, destination.count - initializedCount,
                        source.baseAddress! + offset, count, nil)
                    if LZ4F_isError(written) != 0 { failure = .compressionFailed(errorName(written)); return }
                    initializedCount += written
                    offset += count
                }
                let ended = LZ4F_compressEnd(
                    context, destination.baseAddress! + initializedCount, destination.count - initializedCount, nil)
                if LZ4F_isError(ended) != 0 { failure = .compressionFailed(errorName(ended)); return }
                initializedCount += ended
            }
        }
        if let failure { throw failure }
        return output
    }

    /// Decompresses one LZ4 block (the block format, not a frame) of `source` into
    /// `destination`, which must hold its whole output. Returns how many bytes it wrote, or `nil`
    /// when the block is malformed or decompresses to more than `destination` holds.
    static func decompressBlock(_ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer) -> Int? {
        guard source.count <= Int(Int32.max), destination.count <= Int(Int32.max) else { return nil }
        guard let input = source.baseAddress, let output = destination.baseAddress else { return nil }
        // In bounds: LZ4_decompress_safe reads at most `source.count` bytes and writes at most
        // `destination.count`, and refuses (a negative result) input that would need more.
        let written = LZ4_decompress_safe(
            input.assumingMemoryBound(to: CChar.self), output.assumingMemoryBound(to: CChar.self),
            Int32(source.count), Int32(destination.count))
        return written < 0 ? nil : Int(written)
    }

    /// Decompresses exactly one LZ4 frame that starts at the beginning of `input` and ends exactly at its end.
    ///
    /// Before allocating anything for the output it refuses frames without a declared content size and
    /// frames whose declared content size exceeds `maxContentSize` (or exceeds what the bytes in `input`
    /// could possibly decompress to). liblz4 verifies the header checksum and, when the frame's flags
    /// turn them on, the block checksums and the content checksum; a frame whose blocks decompress to a
    /// different length than the declared content size is refused as well.
    ///
    /// The output is decompressed straight into the returned array's storage. For frames with 64 KB
    /// blocks (ours) its capacity is rounded up to whole blocks, so that liblz4 decodes every block,
    /// including the last one, in place instead of through an internal buffer and a copy.
    ///
    /// - Parameters:
    ///   - input: The frame, and nothing else. Any slice of an array works; indices need not start at 0.
    ///   - maxContentSize: The largest content size, in bytes, the caller is prepared to hold in memory.
    /// - Throws: ``LZ4FrameError``; see its cases. Hostile input never crashes, it throws.
    static func decompress(_ input: ArraySlice<UInt8>, maxContentSize: Int) throws(LZ4FrameError) -> [UInt8] {
        // In bounds: `source` covers exactly the slice's elements, and `decompressFrame` only touches source[0..<source.count].
        let result = input.withUnsafeBytes { source in
            Result { () throws(LZ4FrameError) in try decompressFrame(source, maxContentSize: maxContentSize) }
        }
        return try result.get()
    }

    /// The body of ``decompress(_:maxContentSize:)``, working on the input's bytes in place.
    private static func decompressFrame(_ source: UnsafeRawBufferPointer, maxContentSize: Int) throws(LZ4FrameError) -> [UInt8] {
        // The magic number, or as much of it as there is: a prefix of it is a truncated frame, anything else is not a frame.
        let magicLength = min(source.count, magicNumber.count)
        guard source.prefix(magicLength).elementsEqual(magicNumber.prefix(magicLength)) else { throw .notAFrame }
        guard source.count >= Int(LZ4F_MIN_SIZE_TO_KNOW_HEADER_LENGTH) else { throw .truncated }

        // In bounds: LZ4F_headerSize reads the first LZ4F_MIN_SIZE_TO_KNOW_HEADER_LENGTH (5) bytes, checked present above.
        let headerSize = LZ4F_headerSize(source.baseAddress, source.count)
        if LZ4F_isError(headerSize) != 0 { throw .corrupt(errorName(headerSize)) }
        guard source.count >= headerSize else { throw .truncated }

        var contextPointer: OpaquePointer?
        let created = LZ4F_createDecompressionContext(&contextPointer, UInt32(LZ4F_VERSION))
        guard LZ4F_isError(created) == 0, let context = contextPointer else {
            if let contextPointer { LZ4F_freeDecompressionContext(contextPointer) }
            throw .contextCreationFailed(errorName(created))
        }
        defer { LZ4F_freeDecompressionContext(context) }

        // Decodes and checks the header (magic, version, reserved bits, block size, header checksum) and consumes it.
        var frameInfo = LZ4F_frameInfo_t()
        var consumed = source.count
        // In bounds: LZ4F_getFrameInfo reads at most `consumed` (= source.count) bytes and reports how many it used.
        let headerResult = LZ4F_getFrameInfo(context, &frameInfo, source.baseAddress, &consumed)
        if LZ4F_isError(headerResult) != 0 { throw .corrupt(errorName(headerResult)) }

        // liblz4 reports a content size of 0 both when the field is absent and when it says 0, so read the flag
        // itself. Byte 4 (FLG) is within the header just verified, so the header checksum vouches for it.
        guard source[4] & contentSizeFlag != 0 else { throw .missingContentSize }  // in bounds: source.count >= 5
        let declared = frameInfo.contentSize
        guard declared <= UInt64(max(0, maxContentSize)) else {
            throw .contentTooLarge(declared: declared, limit: maxContentSize)
        }
        let (possible, overflow) = UInt64(source.count - consumed).multipliedReportingOverflow(by: maximumExpansion)
        guard overflow || declared <= possible else { throw .truncated }

        let contentSize = Int(declared)  // exact: declared <= maxContentSize <= Int.max
        let capacity = contentSize + slack(contentSize: contentSize, blockSizeID: frameInfo.blockSizeID)

        var failure: LZ4FrameError?
        let output = [UInt8](unsafeUninitializedCapacity: capacity) { destination, initializedCount in
            // In bounds: decompressBlocks writes only inside `destination` and counts in `initializedCount` what it wrote.
            initializedCount = 0
            failure = decompressBlocks(
                context, from: source, startingAt: consumed, into: destination, produced: &initializedCount,
                declared: declared)
        }
        if let failure { throw failure }
        guard output.count == contentSize else { throw .contentSizeMismatch(declared: declared) }
        return output
    }

    /// Runs `LZ4F_decompress` until the frame is complete, writing into `destination` and counting the bytes
    /// written in `produced` (so that they count as initialized even when this fails). `declared` is the
    /// frame's declared content size, for the error message only.
    ///
    /// - Returns: `nil` once `LZ4F_decompress` returns 0 (frame complete, checksums verified) and every input byte
    ///   was used, otherwise the error.
    private static func decompressBlocks(
        _ context: OpaquePointer,
        from source: UnsafeRawBufferPointer,
        startingAt start: Int,
        into destination: UnsafeMutableBufferPointer<UInt8>,
        produced: inout Int,
        declared: UInt64
    ) -> LZ4FrameError? {
        var options = LZ4F_decompressOptions_t()  // all zero: checksums verified, reserved fields zero
        options.stableDst = 1  // `destination` is one buffer that stays put and unmodified between calls
        var position = start
        while true {
            var written = destination.count - produced
            var read = source.count - position
            // In bounds: liblz4 writes at most `written` bytes from destination[produced], which ends at destination.count,
            // and reads at most `read` bytes from source[position], which ends at source.count (position <= source.count).
            let hint = LZ4F_decompress(
                context,
                destination.baseAddress.map { $0 + produced }, &written,
                source.baseAddress.map { $0 + position }, &read,
                &options)
            if LZ4F_isError(hint) != 0 { return .corrupt(errorName(hint)) }
            produced += written
            position += read
            if hint == 0 {  // the frame is complete and its checksums matched
                return position == source.count ? nil : .trailingBytes(source.count - position)
            }
            // liblz4 wants more input and there is none.
            if position == source.count { return .truncated }
            // No progress although input remains: liblz4 holds decoded data that does not fit in the buffer,
            // so the frame decompresses to more than it declared.
            if read == 0 && written == 0 { return .contentSizeMismatch(declared: declared) }
        }
    }

    /// How many bytes to allocate beyond `contentSize` so that the final block decodes in place.
    ///
    /// liblz4 decodes a block straight into the caller's buffer only if a whole maximum-size block fits in
    /// the space left, otherwise it decodes into its own buffer and copies. Rounding the capacity up to
    /// whole blocks avoids that copy; the slack is capped at ``maximumSlack`` (one 64 KB block), so frames
    /// with larger blocks (like `lz4`'s default 4 MB) get an exact buffer and pay for one copy instead.
    private static func slack(contentSize: Int, blockSizeID: LZ4F_blockSizeID_t) -> Int {
        // IDs 4...7 stand for 64 KB, 256 KB, 1 MB, 4 MB; LZ4F_getFrameInfo has refused any other value.
        let id = Int(blockSizeID.rawValue)
        guard (4...7).contains(id), contentSize > 0 else { return 0 }
        let blockSize = 1 << (2 * id + 8)
        let remainder = contentSize % blockSize
        let slack = remainder == 0 ? 0 : blockSize - remainder
        return slack <= maximumSlack ? slack : 0
    }

    /// liblz4's name for the error code `code`, e.g. `ERROR_contentChecksum_invalid`.
    private static func errorName(_ code: Int) -> String {
        guard let name = LZ4F_getErrorName(code) else { return "unknown LZ4F error \(code)" }
        return String(cString: name)
    }
}
