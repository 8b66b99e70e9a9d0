/// A `multipart/form-data` body (RFC 7578) built byte by byte, as a browser's form sends it:
/// what Mastodon's media upload takes (`POST /api/v2/media`, `file` and `description`).
///
/// Written here, not left to `curl -F`: curl reads a value starting with `@` or `<` as a file
/// to attach, and `;type=` or quotes inside it as its own syntax, so alt text would not arrive
/// as typed. Here every value goes as its bytes, unchanged; only the boundary separates them,
/// and it is chosen at random and checked to occur in none of the values.
///
/// ```
/// --BOUNDARY\r\n
/// Content-Disposition: form-data; name="file"; filename="image.png"\r\n
/// Content-Type: image/png\r\n
/// \r\n
/// <the file's bytes>\r\n
/// --BOUNDARY\r\n
/// Content-Disposition: form-data; name="description"\r\n
/// \r\n
/// <the text's UTF-8 bytes>\r\n
/// --BOUNDARY--\r\n
/// ```
struct MultipartForm: Sendable {
    /// One field: a text (no file name, no type: UTF-8 as browsers send it) or a file.
    struct Part: Sendable {
        /// The field's name: ours, ASCII letters and `_` only, so it needs no quoting.
        var name: String
        /// A file's name, ours (`image.png`): never the person's, which would need escaping
        /// and tells the server what it need not know.
        var fileName: String?
        var contentType: String?
        var bytes: [UInt8]
    }

    var parts: [Part] = []

    mutating func addText(_ name: String, _ text: String) {
        parts.append(Part(name: name, fileName: nil, contentType: nil, bytes: Array(text.utf8)))
    }

    mutating func addFile(_ name: String, fileName: String, contentType: String, bytes: [UInt8]) {
        parts.append(Part(name: name, fileName: fileName, contentType: contentType, bytes: bytes))
    }

    /// The body and its `Content-Type` (`multipart/form-data; boundary=…`). `boundary` makes a
    /// boundary; the default draws 32 random hexadecimal digits after `timeline-`, drawn again
    /// should a value hold it (one chance in 2^128 each time).
    func encoded(boundary: () -> String = MultipartForm.randomBoundary) -> (body: [UInt8], contentType: String) {
        var chosen = boundary()
        while parts.contains(where: { Self.contains($0.bytes, Array(("--" + chosen).utf8)) }) { chosen = boundary() }
        var body: [UInt8] = []
        for part in parts {
            var head = "--\(chosen)\r\nContent-Disposition: form-data; name=\"\(part.name)\""
            if let fileName = part.fileName { head += "; filename=\"\(fileName)\"" }
            head += "\r\n"
            if let contentType = part.contentType { head += "Content-Type: \(contentType)\r\n" }
            body += Array((head + "\r\n").utf8)
            body += part.bytes
            body += Array("\r\n".utf8)
        }
        body += Array("--\(chosen)--\r\n".utf8)
        return (body, "multipart/form-data; boundary=\(chosen)")
    }

    static func randomBoundary() -> String {
        let digits = Array("0123456789abcdef".utf8)
        return "timeline-" + String(decoding: (0 ..< 32).map { _ in digits[Int.random(in: 0 ..< 16)] }, as: UTF8.self)
    }

    /// Whether `needle` occurs in `haystack`: a plain scan, linear in practice (the boundary's
    /// first bytes rarely repeat).
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= haystack.count else { return false }
        let first = needle[0]
        var index = 0
        while index <= haystack.count - needle.count {
            if haystack[index] == first, haystack[index ..< index + needle.count].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
