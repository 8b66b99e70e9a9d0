import TimelineKit

/// The feeds an HTML page names in its `<link rel="alternate" type="…" href="…">` elements
/// (the RSS autodiscovery convention), with relative addresses made absolute against the page's
/// `<base href>`, else its URL.
///
/// Not an HTML parser: it scans the first ``maximumScannedBytes`` of the page for `<link` and
/// `<base` tags (any case), skipping comments, and reads their attributes quoted with `"` or `'`
/// or unquoted, character references decoded. Time is linear in the bytes scanned.
///
/// ```swift
/// let feeds = FeedDiscovery.feeds(inPage: body, url: "https://example.com/blog/")
/// // [DiscoveredFeed(url: "https://example.com/blog/feed.xml", format: .rss2, title: "Blog")]
/// ```
public enum FeedDiscovery {
    /// How much of a page is scanned: a page's `<head>` is seldom past its first 100 KB.
    public static let maximumScannedBytes = 1 << 20

    /// The feeds `page` names, in the order it names them, each address once.
    public static func feeds(inPage page: [UInt8], url: String) -> [DiscoveredFeed] {
        let bytes = Array(page.prefix(maximumScannedBytes))
        var base = url
        var found: [DiscoveredFeed] = []
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            if bytes[index...].starts(with: Array("<!--".utf8)) {
                index = end(ofComment: bytes, from: index + 4)
                continue
            }
            let name = tagName(bytes, at: index + 1)
            guard name == "link" || name == "base" else {
                index += 1
                continue
            }
            guard let (attributes, next) = Self.attributes(bytes, from: index + 1 + name.utf8.count) else { break }
            index = next
            if name == "base" {
                // The first `<base href>` counts (HTML: "the first base element with an href").
                if base == url, let href = attributes["href"], let resolved = FeedURL.resolve(href, against: url) { base = resolved }
                continue
            }
            let relations = (attributes["rel"] ?? "").lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
            guard relations.contains("alternate"), let type = attributes["type"].map({ $0.lowercased().trimmingXMLSpace() }),
                  let format = DiscoveredFeed.format(ofMediaType: type),
                  let href = attributes["href"], let address = FeedURL.resolve(href, against: base),
                  !found.contains(where: { $0.url == address }) else { continue }
            found.append(DiscoveredFeed(url: address, format: format, title: attributes["title"].flatMap { PlainTitle.text($0, isHTML: false) }))
        }
        return found
    }

    private static func end(ofComment bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index + 2 < bytes.count {
            if bytes[index] == UInt8(ascii: "-"), bytes[index + 1] == UInt8(ascii: "-"), bytes[index + 2] == UInt8(ascii: ">") { return index + 3 }
            index += 1
        }
        return bytes.count
    }

    /// The lowercased tag name at `index`, when a letter starts it; `""` otherwise.
    private static func tagName(_ bytes: [UInt8], at index: Int) -> String {
        var end = index
        while end < bytes.count, end - index < 8, isNameByte(bytes[end]) { end += 1 }
        guard end < bytes.count, !isNameByte(bytes[end]) else { return "" }
        return String(decoding: bytes[index ..< end].map { $0 | 0x20 }, as: UTF8.self)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C }

    /// The attributes of a tag whose name ends at `start` (lowercased names, decoded values,
    /// the first of a repeated name), and the index after its `>`; `nil` when the scanned bytes
    /// end inside the tag (a page cut short names nothing by half a tag).
    private static func attributes(_ bytes: [UInt8], from start: Int) -> ([String: String], Int)? {
        var result: [String: String] = [:]
        var index = start
        while index < bytes.count {
            while index < bytes.count, isSpace(bytes[index]) || bytes[index] == UInt8(ascii: "/") { index += 1 }
            guard index < bytes.count, bytes[index] != UInt8(ascii: ">") else { return (result, index + 1) }
            let nameStart = index
            while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: "="), bytes[index] != UInt8(ascii: ">") { index += 1 }
            let name = String(decoding: bytes[nameStart ..< index], as: UTF8.self).lowercased()
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            var value = ""
            if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
                index += 1
                while index < bytes.count, isSpace(bytes[index]) { index += 1 }
                let valueStart: Int
                if index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                    let quote = bytes[index]
                    valueStart = index + 1
                    index = valueStart
                    while index < bytes.count, bytes[index] != quote { index += 1 }
                    value = String(decoding: bytes[valueStart ..< index], as: UTF8.self)
                    index = min(index + 1, bytes.count)
                } else {
                    valueStart = index
                    while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">") { index += 1 }
                    value = String(decoding: bytes[valueStart ..< index], as: UTF8.self)
                }
            }
            if result[name] == nil { result[name] = HTMLEntities.decode(value) }
        }
        return nil
    }
}
