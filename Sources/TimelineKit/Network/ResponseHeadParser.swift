/// Reads the header blocks curl writes with `--dump-header`: one block per response it saw,
/// each a status line, header lines and an empty line. Interim responses (`100 Continue`,
/// `103 Early Hints`) come first and are skipped; the first block with a final status (200 and
/// above) is the response's head. Whatever follows it (trailers) is ignored.
///
/// HTTP/1.x status lines read `HTTP/1.1 200 OK`, HTTP/2 and 3 ones `HTTP/2 200`; lines end in
/// CRLF as received (a bare LF is accepted too); a line starting with a space or tab continues
/// the previous field (obsolete folding).
struct ResponseHeadParser: Sendable {
    /// The head, once a final block is complete.
    private(set) var head: (status: Int, headers: [HTTPHeader])?

    /// The most header bytes accepted before a head is complete: far above any real server's.
    static let limit = 256 << 10

    private var pending: [UInt8] = []
    private var status: Int?
    private var headers: [HTTPHeader] = []

    /// Why the bytes are not a response head.
    enum Failure: Error, Equatable {
        case notHTTP(line: String)
        case tooLarge
    }

    /// Takes the next bytes of the header dump.
    mutating func append(_ bytes: [UInt8]) throws(Failure) {
        guard head == nil else { return }
        pending += bytes
        var start = 0
        while head == nil, let newline = pending[start...].firstIndex(of: 0x0A) {
            var end = newline
            if end > start && pending[end - 1] == 0x0D { end -= 1 }
            try take(pending[start..<end])
            start = newline + 1
        }
        pending.removeFirst(start)
        if head == nil && pending.count + headers.count * 64 > Self.limit { throw .tooLarge }
    }

    private mutating func take(_ line: ArraySlice<UInt8>) throws(Failure) {
        guard let current = status else {
            if line.isEmpty { return }  // tolerate blank lines between blocks
            status = try Self.statusCode(line)
            headers = []
            return
        }
        if line.isEmpty {
            if current >= 200 { head = (current, headers) }
            status = nil
            return
        }
        if let first = line.first, first == 0x20 || first == 0x09, !headers.isEmpty {
            headers[headers.count - 1].value += " " + Self.trimmed(line)
            return
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return }  // not a field: skip it
        headers.append(HTTPHeader(name: String(decoding: line[..<colon], as: UTF8.self),
                                  value: Self.trimmed(line[(colon + 1)...])))
    }

    private static func statusCode(_ line: ArraySlice<UInt8>) throws(Failure) -> Int {
        let parts = line.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count >= 2, parts[0].starts(with: Array("HTTP/".utf8)), parts[1].count == 3,
              parts[1].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let code = Int(String(decoding: parts[1], as: UTF8.self)), code >= 100
        else {
            throw .notHTTP(line: String(decoding: line.prefix(80), as: UTF8.self))
        }
        return code
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        var slice = bytes
        while let first = slice.first, first == 0x20 || first == 0x09 { slice = slice.dropFirst() }
        while let last = slice.last, last == 0x20 || last == 0x09 { slice = slice.dropLast() }
        return String(decoding: slice, as: UTF8.self)
    }
}
