/// A URL reference resolved against the address it was found at (RFC 3986 §5.2.2, with the
/// base's dot segments kept): a `Link` header's target, a redirect's `Location`, a page's
/// `og:image`. Shared by the networks, so none reads another's.
enum URLReference {
    /// `reference` resolved against `base` (RFC 3986 §5.2.2, with the base's dot segments kept).
    static func resolve(_ reference: String, against base: String?) -> String {
        guard let base, !hasScheme(reference) else { return reference }
        guard let schemeEnd = base.firstRange(of: "://") else { return reference }
        let scheme = base[..<schemeEnd.lowerBound]
        if reference.hasPrefix("//") { return scheme + ":" + reference }
        let afterScheme = base[schemeEnd.upperBound...]
        let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterScheme.endIndex
        let origin = base[..<authorityEnd]
        let pathAndQuery = afterScheme[authorityEnd...].prefix { $0 != "#" }
        let path = pathAndQuery.prefix { $0 != "?" }
        if reference.isEmpty { return String(origin + pathAndQuery) }
        if reference.hasPrefix("/") { return String(origin) + reference }
        if reference.hasPrefix("?") { return String(origin + path) + reference }
        if reference.hasPrefix("#") { return String(origin + pathAndQuery) + reference }
        let directory = path.lastIndex(of: "/").map { path[...$0] } ?? "/"
        return String(origin + directory) + reference
    }

    /// Whether `reference` starts with `scheme:` (RFC 3986 §3.1), i.e. is absolute.
    private static func hasScheme(_ reference: String) -> Bool {
        guard let colon = reference.firstIndex(of: ":") else { return false }
        let scheme = reference[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
    }
}
