/// Why an LZ4 frame could not be produced or read back.
///
/// Every case describes the problem in terms of the data, so that a message built from
/// ``description`` tells a person what happened to the file and what to do about it.
enum LZ4FrameError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The data does not start with the LZ4 frame magic number (`04 22 4D 18`).
    /// Skippable frames and the legacy LZ4 format are reported this way too.
    case notAFrame

    /// The data ends before the frame does (for example an interrupted write),
    /// or the frame declares more content than the bytes present could possibly hold.
    case truncated

    /// The frame header does not record the size of the decompressed content,
    /// which this reader requires so that it can check the size before allocating.
    case missingContentSize

    /// The frame header declares `declared` bytes of content, more than the caller's `limit`.
    case contentTooLarge(declared: UInt64, limit: Int)

    /// The frame's blocks do not decompress to the `declared` number of bytes recorded in its header.
    case contentSizeMismatch(declared: UInt64)

    /// liblz4 rejected the frame; the associated text is `LZ4F_getErrorName`'s name for the problem,
    /// e.g. `ERROR_contentChecksum_invalid` or `ERROR_headerChecksum_invalid`.
    case corrupt(String)

    /// The frame ended cleanly but this many bytes follow it.
    case trailingBytes(Int)

    /// liblz4 could not compress the input; the associated text is `LZ4F_getErrorName`'s name for the problem.
    case compressionFailed(String)

    /// liblz4 could not create a decompression context (it only fails when memory runs out);
    /// the associated text is `LZ4F_getErrorName`'s name for the problem.
    case contextCreationFailed(String)

    var description: String {
        switch self {
        case .notAFrame:
            return "The data is not an LZ4 frame: it does not start with the LZ4 magic number 04 22 4D 18."
        case .truncated:
            return "The LZ4 frame is truncated: the data ends before the frame does. "
                + "The file was probably cut short by an interrupted write; write it again."
        case .missingContentSize:
            return "The LZ4 frame does not record its decompressed size. "
                + "Compress it again with the content size enabled (lz4 --content-size)."
        case .contentTooLarge(let declared, let limit):
            return "The LZ4 frame declares \(declared) bytes of content, "
                + "more than the limit of \(limit) bytes; it was not decompressed."
        case .contentSizeMismatch(let declared):
            return "The LZ4 frame is corrupt: its blocks do not decompress to the \(declared) bytes "
                + "declared in its header."
        case .corrupt(let reason):
            return "The LZ4 frame is corrupt (\(reason)); the data cannot be trusted."
        case .trailingBytes(let count):
            return "\(Counted(count, "unexpected byte")) \(count == 1 ? "follows" : "follow") the end of the LZ4 frame; "
                + "the file holds more than one frame or was overwritten incompletely."
        case .compressionFailed(let reason):
            return "LZ4 compression failed (\(reason))."
        case .contextCreationFailed(let reason):
            return "LZ4 could not prepare to decompress (\(reason)); the system may be out of memory."
        }
    }
}
