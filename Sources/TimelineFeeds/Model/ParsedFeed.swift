#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A feed as read from one document, whatever its format: the neutral value the source stores
/// from (``FeedMessages``) and shows (`subscribe` says the title and the count of items).
///
/// ```swift
/// let feed = try FeedParser.parse(bytes, url: "https://example.com/feed.xml")
/// print(feed.title ?? "untitled", feed.items.count)
/// ```
public struct ParsedFeed: Sendable, Hashable {
    /// Which format the document was.
    public var format: FeedFormat
    /// The feed's title as plain text (markup and character references decoded), `nil` when
    /// the feed has none or an empty one.
    public var title: String?
    /// The site the feed belongs to (RSS `link`, Atom `link rel="alternate"`, JSON Feed
    /// `home_page_url`), absolute.
    public var homeURL: String?
    /// The feed's own address as it states it (Atom `link rel="self"`, JSON Feed `feed_url`), absolute.
    public var feedURL: String?
    /// How long the publisher says a copy stays fresh: RSS `ttl` (minutes), or
    /// `sy:updatePeriod` and `sy:updateFrequency`; `nil` when it does not say. A fetcher waits
    /// at least this long between fetches.
    public var refreshInterval: Duration?
    /// The items in document order.
    public var items: [FeedItem]

    /// A feed with the given fields (the parsers make these; tests and other sources may too).
    public init(format: FeedFormat, title: String? = nil, homeURL: String? = nil, feedURL: String? = nil,
                refreshInterval: Duration? = nil, items: [FeedItem] = []) {
        self.format = format
        self.title = title
        self.homeURL = homeURL
        self.feedURL = feedURL
        self.refreshInterval = refreshInterval
        self.items = items
    }
}
