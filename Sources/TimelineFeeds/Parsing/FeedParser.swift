/// Reads a feed document (RSS 2.0, RSS 1.0, Atom 1.0, JSON Feed 1.0 or 1.1) into a
/// ``ParsedFeed``: the one entry point, which decides the format from the content, never from a
/// file name or a `Content-Type` (servers label feeds `text/html`, `application/octet-stream`…).
///
/// ```swift
/// do throws(FeedError) {
///     let feed = try FeedParser.parse(body, url: "https://example.com/feed")
/// } catch let error where error.problem.isHTMLPage {
///     // A page, not a feed: look for the feed it names (FeedDiscovery).
/// }
/// ```
///
/// Time and memory are bounded by `limits` whatever the bytes hold (see ``FeedLimits``).
public enum FeedParser {
    /// The feed in `bytes`, fetched from `url` (relative links are made absolute against it;
    /// `nil` keeps only the absolute ones).
    ///
    /// - Throws: ``FeedError``: ``FeedError/Problem/notAFeed(found:)`` for an HTML page or any other
    ///   document, otherwise the XML or JSON problem and where it is.
    public static func parse(_ bytes: [UInt8], url: String?, limits: FeedLimits = FeedLimits()) throws(FeedError) -> ParsedFeed {
        guard bytes.count <= limits.maximumBytes else {
            throw FeedError(.tooLarge(bytes: bytes.count, limit: limits.maximumBytes))
        }
        switch DocumentSniffer.kind(of: bytes) {
        case .json:
            return try JSONFeedParser.parse(bytes, url: url)
        case .html:
            throw FeedError(.notAFeed(found: FeedError.Problem.htmlPage))
        case .xml:
            let root = try ExpatReader.read(bytes, limits: limits)
            switch (root.namespace, root.name) {
            // `rss` in any namespace: a few feeds put RSS 2.0 in UserLand's (`http://backend.userland.com/rss2`).
            case (_, "rss"), (XMLNamespace.rdf, "RDF"):
                return RSSParser.parse(root, url: url)
            case (XMLNamespace.atom, "feed"), (AtomParser.namespace03, "feed"):
                return AtomParser.parse(root, url: url)
            case (_, "html"):
                throw FeedError(.notAFeed(found: FeedError.Problem.htmlPage), line: root.line)
            default:
                let name = root.namespace.isEmpty ? root.name : "\(root.name) in \(root.namespace)"
                throw FeedError(.notAFeed(found: "an XML document whose root is <\(name)>"), line: root.line)
            }
        }
    }
}

extension FeedError.Problem {
    /// What ``FeedError/Problem/notAFeed(found:)`` says of an HTML page.
    static let htmlPage = "an HTML page"

    /// Whether the document was an HTML page: the case where a subscriber looks for the feed the
    /// page names (``FeedDiscovery``).
    public var isHTMLPage: Bool { self == .notAFeed(found: Self.htmlPage) }
}
