#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The newest part of the timeline, saved beside the database after every write so that a
/// terminal can paint it at launch without opening the database.
///
/// A snapshot is a cache: it can always be rebuilt from the database (`TimelineStore.writeSnapshot`),
/// and `TimelineStore.reconcile(_:)` tells what changed since it was built.
public struct TimelineSnapshot: Sendable, Codable, Hashable {
    /// The snapshot file format this library writes. It changes whenever the encoded shape of the
    /// snapshot (or of any model type in it) changes; files of another version are refused and
    /// rebuilt from the database.
    public static let formatVersion = 7

    /// How many messages a snapshot holds unless configured otherwise: more than any terminal
    /// shows at once, few enough that writing it stays well under a millisecond of CPU.
    public static let defaultLimit = 200

    /// The most messages a snapshot holds, whatever limit is asked for: far more than any window
    /// paints, and a bound on what a limit read from a command line, a configuration or an old
    /// header can make a write read (a limit of `Int.max` is taken as this).
    public static let maximumLimit = 10_000

    /// The database state the snapshot was built from: identity, generation and counts.
    public var state: TimelineState
    /// When the snapshot was built.
    public var builtAt: Date
    /// How many messages it was asked to hold (it holds fewer when the database has fewer).
    public var limit: Int
    /// The newest `limit` messages, with the messages they repost or quote and their authors.
    public var window: TimelinePage

    public init(state: TimelineState, builtAt: Date, limit: Int, window: TimelinePage) {
        self.state = state
        self.builtAt = builtAt
        self.limit = limit
        self.window = window
    }

    /// The generation of the database this snapshot was built from.
    public var generation: Int64 { state.generation }

    /// Whether the snapshot shows exactly what a database in `current` state holds.
    public func isFresh(for current: TimelineState) -> Bool {
        current.isShown(bySnapshotOf: state.databaseID, at: state.generation)
    }
}
