#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits what a file descriptor delivers into lines, reading in chunks, so that memory stays
/// bounded by one chunk plus the longest line allowed, whatever the size of the input. It may
/// start from bytes already read from the descriptor (to tell the input's format), which come
/// first, as if they had not been read.
///
/// Lines end with LF or CRLF (the CR is dropped); the last line may have no ending. A UTF-8 byte
/// order mark at the very start is skipped. A line longer than `maximumLineBytes` is refused as
/// soon as that many bytes have arrived without a line feed: a 10 GB line costs one buffer, not
/// 10 GB.
package final class LineChunkReader {
    package enum Failure: Error {
        case read(Errno)
        case lineTooLong
    }

    let fileDescriptor: FileDescriptor
    let maximumLineBytes: Int
    /// The 1-based number of the line last returned (or refused).
    package private(set) var lineNumber = 0
    /// Bytes of the input consumed by the lines returned so far, endings and BOM included.
    private(set) var bytesConsumed = 0

    private let buffer: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// The bytes read but not yet returned are `buffer[start ..< end]`.
    private var start = 0
    private var end = 0
    private var reachedEnd = false
    private var checkedByteOrderMark = false

    package init(fileDescriptor: FileDescriptor, maximumLineBytes: Int, chunkBytes: Int = 256 * 1024, alreadyRead: [UInt8] = []) {
        self.fileDescriptor = fileDescriptor
        self.maximumLineBytes = maximumLineBytes
        // A pending line never exceeds maximumLineBytes + 1 (its CR) before it is refused, so at
        // least one chunk always fits behind it, and so do the bytes already read.
        capacity = maximumLineBytes + 1 + max(chunkBytes, alreadyRead.count)
        buffer = .allocate(capacity: capacity)
        // In bounds: capacity >= alreadyRead.count.
        alreadyRead.withUnsafeBufferPointer { bytes in
            if let base = bytes.baseAddress { buffer.initialize(from: base, count: bytes.count) }
        }
        end = alreadyRead.count
    }

    deinit {
        buffer.deallocate()
    }

    /// The next line without its ending, valid until the next call; `nil` at the end of input.
    package func nextLine() throws(Failure) -> UnsafeBufferPointer<UInt8>? {
        while true {
            if !checkedByteOrderMark {
                if end - start < 3 && !reachedEnd {
                    try fill()
                    continue
                }
                checkedByteOrderMark = true
                // In bounds: end - start >= 3 is checked before reading three bytes.
                if end - start >= 3, buffer[start] == 0xEF, buffer[start + 1] == 0xBB, buffer[start + 2] == 0xBF {
                    start += 3
                    bytesConsumed += 3
                }
            }
            // In bounds: memchr reads end - start bytes from buffer + start, all initialized.
            if let found = memchr(buffer + start, 0x0A, end - start) {
                let newline = buffer.distance(to: found.assumingMemoryBound(to: UInt8.self))
                return try takeLine(until: newline, consuming: newline + 1)
            }
            if reachedEnd {
                guard start < end else { return nil }
                return try takeLine(until: end, consuming: end)
            }
            if end - start > maximumLineBytes + 1 {
                lineNumber += 1
                throw .lineTooLong
            }
            if start > 0 {
                // Moves the partial line to the front: it is at most maximumLineBytes + 1 bytes.
                memmove(buffer, buffer + start, end - start)
                end -= start
                start = 0
            }
            try fill()
        }
    }

    /// Returns `buffer[start ..< lineEnd]` without a final CR and moves `start` to `next`.
    private func takeLine(until lineEnd: Int, consuming next: Int) throws(Failure) -> UnsafeBufferPointer<UInt8> {
        lineNumber += 1
        bytesConsumed += next - start
        var contentEnd = lineEnd
        // In bounds: contentEnd - 1 >= start >= 0 when the condition reads it.
        if contentEnd > start, buffer[contentEnd - 1] == 0x0D { contentEnd -= 1 }
        let line = UnsafeBufferPointer(start: buffer + start, count: contentEnd - start)
        start = next
        guard line.count <= maximumLineBytes else { throw .lineTooLong }
        return line
    }

    /// Reads once into the free space after `end`.
    private func fill() throws(Failure) {
        do {
            // In bounds: the capacity - end bytes after buffer + end.
            let count = try fileDescriptor.read(into: UnsafeMutableRawBufferPointer(start: buffer + end, count: capacity - end))
            if count == 0 { reachedEnd = true }
            end += count
        } catch {
            throw .read(error)
        }
    }
}
