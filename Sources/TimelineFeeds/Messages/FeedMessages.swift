#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

/// A parsed feed as TimelineKit messages and their authors, ready for a `TimelineStore`
/// transaction: what a feed source stores after each fetch.
///
/// - `text`: the title, a blank line, then the content (else the summary) as plain text,
///   HTML converted as Mastodon's is; cut at TimelineKit's text limit with its mark
///   (`OverlongText.cut`) so that one huge item never stops a sync.
/// - `url`: the item's absolute link.
/// - `createdAt`: published, else updated, else `fetchedAt` (the caller passes the time it
///   first saw the item, so that a dateless item keeps its place); `editedAt` the update when
///   it is later than the publication.
/// - The author: the item's first author, else the feed's title, else the subscription's name.
/// - IDs are namespaced by the subscription (``messageID(subscription:itemID:)``): two feeds
///   with equal guids never collide, and the same item fetched again has the same ID.
///
/// ```swift
/// let feed = try FeedParser.parse(body, url: url)
/// let stored = FeedMessages(feed: feed, subscription: FeedSubscriptionIdentity(id: "7", name: "daringfireball"),
///                           fetchedAt: Date())
/// try store.upsert(users: stored.users, messages: stored.messages)
/// ```
public struct FeedMessages: Sendable, Hashable {
    /// One message per item, in the feed's order.
    public var messages: [Message]
    /// The authors the messages name, each once.
    public var users: [User]

    /// The IDs of item IDs longer than this are a hash of them, so that a message ID stays short
    /// whatever a feed writes in its guid.
    public static let maximumItemIDBytes = 200

    /// The messages of `feed`'s items for `subscription`, dating an undated item `fetchedAt`.
    public init(feed: ParsedFeed, subscription: FeedSubscriptionIdentity, fetchedAt: Date) {
        var users: [User] = []
        var seen: Set<String> = []
        let feedName = feed.title ?? subscription.name
        messages = feed.items.map { item in
            let author = item.authors.first
            let user: User
            if let author, let name = author.displayName {
                user = User(id: Self.userID(subscription: subscription, author: name), handle: subscription.name,
                            name: PlainTitle.text(name, isHTML: false) ?? name, url: author.url)
            } else {
                user = User(id: Self.userID(subscription: subscription, author: nil), handle: subscription.name,
                            name: feedName, url: feed.homeURL)
            }
            if seen.insert(user.id).inserted { users.append(user) }
            let created = item.published ?? item.updated ?? fetchedAt
            let edited = item.updated.flatMap { updated in item.published.flatMap { updated > $0 ? updated : nil } }
            return Message(id: Self.messageID(subscription: subscription.id, itemID: item.id), authorID: user.id,
                           text: Self.text(of: item), createdAt: created, editedAt: edited, url: item.link, source: .feed)
        }
        self.users = users
    }

    /// The message ID of item `itemID` of the subscription `subscription`:
    /// `feed:<subscription>:<item ID>`, the item ID replaced by its hash when it is longer than
    /// ``maximumItemIDBytes`` or holds a control character.
    public static func messageID(subscription: String, itemID: String) -> String {
        let plain = itemID.utf8.count <= maximumItemIDBytes && !itemID.unicodeScalars.contains { $0.properties.generalCategory == .control }
        return "feed:\(subscription):" + (plain ? itemID : FeedItemID.hash([itemID]))
    }

    /// An author's user ID: the feed's own (`feed:<subscription>`) when the item names nobody.
    static func userID(subscription: FeedSubscriptionIdentity, author: String?) -> String {
        guard let author else { return "feed:\(subscription.id)" }
        return messageID(subscription: subscription.id, itemID: "author:" + author)
    }

    /// The title, a blank line, and the body as plain text, within TimelineKit's text limit.
    static func text(of item: FeedItem) -> String {
        let body = (item.content ?? item.summary).map(\.plainText).map { $0.trimmingXMLSpace() }.flatMap { $0.isEmpty ? nil : $0 }
        let text = [item.title, body].compactMap { $0 }.joined(separator: "\n\n")
        return OverlongText.cut(text, limit: JSONLinesImporter.maximumTextBytes)
    }
}
