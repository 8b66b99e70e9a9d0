/// The links of an HTTP response's `Link` header fields, read as RFC 8288 (Web Linking) says.
///
/// Mastodon pages its timelines this way:
///
/// ```
/// Link: <https://mastodon.social/api/v1/timelines/home?max_id=111>; rel="next",
///       <https://mastodon.social/api/v1/timelines/home?min_id=222>; rel="prev"
/// ```
///
/// ```swift
/// let links = LinkHeader(fields: response.headers(named: "Link"), base: requestURL)
/// if let next = links.first(relation: "next") { print(next.target) }
/// ```
///
/// The parser takes the grammar as written, not only the shape Mastodon happens to send:
/// several fields (each a comma-separated list), commas and semicolons inside `<…>` and inside
/// quoted strings, quoted strings with backslash escapes, optional whitespace anywhere the
/// grammar allows it, parameters without a value, relation types compared without regard to
/// case, several relation types in one `rel` (`rel="next last"`), and a repeated `rel` of which
/// only the first counts (RFC 8288 §3.3). A link whose target is not in `<…>` is skipped up to
/// the next comma outside quotes, so one malformed link does not hide the others. Relative
/// targets are resolved against `base` (RFC 3986 §5.2, without dot-segment removal, which no
/// server's pagination needs).
public struct LinkHeader: Sendable, Hashable {
    /// The links in the order they appear, fields in order.
    public var links: [WebLink]

    /// Parses the values of every `Link` field of a response (`HTTPResponse.headers(named:)`).
    /// `base` is the URL the response answered, against which relative targets are resolved.
    public init(fields: [String], base: String? = nil) {
        links = fields.flatMap { Self.parse(field: Array($0.utf8), base: base) }
    }

    /// The first link with relation type `relation` (compared case-insensitively).
    public func first(relation: String) -> WebLink? {
        links.first { $0.has(relation: relation) }
    }

    // MARK: Parsing

    private static func parse(field bytes: [UInt8], base: String?) -> [WebLink] {
        var links: [WebLink] = []
        var index = 0
        while index < bytes.count {
            skip(whitespaceAndCommasIn: bytes, at: &index)
            guard index < bytes.count else { break }
            if let link = parseLink(bytes, at: &index, base: base) {
                links.append(link)
            } else {
                skipToNextLink(bytes, at: &index)
            }
        }
        return links
    }

    /// One `link-value`: `<target>` and its parameters, up to (not past) the comma that ends it.
    /// `nil` when it is malformed.
    private static func parseLink(_ bytes: [UInt8], at index: inout Int, base: String?) -> WebLink? {
        guard bytes[index] == UInt8(ascii: "<") else { return nil }
        guard let close = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let reference = String(decoding: bytes[(index + 1) ..< close], as: UTF8.self)
        index = close + 1
        var parameters: [WebLink.Parameter] = []
        while true {
            skip(whitespaceIn: bytes, at: &index)
            guard index < bytes.count, bytes[index] != UInt8(ascii: ",") else { break }
            guard bytes[index] == UInt8(ascii: ";") else { return nil }
            index += 1
            skip(whitespaceIn: bytes, at: &index)
            let name = token(bytes, at: &index)
            guard !name.isEmpty else {
                // `;` followed by nothing (a trailing `;`, or `;,`) is tolerated; anything else is not.
                if index >= bytes.count || bytes[index] == UInt8(ascii: ",") || bytes[index] == UInt8(ascii: ";") { continue }
                return nil
            }
            skip(whitespaceIn: bytes, at: &index)
            var value: String?
            if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
                index += 1
                skip(whitespaceIn: bytes, at: &index)
                if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                    guard let quoted = quotedString(bytes, at: &index) else { return nil }
                    value = quoted
                } else {
                    value = token(bytes, at: &index)
                }
            }
            parameters.append(WebLink.Parameter(name: name.lowercased(), value: value))
        }
        let relations = parameters.first { $0.name == "rel" }?.value.map(Self.relationTypes) ?? []
        return WebLink(target: Self.resolve(reference, against: base), relations: relations, parameters: parameters)
    }

    /// `rel`'s value: relation types separated by spaces, lowercased (they compare without case).
    private static func relationTypes(_ value: String) -> [String] {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { $0.lowercased() }
    }

    /// RFC 9110's `token`: visible ASCII except delimiters.
    private static func token(_ bytes: [UInt8], at index: inout Int) -> String {
        let start = index
        while index < bytes.count, isTokenCharacter(bytes[index]) { index += 1 }
        return String(decoding: bytes[start ..< index], as: UTF8.self)
    }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
             UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z"))
        }
    }

    /// A quoted string starting at `index` (on its opening quote), unescaped; `nil` when it is
    /// not closed.
    private static func quotedString(_ bytes: [UInt8], at index: inout Int) -> String? {
        var value: [UInt8] = []
        var position = index + 1
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                index = position + 1
                return String(decoding: value, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\"), position + 1 < bytes.count {
                position += 1
            }
            value.append(bytes[position])
            position += 1
        }
        return nil
    }

    private static func skip(whitespaceIn bytes: [UInt8], at index: inout Int) {
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
    }

    private static func skip(whitespaceAndCommasIn bytes: [UInt8], at index: inout Int) {
        while index < bytes.count,
              bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") || bytes[index] == UInt8(ascii: ",") {
            index += 1
        }
    }

    /// Past the comma that ends a malformed link, minding `<…>` and quoted strings, which may
    /// hold commas.
    private static func skipToNextLink(_ bytes: [UInt8], at index: inout Int) {
        var inQuotes = false
        var inTarget = false
        while index < bytes.count {
            let byte = bytes[index]
            if inQuotes {
                if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") { inQuotes = false }
            } else if inTarget {
                if byte == UInt8(ascii: ">") { inTarget = false }
            } else if byte == UInt8(ascii: "\"") {
                inQuotes = true
            } else if byte == UInt8(ascii: "<") {
                inTarget = true
            } else if byte == UInt8(ascii: ",") {
                index += 1
                return
            }
            index += 1
        }
    }

    /// `reference` resolved against `base` (``URLReference/resolve(_:against:)``).
    static func resolve(_ reference: String, against base: String?) -> String {
        URLReference.resolve(reference, against: base)
    }
}

/// One link of a `Link` header: a target URL and what it is to the response (its relation types).
public struct WebLink: Sendable, Hashable {
    /// One `; name=value` parameter of a link. The name is lowercased; `value` is `nil` for a
    /// parameter written without `=`.
    public struct Parameter: Sendable, Hashable {
        public var name: String
        public var value: String?
    }

    /// The target URL, resolved against the response's URL when it was relative.
    public var target: String
    /// The relation types of the first `rel` parameter, lowercased (`["next"]`, `["next", "last"]`).
    public var relations: [String]
    /// Every parameter, in order.
    public var parameters: [Parameter]

    /// Whether `relation` is among the link's relation types, compared case-insensitively.
    public func has(relation: String) -> Bool {
        relations.contains(relation.lowercased())
    }
}
