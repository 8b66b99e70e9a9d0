#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the records of a JSON Lines file one at a time, streaming: memory stays bounded by
/// `JSONLinesImporter.maximumLineBytes` plus one read chunk, whatever the size of the file.
///
/// It checks each line completely (see `JSONLinesImporter` for the format) but stores nothing;
/// `JSONLinesImporter` stores what it reads. Use it alone to validate a file (`--check`) or to
/// process records some other way.
///
/// ```swift
/// let reader = try JSONLinesReader(path: "timeline.jsonl")   // "-" reads standard input
/// while let record = try reader.nextRecord() {
///     if case let .message(message, _) = record { print(reader.lineNumber, message.id) }
/// }
/// ```
public final class JSONLinesReader {
    /// The file's path as given, or `<stdin>`: what errors name.
    public let sourceName: String
    /// The input's size when it is a regular file, for progress; `nil` for a pipe or terminal.
    public let totalBytes: Int?

    private let lines: LineChunkReader
    private var parser = JSONLineParser()
    /// Closed on deinit when this reader opened it.
    private let ownedDescriptor: Int32?

    /// The 1-based number of the line of the record last returned (or of the line at fault after
    /// an error).
    public var lineNumber: Int { lines.lineNumber }
    /// Bytes consumed so far.
    public var bytesRead: Int { lines.bytesConsumed }

    /// Opens the file at `path`, or standard input when `path` is `-`.
    ///
    /// - Throws: `ImportError` with `.cannotRead` when the file cannot be opened or is a directory.
    public convenience init(path: String) throws(ImportError) {
        if path == "-" {
            self.init(fileDescriptor: STDIN_FILENO, sourceName: "<stdin>")
            return
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ImportError(source: path, problem: .cannotRead(FileSystemError(operation: "open", path: path, code: errno)))
        }
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            close(descriptor)
            throw ImportError(source: path, problem: .cannotRead(FileSystemError(operation: "read", path: path, code: EISDIR)))
        }
        self.init(fileDescriptor: descriptor, sourceName: path, closingOnDeinit: true)
    }

    /// Reads from an open file descriptor, which stays open. `sourceName` is what errors call it,
    /// e.g. `<stdin>`. The total size is taken from the descriptor when it is a regular file.
    public convenience init(fileDescriptor: Int32, sourceName: String) {
        self.init(fileDescriptor: fileDescriptor, sourceName: sourceName, closingOnDeinit: false)
    }

    private init(fileDescriptor: Int32, sourceName: String, closingOnDeinit: Bool) {
        self.sourceName = sourceName
        var info = stat()
        if fstat(fileDescriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
            // A regular file may be read from an offset (stdin redirected after a `read`).
            let position = lseek(fileDescriptor, 0, SEEK_CUR)
            totalBytes = Int(info.st_size) - max(0, Int(position))
        } else {
            totalBytes = nil
        }
        lines = LineChunkReader(fileDescriptor: fileDescriptor, maximumLineBytes: JSONLinesImporter.maximumLineBytes)
        ownedDescriptor = closingOnDeinit ? fileDescriptor : nil
    }

    deinit {
        if let ownedDescriptor { close(ownedDescriptor) }
    }

    /// The next record, skipping blank lines, or `nil` at the end of the input.
    ///
    /// - Throws: `ImportError` naming this reader's source, the line, and where possible the
    ///   column and field. Reading further after an error is not supported.
    public func nextRecord() throws(ImportError) -> JSONLinesRecord? {
        while true {
            let line: UnsafeBufferPointer<UInt8>?
            do {
                line = try lines.nextLine()
            } catch {
                switch error {
                case let .read(code):
                    throw ImportError(source: sourceName, line: lines.lineNumber + 1,
                                      problem: .cannotRead(FileSystemError(operation: "read", path: sourceName, code: code)))
                case .lineTooLong:
                    throw ImportError(source: sourceName, line: lines.lineNumber,
                                      problem: .lineTooLong(limit: JSONLinesImporter.maximumLineBytes))
                }
            }
            guard let line else { return nil }
            do {
                if let record = try parser.parse(line) { return record }
            } catch {
                throw ImportError(source: sourceName, line: lines.lineNumber,
                                  column: error.offset.map { Self.column(of: $0, in: line) },
                                  field: error.field, problem: error.problem)
            }
        }
    }

    /// The 1-based column of byte `offset`, counted in Unicode scalars as editors count
    /// characters (continuation bytes do not start a new one).
    private static func column(of offset: Int, in line: UnsafeBufferPointer<UInt8>) -> Int {
        var column = 1
        for position in 0 ..< min(offset, line.count) where line[position] & 0xC0 != 0x80 {
            column += 1
        }
        return column
    }
}
