/// What a web page's head says of it for a link card (issue 36): its `<title>`, its OpenGraph
/// `og:title`, `og:description` and `og:image`, and its `<meta name="description">`, read by one
/// bounded forward pass over the page's bytes.
///
/// It is no HTML parser: it reads tags from the start to `</head>` or `<body>` (or the end),
/// skipping comments, scripts and styles, and each step moves forward, so no input costs more
/// than one pass over at most ``byteLimit`` bytes (nothing is searched again after a failed
/// search: an unclosed comment or title ends the scan). Values are decoded
/// (``HTMLEntities``), their white space runs made one space, and cut to ``valueLimit``
/// characters; they are still untrusted text, to neutralise before a terminal shows them.
public struct HTMLHeadScanner: Sendable, Hashable {
    /// The `<title>` element's text.
    public var title: String?
    /// `og:title`.
    public var openGraphTitle: String?
    /// `og:description`.
    public var openGraphDescription: String?
    /// `<meta name="description">`.
    public var description: String?
    /// `og:image`, as written (maybe relative to the page).
    public var openGraphImage: String?

    /// The most bytes read: a page's head is far shorter, and a page that is all head is cut.
    public static let byteLimit = 1 << 20
    /// The longest value kept, in characters (a title, a description, an address).
    public static let valueLimit = 2_000

    /// The title a card shows: `og:title` before `<title>`.
    public var cardTitle: String? { openGraphTitle ?? title }
    /// The description a card shows: `og:description` before `description`.
    public var cardDescription: String? { openGraphDescription ?? description }

    /// Scans `page` (its first ``byteLimit`` bytes).
    public init(page: [UInt8]) {
        let bytes = page.prefix(Self.byteLimit)
        var index = bytes.startIndex
        let end = bytes.endIndex
        func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
        /// The index after the first `needle` (ASCII, lower case) at or after `start`, any case.
        func find(_ needle: [UInt8], from start: Int) -> Int? {
            guard !needle.isEmpty, end - start >= needle.count else { return nil }
            var position = start
            while position + needle.count <= end {
                if lower(bytes[position]) == needle[0] {
                    var matched = 1
                    while matched < needle.count, lower(bytes[position + matched]) == needle[matched] { matched += 1 }
                    if matched == needle.count { return position + needle.count }
                }
                position += 1
            }
            return nil
        }
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C }
        func isNameByte(_ byte: UInt8) -> Bool { !isSpace(byte) && byte != UInt8(ascii: ">") && byte != UInt8(ascii: "/") && byte != UInt8(ascii: "=") }

        while index < end {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            // A comment: to its end, or the scan ends.
            if index + 3 < end, bytes[index + 1] == UInt8(ascii: "!"), bytes[index + 2] == UInt8(ascii: "-"), bytes[index + 3] == UInt8(ascii: "-") {
                guard let after = find(Array("-->".utf8), from: index + 4) else { break }
                index = after
                continue
            }
            var cursor = index + 1
            let closing = cursor < end && bytes[cursor] == UInt8(ascii: "/")
            if closing { cursor += 1 }
            let nameStart = cursor
            while cursor < end, isNameByte(bytes[cursor]), cursor - nameStart < 16 { cursor += 1 }
            let name = bytes[nameStart ..< cursor].map(lower)
            if closing, name == Array("head".utf8) { break }
            if !closing, name == Array("body".utf8) { break }
            // Attributes, to the tag's end (a quoted `>` does not end it).
            var attributes: [(name: [UInt8], value: [UInt8])] = []
            while cursor < end, bytes[cursor] != UInt8(ascii: ">") {
                if isSpace(bytes[cursor]) || bytes[cursor] == UInt8(ascii: "/") {
                    cursor += 1
                    continue
                }
                let attributeStart = cursor
                while cursor < end, isNameByte(bytes[cursor]) { cursor += 1 }
                let attributeName = bytes[attributeStart ..< cursor].map(lower)
                var value: [UInt8] = []
                while cursor < end, isSpace(bytes[cursor]) { cursor += 1 }
                if cursor < end, bytes[cursor] == UInt8(ascii: "=") {
                    cursor += 1
                    while cursor < end, isSpace(bytes[cursor]) { cursor += 1 }
                    if cursor < end, bytes[cursor] == UInt8(ascii: "\"") || bytes[cursor] == UInt8(ascii: "'") {
                        let quote = bytes[cursor]
                        let valueStart = cursor + 1
                        cursor = valueStart
                        while cursor < end, bytes[cursor] != quote { cursor += 1 }
                        value = Array(bytes[valueStart ..< cursor])
                        if cursor < end { cursor += 1 }
                    } else {
                        let valueStart = cursor
                        while cursor < end, !isSpace(bytes[cursor]), bytes[cursor] != UInt8(ascii: ">") { cursor += 1 }
                        value = Array(bytes[valueStart ..< cursor])
                    }
                }
                if attributeName.isEmpty, cursor == attributeStart { cursor += 1 }
                // Only a meta tag's attributes are kept, and a few of them.
                if name == Array("meta".utf8), attributes.count < 8 { attributes.append((attributeName, value)) }
            }
            index = min(cursor + 1, end)
            if closing { continue }
            switch String(decoding: name, as: UTF8.self) {
            case "title":
                guard let after = find(Array("</title".utf8), from: index) else { index = end; break }
                if title == nil { title = Self.text(Array(bytes[index ..< after - 7])) }
                index = after
            case "script", "style":
                guard let after = find(Array("</\(String(decoding: name, as: UTF8.self))".utf8), from: index) else { index = end; break }
                index = after
            case "meta":
                let key = attributes.first { $0.name == Array("property".utf8) || $0.name == Array("name".utf8) }
                    .map { String(decoding: $0.value.map(lower), as: UTF8.self) }
                guard let key, let content = attributes.first(where: { $0.name == Array("content".utf8) })?.value else { break }
                switch key {
                case "og:title": if openGraphTitle == nil { openGraphTitle = Self.text(content) }
                case "og:description": if openGraphDescription == nil { openGraphDescription = Self.text(content) }
                case "description": if description == nil { description = Self.text(content) }
                case "og:image", "og:image:url", "og:image:secure_url": if openGraphImage == nil { openGraphImage = Self.text(content) }
                default: break
                }
            default:
                break
            }
        }
    }

    /// `bytes` as text: UTF-8 (invalid bytes replaced), references decoded, white space runs one
    /// space, ends trimmed, at most ``valueLimit`` characters; `nil` when nothing is left.
    static func text(_ bytes: [UInt8]) -> String? {
        let raw = String(decoding: bytes.prefix(Self.valueLimit * 4), as: UTF8.self)
        let decoded = HTMLEntities.decode(raw)
        let words = decoded.split(whereSeparator: { $0.isWhitespace })
        let joined = words.joined(separator: " ")
        let cut = String(joined.prefix(Self.valueLimit))
        return cut.isEmpty ? nil : cut
    }
}
