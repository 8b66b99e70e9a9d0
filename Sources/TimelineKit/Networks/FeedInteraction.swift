/// An interaction with a post read in a custom feed, sent back to the feed's generator as
/// Bluesky's app sends it (`app.bsky.feed.sendInteractions`), so that the feed learns what its
/// reader liked.
public enum FeedInteraction: String, Sendable, Hashable, CaseIterable {
    /// The post was liked (favourited).
    case like
    /// The post was reposted (boosted).
    case repost
    /// The person replied to the post.
    case reply
    /// The person quoted the post.
    case quote
}
