#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `TimelineStore.prune(olderThan:keepUnread:dryRun:)` removed, or would remove.
public struct PruneSummary: Sendable, Equatable {
    /// Messages created before this moment were candidates.
    public var cutoff: Date
    /// Whether nothing was changed (the counts say what a prune would do).
    public var isDryRun: Bool
    /// Messages removed.
    public var messagesRemoved: Int
    /// Users removed: those only removed messages (and notifications) referred to.
    public var usersRemoved: Int
    /// Notifications of synced accounts removed: those that happened before the cutoff.
    public var notificationsRemoved: Int = 0
    /// Old unread messages kept because of `keepUnread`.
    public var unreadKept: Int
    /// Bytes of the database that are free pages after the prune: what vacuum can give back.
    /// A dry run estimates it from the share of messages removed.
    public var freeableBytes: Int
    /// The upkeep that followed (pages given back, WAL truncated); `nil` for a dry run or when
    /// nothing was removed.
    public var maintenance: MaintenanceSummary?
}
