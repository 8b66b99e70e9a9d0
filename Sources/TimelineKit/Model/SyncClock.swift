#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The time and the waiting of a sync: rate-limit resets, back-off between retries,
/// reconnections. `system` is the real one; tests pass one whose `sleep` only moves `now`, so
/// that a five-minute reset is tested in microseconds.
public struct SyncClock: Sendable {
    /// The current time.
    public var now: @Sendable () -> Date
    /// Waits `duration`; throws `CancellationError` when the task is cancelled.
    public var sleep: @Sendable (Duration) async throws -> Void

    public init(now: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }

    /// The wall clock and `Task.sleep`.
    public static let system = SyncClock(now: { Date() }, sleep: { try await Task.sleep(for: $0) })
}
