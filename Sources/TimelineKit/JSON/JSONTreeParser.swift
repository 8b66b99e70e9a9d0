/// Parses whole JSON documents into `JSONNode` trees with the same strict scanner the JSON Lines
/// import uses (RFC 8259, UTF-8 checked, at most `JSONScanner.maximumDepth` levels deep), so a Mastodon or Twitter file
/// is held to the same rules and its errors read the same way.
struct JSONTreeParser {
    let bytes: UnsafeBufferPointer<UInt8>
    private var scanner: JSONScanner

    init(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int = 0) {
        self.bytes = bytes
        scanner = JSONScanner(bytes, at: index)
    }

    /// The offset of the next byte to read.
    var index: Int { scanner.index }

    /// The next document, or `nil` when only whitespace is left. Documents may follow each other
    /// separated by whitespace (one page per line, as collectors save API pages) or not at all.
    mutating func nextDocument() throws(JSONLineFailure) -> JSONNode? {
        scanner.skipWhitespace()
        if scanner.isAtEnd { return nil }
        return try Self.node(&scanner, depth: 0)
    }

    private static func node(_ scanner: inout JSONScanner, depth: Int) throws(JSONLineFailure) -> JSONNode {
        scanner.skipWhitespace()
        let start = scanner.index
        switch scanner.current {
        case UInt8(ascii: "{"):
            var members: [(key: String, value: JSONNode)] = []
            try scanner.forEachMember(depth: depth + 1) { (inner: inout JSONScanner, key: JSONSpan) throws(JSONLineFailure) in
                let name = JSONScanner.string(key, in: inner.bytes)
                members.append((name, try node(&inner, depth: depth + 1)))
            }
            return JSONNode(value: .object(members), offset: start)
        case UInt8(ascii: "["):
            var elements: [JSONNode] = []
            try scanner.forEachElement(depth: depth + 1) { (inner: inout JSONScanner, _: Int) throws(JSONLineFailure) in
                elements.append(try node(&inner, depth: depth + 1))
            }
            return JSONNode(value: .array(elements), offset: start)
        default:
            let scanned = try scanner.scanValue(depth: depth)
            let value: JSONNode.Value = switch scanned.kind {
            case .string: .string(JSONScanner.string(scanned, in: scanner.bytes))
            case .number:
                .number(String(decoding: UnsafeBufferPointer(rebasing: scanner.bytes[scanned.start ..< scanned.end]), as: UTF8.self),
                        isInteger: scanned.isInteger, isNegative: scanned.isNegative)
            case .trueLiteral: .bool(true)
            case .falseLiteral: .bool(false)
            case .null, .array, .object: .null  // containers were handled above
            }
            return JSONNode(value: value, offset: start)
        }
    }
}

extension JSONNode {
    /// Parses `bytes` as one whole JSON document (RFC 8259, UTF-8, at most
    /// `JSONScanner.maximumDepth` levels deep; a UTF-8 byte order mark before it is skipped) with
    /// the reader every import and sync uses.
    ///
    /// - Throws: ``JSONDocumentError`` naming the line, column and problem: malformed JSON,
    ///   invalid UTF-8, nesting too deep, no document at all, or content after the document.
    public init(parsing bytes: [UInt8]) throws(JSONDocumentError) {
        let result: Result<JSONNode, JSONLineFailure> = bytes.withUnsafeBufferPointer { buffer in
            let start = buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF ? 3 : 0
            var parser = JSONTreeParser(buffer, at: start)
            do throws(JSONLineFailure) {
                guard let document = try parser.nextDocument() else {
                    throw JSONLineFailure(offset: parser.index, field: nil, problem: .malformedJSON("the input holds no JSON value"))
                }
                if try parser.nextDocument() != nil {
                    throw JSONLineFailure(offset: nil, field: nil, problem: .unexpectedContent("more than one JSON value; a document is one value"))
                }
                return .success(document)
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case let .success(document): self = document
        case let .failure(failure): throw JSONDocumentError(failure, in: bytes)
        }
    }
}
