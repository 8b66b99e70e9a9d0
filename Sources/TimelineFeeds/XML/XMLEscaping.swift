/// Text made safe to place between tags or inside a quoted attribute of XML or HTML: the one
/// escaping that the OPML writer and the XHTML serialiser share.
enum XMLEscaping {
    /// `text` with `&`, `<` and `>` (and `"` when `quotes`) as character references.
    static func escaped(_ text: String, quotes: Bool = false) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "\"") })
        else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where quotes: result += "&quot;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
