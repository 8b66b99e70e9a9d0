import TimelineKit

/// Titles as plain text on one line: markup removed and character references decoded (issue 35:
/// "titles are plain text with HTML and character references decoded"), runs of white space one space.
enum PlainTitle {
    /// The title of `raw`, read as HTML when `isHTML` says so, or when it is `nil` (RSS, whose
    /// titles are plain text by the spec and escaped HTML in practice) and `raw` looks like HTML:
    /// a closing tag, a `<br>` or a character reference. "AT&T" or "a < b" stay as written.
    static func text(_ raw: String, isHTML: Bool? = nil) -> String? {
        let html = isHTML ?? looksLikeHTML(raw)
        let text = html ? MastodonHTML.plainText(raw) : raw
        var result = ""
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.unicodeScalars.append(" ") }
                pendingSpace = false
                result.unicodeScalars.append(scalar)
            }
        }
        return result.isEmpty ? nil : result
    }

    static func looksLikeHTML(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        for index in bytes.indices {
            switch bytes[index] {
            case UInt8(ascii: "<"):
                let next = bytes[(index + 1)...].prefix(3).map { $0 | 0x20 }
                if next.first == UInt8(ascii: "/") || next.starts(with: Array("br".utf8)) || next.starts(with: Array("p>".utf8)) {
                    return true
                }
            case UInt8(ascii: "&"):
                var end = index + 1
                if end < bytes.count, bytes[end] == UInt8(ascii: "#") { end += 1 }
                let nameStart = end
                while end < bytes.count, end - nameStart < 32,
                      (bytes[end] | 0x20) >= UInt8(ascii: "a") && (bytes[end] | 0x20) <= UInt8(ascii: "z")
                      || bytes[end] >= UInt8(ascii: "0") && bytes[end] <= UInt8(ascii: "9") { end += 1 }
                if end > nameStart, end < bytes.count, bytes[end] == UInt8(ascii: ";") { return true }
            default:
                continue
            }
        }
        return false
    }
}
