/// Turns a Bluesky post's text and its facets into the text a terminal shows.
///
/// A post's text carries no markup: links, mentions and hashtags are *facets*, byte ranges of
/// the UTF-8 text with a feature each (`app.bsky.richtext.facet#link` with its `uri`, `#mention`
/// with a DID, `#tag`). Clients write a long link shortened (`example.com/a-long-pa...`) and put
/// the whole URL in the facet only, so a terminal that printed the text would print a link that
/// leads nowhere. Here a link's range becomes its full URL; link text that is not a shortening
/// of the URL (a custom label) is kept, with the URL after it in parentheses. Mentions and tags
/// already read `@handle` and `#tag` in the text and stay as written.
///
/// Facets come from a stranger's record: a range out of the text, inside a character's UTF-8
/// bytes, backwards, or overlapping an earlier one is ignored, never trusted, and the work is
/// linear in the text plus the facets (sorted once).
enum BlueskyFacets {
    /// A link facet: the byte range of the text it covers and the URL it stands for.
    struct Link: Equatable {
        var start: Int
        var end: Int
        var uri: String
    }

    /// `text` with every usable link facet written out in full.
    static func expanding(_ text: String, links: [Link]) -> String {
        guard !links.isEmpty else { return text }
        let bytes = Array(text.utf8)
        func isBoundary(_ offset: Int) -> Bool {
            offset == bytes.count || (offset >= 0 && offset < bytes.count && bytes[offset] & 0xC0 != 0x80)
        }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var copied = 0
        for link in links.sorted(by: { $0.start < $1.start }) {
            guard link.start >= copied, link.start < link.end, link.end <= bytes.count,
                  isBoundary(link.start), isBoundary(link.end), !link.uri.isEmpty else { continue }
            result += bytes[copied..<link.start]
            let shown = String(decoding: bytes[link.start..<link.end], as: UTF8.self)
            if isShortening(shown, of: link.uri) {
                result += link.uri.utf8
            } else {
                result += shown.utf8
                result += " (".utf8
                result += link.uri.utf8
                result += ")".utf8
            }
            copied = link.end
        }
        result += bytes[copied...]
        return String(decoding: result, as: UTF8.self)
    }

    /// Whether `shown` is how clients write `uri`: the URL itself, or it without its scheme (and
    /// `www.`), whole or cut after its host name and ended with `...` or `…`. A label that is
    /// only the start of a host (`docs` for `https://docs.example`) is a label.
    static func isShortening(_ shown: String, of uri: String) -> Bool {
        if shown == uri { return true }
        var rest = Substring(uri)
        for scheme in ["https://", "http://"] where rest.hasPrefix(scheme) {
            rest = rest.dropFirst(scheme.count)
        }
        if rest.hasPrefix("www.") && !shown.hasPrefix("www.") { rest = rest.dropFirst(4) }
        var core = Substring(shown)
        var isCut = false
        if core.hasSuffix("...") {
            core = core.dropLast(3)
            isCut = true
        } else if core.hasSuffix("…") {
            core = core.dropLast()
            isCut = true
        }
        if !isCut { return core == rest || core + "/" == rest }
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return core.count >= host.count && rest.hasPrefix(core)
    }
}
