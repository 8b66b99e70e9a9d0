#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Atom 1.0 (RFC 4287). Every address is resolved against the `xml:base` in scope where it is
/// written (section 2: `xml:base` on any element), then the feed's URL. An entry without an
/// author has the feed's (section 4.2.1).
///
/// Atom 0.3, its draft, is read too: some old blogs still serve it. It differs in its namespace,
/// its dates (`issued`, `modified`) and its texts (`mode="escaped"` for HTML, `"xml"` for XHTML).
enum AtomParser {
    static let namespace03 = "http://purl.org/atom/ns#"

    static func parse(_ root: XMLElement, url: String?) -> ParsedFeed {
        let atom = root.namespace
        let base = FeedURL.base(of: root, within: url)
        var feed = ParsedFeed(format: .atom)
        feed.title = root.child("title", in: atom).flatMap(title)
        feed.homeURL = link(in: root, atom, rel: "alternate", base: base)
        feed.feedURL = link(in: root, atom, rel: "self", base: base)
        let feedAuthors = authors(in: root, atom, base: base)
        feed.items = root.children("entry", in: atom).map { entry(from: $0, in: atom, base: base, feedAuthors: feedAuthors) }
        return feed
    }

    private static func entry(from element: XMLElement, in atom: String, base parentBase: String?, feedAuthors: [FeedAuthor]) -> FeedItem {
        let base = FeedURL.base(of: element, within: parentBase)
        let link = link(in: element, atom, rel: "alternate", base: base)
        let title = element.child("title", in: atom).flatMap(title)
        let summary = element.child("summary", in: atom).flatMap(text)
        let content = element.child("content", in: atom).flatMap(text)
        let published = (element.child("published", in: atom) ?? element.child("issued", in: atom)).flatMap { FeedDate.parse($0.text) }
        let updated = (element.child("updated", in: atom) ?? element.child("modified", in: atom)).flatMap { FeedDate.parse($0.text) }
        let own = authors(in: element, atom, base: base)
        let id = element.child("id", in: atom)?.trimmedText ?? link ?? FeedItemID.hash([
            title ?? "", summary?.source ?? "", content?.source ?? "",
            (published ?? updated).map { "\($0.timeIntervalSince1970)" } ?? "",
        ])
        return FeedItem(id: id, title: title, link: link, summary: summary, content: content,
                        published: published, updated: updated, authors: own.isEmpty ? feedAuthors : own)
    }

    /// The `href` of the first `link` with relation `rel` (no `rel` means `alternate`), an HTML
    /// one preferred among alternates (an entry may link its PDF or its translation first).
    private static func link(in element: XMLElement, _ atom: String, rel: String, base: String?) -> String? {
        let links = element.children("link", in: atom).filter { ($0.attribute("rel") ?? "alternate") == rel }
        let chosen = links.first { ["text/html", "application/xhtml+xml"].contains($0.attribute("type")?.lowercased()) } ?? links.first
        guard let chosen, let href = chosen.attribute("href") else { return nil }
        return FeedURL.resolve(href, against: FeedURL.base(of: chosen, within: base))
    }

    private static func authors(in element: XMLElement, _ atom: String, base: String?) -> [FeedAuthor] {
        element.children("author", in: atom).compactMap { author in
            let found = FeedAuthor(
                name: author.child("name", in: atom)?.trimmedText,
                url: (author.child("uri", in: atom) ?? author.child("url", in: atom))?.trimmedText.flatMap { FeedURL.resolve($0, against: FeedURL.base(of: author, within: base)) },
                email: author.child("email", in: atom)?.trimmedText
            )
            return found.displayName == nil ? nil : found
        }
    }

    /// A text construct (section 3.1) as a title: plain, on one line.
    private static func title(_ element: XMLElement) -> String? {
        switch kind(of: element) {
        case .text: PlainTitle.text(element.text, isHTML: false)
        case .html: PlainTitle.text(element.text, isHTML: true)
        case .xhtml: PlainTitle.text(xhtml(element), isHTML: true)
        }
    }

    /// A text construct, or a `content` (section 4.1.3), as a `FeedText`. A `content` with
    /// `src` (the text is elsewhere) or in base64 (Atom 0.3) has nothing to show here.
    private static func text(_ element: XMLElement) -> FeedText? {
        guard element.attribute("src") == nil, element.attribute("mode")?.lowercased() != "base64" else { return nil }
        switch kind(of: element) {
        case .text: return element.trimmedText.map(FeedText.plain)
        case .html: return element.trimmedText.map(FeedText.html)
        case .xhtml:
            let markup = xhtml(element).trimmingXMLSpace()
            return markup.isEmpty ? nil : .html(markup)
        }
    }

    private enum Kind { case text, html, xhtml }

    /// `type` is `text` (the default), `html` or `xhtml`; `content` may also give a media type,
    /// where HTML and XML types are markup and other `text/` types plain text. In Atom 0.3 a
    /// media type with `mode="escaped"` is escaped markup, and `mode="xml"` is inline XHTML.
    private static func kind(of element: XMLElement) -> Kind {
        let type = element.attribute("type")?.lowercased() ?? "text"
        switch element.attribute("mode")?.lowercased() {
        case "xml": return .xhtml
        case "escaped" where type.contains("html"): return .html
        default: break
        }
        switch type {
        case "html", "text/html": return .html
        case "xhtml", "application/xhtml+xml": return .xhtml
        default: return .text
        }
    }

    /// An XHTML construct's markup: what its `div` (section 3.1.1.3) holds, written back as HTML.
    private static func xhtml(_ element: XMLElement) -> String {
        let div = element.elements.first { $0.name == "div" && $0.namespace == XMLNamespace.xhtml }
        return (div ?? element).innerMarkup
    }
}
