/// The namespaces the feed formats are written in, and the prefixes feeds use for them.
enum XMLNamespace {
    static let xml = "http://www.w3.org/XML/1998/namespace"
    static let xmlns = "http://www.w3.org/2000/xmlns/"
    static let atom = "http://www.w3.org/2005/Atom"
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let rss1 = "http://purl.org/rss/1.0/"
    static let dublinCore = "http://purl.org/dc/elements/1.1/"
    static let content = "http://purl.org/rss/1.0/modules/content/"
    static let syndication = "http://purl.org/rss/1.0/modules/syndication/"
    static let xhtml = "http://www.w3.org/1999/xhtml"
    static let media = "http://search.yahoo.com/mrss/"
    static let itunes = "http://www.itunes.com/dtds/podcast-1.0.dtd"

    /// Namespaces for prefixes a document uses without declaring them. Such a document is not
    /// namespace-well-formed, but real feeds write `dc:creator` or `content:encoded` with no
    /// `xmlns:dc`, and every reader (feedparser, NetNewsWire) takes them to mean the usual thing.
    static let conventionalPrefixes: [String: String] = [
        "xml": xml, "atom": atom, "rdf": rdf, "dc": dublinCore, "content": content,
        "sy": syndication, "media": media, "itunes": itunes,
    ]
}
