#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TimelineKit

/// Reads a list of IDs, one per line, from a file or from standard input for `-`, with the
/// import's line splitter (LF or CRLF, a byte order mark skipped, memory bounded by one line).
enum LineReader {
    struct Failure: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "cannot read \(path): \(reason)" }
    }

    /// The longest line accepted: far more than any ID.
    static let maximumLineBytes = 64 * 1024

    /// The non-empty lines of `path`, with surrounding spaces and tabs removed.
    static func lines(of path: String) throws(Failure) -> [String] {
        let file: FileDescriptor
        do {
            file = path == "-" ? .standardInput : try FileDescriptor.openForReading(path)
        } catch {
            throw Failure(path: path, reason: error.reason)
        }
        defer { if path != "-" { file.close() } }
        let reader = LineChunkReader(fileDescriptor: file, maximumLineBytes: maximumLineBytes)
        var lines: [String] = []
        while true {
            let line: UnsafeBufferPointer<UInt8>?
            do throws(LineChunkReader.Failure) {
                line = try reader.nextLine()
            } catch {
                switch error {
                case let .read(code): throw Failure(path: path, reason: code.description)
                case .lineTooLong:
                    throw Failure(path: path, reason: "line \(reader.lineNumber) is longer than \(maximumLineBytes) bytes")
                }
            }
            guard let line else { return lines }
            // Trimmed as bytes before decoding: spaces and tabs are single UTF-8 bytes that no
            // multi-byte sequence contains, and two index scans cost nothing beside building the
            // String (trimming the String instead took 45% of `mark-read --ids-file` at 10,000 IDs).
            let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
            guard let first = line.firstIndex(where: { !isBlank($0) }),
                  let last = line.lastIndex(where: { !isBlank($0) }) else { continue }
            lines.append(String(decoding: UnsafeBufferPointer(rebasing: line[first...last]), as: UTF8.self))
        }
    }
}
