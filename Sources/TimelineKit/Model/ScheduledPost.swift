#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A post its server is to publish later (Mastodon's scheduled status, issue 36): not yet a
/// message, so not stored; listed by ``AccountSession/scheduledPosts(limit:in:)`` and cancelled
/// by ``AccountSession/unschedule(_:in:)``.
public struct ScheduledPost: Sendable, Hashable {
    /// The server's ID of the scheduled post (not a status's ID: it has none until published).
    public var id: String
    /// When the server publishes it.
    public var scheduledAt: Date
    /// Its text, as the server keeps it.
    public var text: String
    /// How many options its poll has (0: none).
    public var pollOptions: Int

    /// A scheduled post.
    public init(id: String, scheduledAt: Date, text: String, pollOptions: Int = 0) {
        self.id = id
        self.scheduledAt = scheduledAt
        self.text = text
        self.pollOptions = pollOptions
    }

    /// How far ahead a server takes a scheduled post: Mastodon refuses one less than five
    /// minutes ahead (422), so the command line refuses it before anything is queued.
    public static let minimumLead: TimeInterval = 5 * 60

    /// The most scheduled posts read from a server at once: Mastodon keeps at most 300 per
    /// account (25 a day), so this is every one, and a server cannot make the list grow without bound.
    public static let listLimit = 300
}
