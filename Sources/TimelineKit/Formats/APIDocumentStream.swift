/// Reads the JSON documents of a Mastodon or Twitter file from a descriptor in bounded memory:
/// a document that is an array (a timeline page, a Twitter archive's `tweets.js`, a collection
/// of a million statuses) is handed on element by element, each parsed on its own; any other
/// document (one status, a context, search results, a v2 page) whole. The same strict parser
/// reads every element, and errors name the file's own line, column and JSON path, as
/// `APIDocumentReader` does for a file read whole.
///
/// How an element's end is found without parsing it: strings are skipped (a backslash escapes
/// the next byte), brackets and braces outside them counted; a scalar ends at a comma, a closing
/// bracket or whitespace. What that finds is then parsed strictly, so a broken element is
/// reported as the parser sees it (a truncated file says where it ends).
struct APIDocumentStream {
    /// The largest element of an array, or document that is not an array: a status is a few
    /// kilobytes, a v2 page a few megabytes.
    /// 256 MiB (`TimelineImporter.maximumInputBytes`).
    static let maximumValueBytes = 256 << 20

    private let file: FileDescriptor
    private let sourceName: String
    /// Bytes read and not yet consumed: `buffer[start...]`.
    private var buffer: [UInt8]
    private var start = 0
    private var reachedEnd = false
    /// Where `buffer[start]` is in the file.
    private var position = SourcePosition(line: 1, column: 1)
    /// Bytes consumed so far, and how many of them were line feeds.
    private(set) var bytesRead = 0
    private(set) var lastByte: UInt8?

    /// Where the reading stands between values.
    private enum Place {
        case topLevel
        /// Inside a top-level array, before element `index`; `afterElement` when a `,` or the
        /// `]` comes next.
        case inArray(index: Int, afterElement: Bool)
    }

    private var place = Place.topLevel
    /// The end of the value `next()` returned last, consumed at the next call: until then its
    /// bytes stay buffered, so that `placed(_:)` can say where in the file a failure is.
    private var pendingEnd: Int?
    private var started = false

    /// Reads `alreadyRead` (the input's first bytes, read to tell its format), then the rest of
    /// `file`.
    init(file: FileDescriptor, alreadyRead: [UInt8], sourceName: String) {
        self.file = file
        self.sourceName = sourceName
        buffer = alreadyRead
    }

    /// How many lines the input had (the last one may have no line feed).
    var lineCount: Int { position.line - 1 + (lastByte == nil || lastByte == 0x0A ? 0 : 1) }

    /// The next element of a top-level array with its index, or the next top-level document
    /// that is not an array (index `nil`); `nil` at the end of the input.
    mutating func next() throws(ImportError) -> (node: JSONNode, index: Int?)? {
        if let end = pendingEnd {
            try consume(end - start)
            pendingEnd = nil
        } else if !started {
            started = true
            try skipPreamble()
        }
        while true {
            try skipWhitespace()
            switch place {
            case .topLevel:
                guard let byte = try peek() else { return nil }
                if byte == UInt8(ascii: "[") {
                    try consume(1)
                    place = .inArray(index: 0, afterElement: false)
                    try skipWhitespace()
                    if try peek() == UInt8(ascii: "]") {
                        try consume(1)
                        place = .topLevel
                    }
                    continue
                }
                return (try parseValue(), nil)
            case let .inArray(index, afterElement: true):
                switch try peek() {
                case UInt8(ascii: ","):
                    try consume(1)
                    place = .inArray(index: index, afterElement: false)
                case UInt8(ascii: "]"):
                    try consume(1)
                    place = .topLevel
                case let other:
                    let found = other.map { JSONScanner.describe($0, escaped: false) } ?? "the end of the input"
                    throw failure(at: start, field: nil, .malformedJSON("expected `,` or `]` after an array element, found \(found)"))
                }
            case let .inArray(index, afterElement: false):
                if let byte = try peek(), byte == UInt8(ascii: "]") || byte == UInt8(ascii: ",") {
                    throw failure(at: start, field: nil, .malformedJSON("expected a value after `,`, found \(JSONScanner.describe(byte, escaped: false))"))
                }
                let node = try parseValue()
                place = .inArray(index: index + 1, afterElement: true)
                return (node, index)
            }
        }
    }

    /// A decoder's failure in the value `next()` returned last, placed in the file.
    func placed(_ failure: JSONLineFailure) -> ImportError {
        guard let offset = failure.offset else {
            return ImportError(source: sourceName, field: failure.field, problem: .init(failure.problem))
        }
        return self.failure(at: start + offset, field: failure.field, .init(failure.problem))
    }

    // MARK: Values

    /// Parses the value at `start`; it is consumed at the next call of `next()`.
    private mutating func parseValue() throws(ImportError) -> JSONNode {
        guard try peek() != nil else { throw failure(at: start, field: nil, .malformedJSON("the input ends where a value should be")) }
        let end = try valueEnd()
        let outcome: Result<JSONNode, JSONLineFailure> = buffer.withUnsafeBufferPointer { all in
            let bytes = UnsafeBufferPointer(rebasing: all[start ..< end])
            var parser = JSONTreeParser(bytes)
            do throws(JSONLineFailure) {
                guard let node = try parser.nextDocument() else {
                    return .failure(JSONLineFailure(offset: 0, problem: .malformedJSON("the input ends where a value should be")))
                }
                // The extent holds one value: anything after it (`1"a"`) is not JSON either.
                var rest = JSONScanner(bytes, at: parser.index)
                rest.skipWhitespace()
                if !rest.isAtEnd {
                    return .failure(JSONLineFailure(offset: rest.index, problem: .malformedJSON(
                        "expected `,` or `]` after a value, found \(JSONScanner.describe(bytes[rest.index], escaped: false))")))
                }
                return .success(node)
            } catch {
                return .failure(error)
            }
        }
        switch outcome {
        case let .success(node):
            pendingEnd = end
            return node
        case let .failure(failure):
            throw placed(failure)
        }
    }

    /// The offset after the value that starts at `start`, reading more as needed; at the end of
    /// the input, the end of what there is (the parser then says what is missing).
    private mutating func valueEnd() throws(ImportError) -> Int {
        var index = start
        var depth = 0
        var inString = false
        var escaped = false
        let first = buffer[start]
        let isScalar = first != UInt8(ascii: "{") && first != UInt8(ascii: "[") && first != UInt8(ascii: "\"")
        while true {
            if index == buffer.count {
                if reachedEnd { return index }
                guard index - start <= Self.maximumValueBytes else {
                    throw failure(at: start, field: nil, .inputTooLarge(limit: Self.maximumValueBytes))
                }
                index -= try fill()
                continue
            }
            let byte = buffer[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 { return index + 1 }
                }
            } else if isScalar {
                switch byte {
                case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20, 0x09, 0x0A, 0x0D: return index
                default: break
                }
            } else {
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default: break
                }
            }
            index += 1
        }
    }

    // MARK: Bytes

    /// The next byte, reading more when none is buffered; `nil` at the end of the input.
    private mutating func peek() throws(ImportError) -> UInt8? {
        while start == buffer.count {
            if reachedEnd { return nil }
            _ = try fill()
        }
        return buffer[start]
    }

    private mutating func skipWhitespace() throws(ImportError) {
        while let byte = try peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            try consume(1)
        }
    }

    /// A byte order mark and a Twitter archive's `window.YTD.tweets.part0 =`.
    private mutating func skipPreamble() throws(ImportError) {
        // The assignment is a short line: 512 bytes hold it whole.
        while buffer.count - start < 512, !reachedEnd { _ = try fill() }
        let skip = buffer.withUnsafeBufferPointer { APIDocumentReader.contentStart(of: UnsafeBufferPointer(rebasing: $0[start...])) }
        try consume(skip)
    }

    /// Moves `start` past `count` buffered bytes, keeping the line and column.
    private mutating func consume(_ count: Int) throws(ImportError) {
        guard count > 0 else { return }
        buffer.withUnsafeBufferPointer { bytes in position.advance(over: UnsafeBufferPointer(rebasing: bytes[start ..< start + count])) }
        lastByte = buffer[start + count - 1]
        bytesRead += count
        start += count
    }

    /// Reads one more chunk, first dropping the consumed bytes when they are most of the buffer.
    /// Returns by how much the buffered bytes moved towards the front.
    private mutating func fill() throws(ImportError) -> Int {
        var moved = 0
        if start > 0, start >= buffer.count / 2 {
            moved = start
            buffer.removeFirst(start)
            start = 0
        }
        do {
            let chunk = try file.read(atMost: 1 << 18)
            if chunk.isEmpty { reachedEnd = true }
            buffer += chunk
        } catch {
            throw ImportError(source: sourceName, problem: .cannotRead(FileSystemError(operation: "read", path: sourceName, code: error)))
        }
        return moved
    }

    // MARK: Errors

    /// A failure at buffer offset `offset`, placed in the file.
    private func failure(at offset: Int, field: String?, _ problem: ImportError.Problem) -> ImportError {
        var place = position
        buffer.withUnsafeBufferPointer { bytes in place.advance(over: UnsafeBufferPointer(rebasing: bytes[start ..< max(start, min(offset, bytes.count))])) }
        return ImportError(source: sourceName, line: place.line, column: place.column, field: field, problem: problem)
    }
}
