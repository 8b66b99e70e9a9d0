/// What a document is, from its first bytes: what the parser to hand it to is decided by.
enum DocumentSniffer {
    enum Kind { case xml, json, html }

    /// JSON when the first character (after a byte order mark and white space) is `{` or `[`;
    /// HTML when it is `<!doctype html` or `<html` (any case), which is seldom well-formed XML
    /// and would otherwise be reported as broken XML instead of as a page; XML otherwise
    /// (UTF-16 documents included: expat reads their byte order mark).
    static func kind(of bytes: [UInt8]) -> Kind {
        var index = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        guard index < bytes.count else { return .xml }
        if bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "[") { return .json }
        // Comments before the root are common in pages; a few are skipped, boundedly.
        var start = index
        for _ in 0 ..< 8 {
            guard let next = afterComment(bytes, at: start) else { break }
            start = next
        }
        let head = bytes[start ..< min(bytes.count, start + 14)].map { $0 | (($0 >= 65 && $0 <= 90) ? 0x20 : 0) }
        if head.starts(with: Array("<!doctype html".utf8)) || head.starts(with: Array("<html".utf8)) { return .html }
        return .xml
    }

    /// The index after `<!-- … -->` and the white space after it, when a comment starts at `index`.
    private static func afterComment(_ bytes: [UInt8], at index: Int) -> Int? {
        guard bytes[index...].starts(with: Array("<!--".utf8)) else { return nil }
        var end = index + 4
        while end + 2 < bytes.count {
            if bytes[end] == UInt8(ascii: "-"), bytes[end + 1] == UInt8(ascii: "-"), bytes[end + 2] == UInt8(ascii: ">") {
                end += 3
                while end < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[end]) { end += 1 }
                return end < bytes.count ? end : nil
            }
            end += 1
        }
        return nil
    }
}
