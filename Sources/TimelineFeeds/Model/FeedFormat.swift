/// The formats ``FeedParser`` reads.
public enum FeedFormat: String, Sendable, Hashable, CaseIterable {
    /// RSS 2.0 (and 0.9x, which it extends): `<rss><channel><item>`.
    case rss2 = "RSS 2.0"
    /// RSS 1.0, RDF: `<rdf:RDF><channel/><item rdf:about>`.
    case rss1 = "RSS 1.0"
    /// Atom 1.0 (RFC 4287): `<feed xmlns="http://www.w3.org/2005/Atom"><entry>`.
    case atom = "Atom 1.0"
    /// JSON Feed 1.0 or 1.1 (jsonfeed.org).
    case jsonFeed = "JSON Feed"
}
