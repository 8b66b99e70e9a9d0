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
    /// The longest line accepted, in bytes, without its line ending: 1 MiB
    /// (`JSONLinesImporter.maximumLineBytes`).
    static let maximumLineBytes = 1_048_576
    /// The file's path as given, or `<stdin>`: what errors name.
    public let sourceName: String
    /// The input's size when it is a regular file, for progress; `nil` for a pipe or terminal.
    public let totalBytes: Int?

    private let lines: LineChunkReader
    private var parser = JSONLineParser()
    /// Closed on deinit when this reader opened it.
    private let ownedDescriptor: FileDescriptor?

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
            self.init(fileDescriptor: .standardInput, sourceName: "<stdin>", alreadyRead: [], closingOnDeinit: false)
            return
        }
        let file: FileDescriptor
        do {
            file = try FileDescriptor.openForReading(path)
        } catch {
            throw ImportError(source: path, problem: .cannotRead(error))
        }
        self.init(fileDescriptor: file, sourceName: path, alreadyRead: [], closingOnDeinit: true)
    }

    /// Reads from an open file descriptor, which stays open. `sourceName` is what errors call it,
    /// e.g. `<stdin>`. The total size is taken from the descriptor when it is a regular file.
    public convenience init(fileDescriptor: Int32, sourceName: String) {
        self.init(fileDescriptor: FileDescriptor(rawValue: fileDescriptor), sourceName: sourceName, alreadyRead: [], closingOnDeinit: false)
    }

    /// Reads `alreadyRead`, the first bytes of the input (read to tell its format), then the
    /// rest from `fileDescriptor` (a pipe, which cannot be rewound), which stays open.
    convenience init(alreadyRead: [UInt8], then fileDescriptor: FileDescriptor, sourceName: String) {
        self.init(fileDescriptor: fileDescriptor, sourceName: sourceName, alreadyRead: alreadyRead, closingOnDeinit: false)
    }

    private init(fileDescriptor: FileDescriptor, sourceName: String, alreadyRead: [UInt8], closingOnDeinit: Bool) {
        self.sourceName = sourceName
        if let status = try? fileDescriptor.status(), status.kind == .regularFile {
            // A regular file may be read from an offset (stdin redirected after a `read`).
            totalBytes = status.size - (fileDescriptor.offset() ?? 0) + alreadyRead.count
        } else {
            totalBytes = nil
        }
        lines = LineChunkReader(fileDescriptor: fileDescriptor, maximumLineBytes: Self.maximumLineBytes,
                                alreadyRead: alreadyRead)
        ownedDescriptor = closingOnDeinit ? fileDescriptor : nil
    }

    deinit {
        ownedDescriptor?.close()
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
                                      problem: .lineTooLong(limit: Self.maximumLineBytes))
                }
            }
            guard let line else { return nil }
            do {
                if let record = try parser.parse(line) { return record }
            } catch {
                throw ImportError(source: sourceName, line: lines.lineNumber,
                                  column: error.offset.map { Self.column(of: $0, in: line) },
                                  field: error.field, problem: .init(error.problem))
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
