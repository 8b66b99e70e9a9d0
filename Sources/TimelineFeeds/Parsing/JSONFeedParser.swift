#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

/// JSON Feed 1.0 and 1.1 (https://jsonfeed.org/version/1.1), read with TimelineKit's JSON reader.
///
/// Held to the spec where it says "required" (`version`, `items`); lenient where real feeds
/// differ and the meaning is clear: an item `id` written as a number is read as its digits (the
/// spec asks for a string: "if an id is presented as a number … a JSON Feed reader must coerce
/// it to a string"), 1.0's `author` and 1.1's `authors` are both read, an item without authors
/// has the feed's. Addresses are resolved against the feed's URL.
enum JSONFeedParser {
    static func parse(_ bytes: [UInt8], url: String?) throws(FeedError) -> ParsedFeed {
        let document: JSONNode
        do {
            document = try JSONNode(parsing: bytes)
        } catch {
            throw FeedError(.malformedJSON(error.problem), line: error.line, column: error.column)
        }
        guard case .object = document.value else { throw FeedError(.notAFeed(found: "JSON that is not an object")) }
        guard let version = document["version"]?.stringValue,
              version.hasPrefix("https://jsonfeed.org/version/") || version.hasPrefix("http://jsonfeed.org/version/") else {
            throw FeedError(.notAFeed(found: "JSON without a JSON Feed \"version\""))
        }
        guard let items = document["items"]?.arrayValue else {
            throw FeedError(.invalidJSONFeed("\"items\" must be an array, and is required"), line: line(of: document["items"] ?? document, in: bytes))
        }
        let feedURL = document["feed_url"]?.stringValue.flatMap { FeedURL.resolve($0, against: url) }
        let base = url ?? feedURL
        var feed = ParsedFeed(format: .jsonFeed)
        feed.title = document["title"]?.stringValue.flatMap { PlainTitle.text($0, isHTML: false) }
        feed.homeURL = document["home_page_url"]?.stringValue.flatMap { FeedURL.resolve($0, against: base) }
        feed.feedURL = feedURL
        let feedAuthors = authors(of: document, base: base)
        feed.items = items.compactMap { item in item.nonNull.flatMap { self.item(from: $0, base: base, feedAuthors: feedAuthors) } }
        return feed
    }

    private static func item(from node: JSONNode, base: String?, feedAuthors: [FeedAuthor]) -> FeedItem? {
        guard case .object = node.value else { return nil }
        let link = (node["url"]?.stringValue ?? node["external_url"]?.stringValue).flatMap { FeedURL.resolve($0, against: base) }
        let title = node["title"]?.stringValue.flatMap { PlainTitle.text($0, isHTML: false) }
        let summary = node["summary"]?.stringValue.flatMap { $0.isEmpty ? nil : FeedText.plain($0) }
        let content = node["content_html"]?.stringValue.flatMap { $0.isEmpty ? nil : FeedText.html($0) }
            ?? node["content_text"]?.stringValue.flatMap { $0.isEmpty ? nil : FeedText.plain($0) }
        let published = node["date_published"]?.stringValue.flatMap(FeedDate.parse)
        let updated = node["date_modified"]?.stringValue.flatMap(FeedDate.parse)
        let own = authors(of: node, base: base)
        let id: String? = switch node["id"]?.value {
        case let .string(text)?: text.isEmpty ? nil : text
        case let .number(digits, _, _)?: digits
        default: nil
        }
        return FeedItem(
            id: id ?? link ?? FeedItemID.hash([title ?? "", summary?.source ?? "", content?.source ?? "",
                                               (published ?? updated).map { "\($0.timeIntervalSince1970)" } ?? ""]),
            title: title, link: link, summary: summary, content: content,
            published: published, updated: updated, authors: own.isEmpty ? feedAuthors : own)
    }

    /// 1.1's `authors` array, else 1.0's `author` object.
    private static func authors(of node: JSONNode, base: String?) -> [FeedAuthor] {
        let nodes = node["authors"]?.arrayValue ?? node["author"].map { [$0] } ?? []
        return nodes.compactMap { author in
            let found = FeedAuthor(name: author["name"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 },
                                   url: author["url"]?.stringValue.flatMap { FeedURL.resolve($0, against: base) })
            return found.displayName == nil ? nil : found
        }
    }

    /// The 1-based line of a value, for an error about it.
    private static func line(of node: JSONNode, in bytes: [UInt8]) -> Int {
        1 + bytes.prefix(node.offset).count { $0 == UInt8(ascii: "\n") }
    }
}
