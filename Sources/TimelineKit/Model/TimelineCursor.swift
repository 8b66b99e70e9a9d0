#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A position in the timeline order (newest first by creation time, then by ID descending).
/// A page read `after:` a cursor starts with the first message older than that position, so
/// paging is stable even while new messages arrive at the top.
public struct TimelineCursor: Sendable, Codable, Hashable {
    /// Creation time in whole milliseconds since 1970-01-01 UTC, as the database stores it.
    public var createdAtMilliseconds: Int64
    /// The message ID that breaks ties at the same time.
    public var id: String

    public init(createdAt: Date, id: String) {
        self.createdAtMilliseconds = MillisecondTime.milliseconds(from: createdAt)
        self.id = id
    }

    public init(createdAtMilliseconds: Int64, id: String) {
        self.createdAtMilliseconds = createdAtMilliseconds
        self.id = id
    }
}
