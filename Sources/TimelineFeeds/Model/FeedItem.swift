#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif


/// One item (RSS), entry (Atom) or item (JSON Feed) of a feed.
public struct FeedItem: Sendable, Hashable {
    /// An ID that stays the same each time the item is fetched: the item's `guid` (RSS), `id`
    /// (Atom, JSON Feed) or `rdf:about` (RSS 1.0); else its link; else a hash of its title,
    /// content and dates, the same at every fetch. Unique within one feed only: ``FeedMessages``
    /// namespaces it by subscription.
    public var id: String
    /// The title as plain text (markup and character references decoded, white space runs
    /// made one space), `nil` when there is none.
    public var title: String?
    /// The item's web page, absolute (resolved against `xml:base` and the feed's URL).
    public var link: String?
    /// The short form: RSS `description`, Atom `summary`, JSON Feed `summary`.
    public var summary: FeedText?
    /// The full form: RSS `content:encoded`, Atom `content`, JSON Feed `content_html` or `content_text`.
    public var content: FeedText?
    /// When it was first published: RSS `pubDate` (or `dc:date`), Atom `published`, JSON Feed `date_published`.
    public var published: Date?
    /// When it last changed: Atom `updated`, JSON Feed `date_modified`, RSS `atom:updated` or `dc:modified`.
    public var updated: Date?
    /// Its authors, in order; empty when the item names none (the feed's may apply).
    public var authors: [FeedAuthor]

    /// An item with the given fields.
    public init(id: String, title: String? = nil, link: String? = nil, summary: FeedText? = nil, content: FeedText? = nil,
                published: Date? = nil, updated: Date? = nil, authors: [FeedAuthor] = []) {
        self.id = id
        self.title = title
        self.link = link
        self.summary = summary
        self.content = content
        self.published = published
        self.updated = updated
        self.authors = authors
    }
}
