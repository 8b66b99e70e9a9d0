/// A feed an HTML page names.
public struct DiscoveredFeed: Sendable, Hashable {
    /// The feed's absolute address.
    public var url: String
    /// The format its `type` announces (RSS announces 1.0 and 2.0 alike: ``FeedFormat/rss2``).
    public var format: FeedFormat
    /// The `title` the page gives the link, if any.
    public var title: String?

    /// A feed named by a page.
    public init(url: String, format: FeedFormat, title: String? = nil) {
        self.url = url
        self.format = format
        self.title = title
    }

    /// The format of a link's media type: `application/rss+xml` (and `application/rdf+xml`,
    /// which RSS 1.0 feeds announce), `application/atom+xml`, `application/feed+json`. Plain
    /// `application/json` is not taken: pages link JSON APIs as alternates too.
    static func format(ofMediaType type: String) -> FeedFormat? {
        let bare = type.split(separator: ";").first.map { String($0).trimmingXMLSpace() } ?? type
        return switch bare {
        case "application/rss+xml", "application/rdf+xml": .rss2
        case "application/atom+xml": .atom
        case "application/feed+json": .jsonFeed
        default: nil
        }
    }
}
