/// When to check a database for new commits: at once after its files are written, else on a slow
/// safety timer; without file notifications, on a steady timer.
///
/// Every commit writes the database or its write-ahead log, whoever makes it, so a follower that
/// is told of those writes (inotify, on Linux) needs no steady polling: idle, it wakes once a
/// `safetyInterval` (a safety net for a write the notices could miss: a file system that does
/// not report, a database replaced under its name); after a write, it checks every 20 ms for a
/// second, because SQLite writes the WAL, syncs it, and only then publishes the commit in shared
/// memory, which no notice reports. Where there are no notices (macOS, or a WAL reached through
/// a symlink that lives elsewhere) it checks every `pollInterval`.
///
/// `show -f` puts ``descriptor`` in its own `poll(2)` set (beside its signals and standard
/// output) and asks ``timeoutMilliseconds()``; `TimelineStore.changes(since:)` blocks a thread
/// of its own in ``wait()``. Both then ask `TimelineChangeWatcher`, which reads one
/// number from shared memory when nothing was committed.
package struct DatabaseWriteWake: Sendable {
    /// Without notices: the time between two checks.
    package let pollInterval: Duration
    /// With notices: the longest time between two checks when nothing is written.
    package let safetyInterval: Duration
    /// The notices of writes to the database and its WAL; `nil` where there are none.
    private let notifications: FileWriteNotifications?
    /// Until when a write is being settled (checks every `settleInterval`).
    private var settlingUntil: ContinuousClock.Instant?

    /// After a write, how often to check.
    package static let settleInterval: Duration = .milliseconds(20)
    /// After a write, for how long to check that often.
    package static let settleDuration: Duration = .seconds(1)
    /// With notices, the default longest sleep: a second.
    package static let defaultSafetyInterval: Duration = .seconds(1)

    /// Watches the database at `databasePath` and its WAL (when `notified` is false, or they
    /// cannot be watched, checks every `pollInterval` instead). The safety interval is never
    /// shorter than `pollInterval`.
    package init(databasePath: String, pollInterval: Duration, notified: Bool = true) {
        self.pollInterval = pollInterval
        self.safetyInterval = max(pollInterval, Self.defaultSafetyInterval)
        self.notifications = notified ? FileWriteNotifications(watching: [databasePath, databasePath + "-wal"]) : nil
    }

    /// Whether writes are reported (else checks run on the steady timer).
    package var isNotified: Bool { notifications != nil }

    /// Readable after a write, for a caller's own `poll(2)`; call ``noteWrite()`` when it is.
    package var descriptor: Int32? { notifications?.descriptor }

    /// A write was reported: drops the notice and checks often for a while.
    package mutating func noteWrite() {
        notifications?.discardEvents()
        settlingUntil = .now + Self.settleDuration
    }

    /// How long to wait before the next check.
    package func nextWait() -> Duration {
        guard notifications != nil else { return pollInterval }
        if let settlingUntil, ContinuousClock.now < settlingUntil { return Self.settleInterval }
        return safetyInterval
    }

    /// ``nextWait()`` in whole milliseconds, for `poll(2)`.
    package func timeoutMilliseconds() -> Int32 {
        let (seconds, attoseconds) = nextWait().components
        return Int32(clamping: seconds.saturatingMultiplied(by: 1000).saturatingAdding(attoseconds / 1_000_000_000_000_000))
    }

    /// Waits, on a thread of its own (never one of Swift's cooperative pool), until a write is
    /// reported or ``nextWait()`` passes; `false` when the calling task was cancelled (at once,
    /// even in the middle of a long wait). Without notices it sleeps ``pollInterval``.
    package mutating func wait() async -> Bool {
        guard let notifications else {
            do {
                try await Task.sleep(for: pollInterval)
                return true
            } catch {
                // Only cancellation interrupts the sleep.
                return false
            }
        }
        let milliseconds = timeoutMilliseconds()
        let wake = await withTaskCancellationHandler {
            await DedicatedThread.run { notifications.wait(milliseconds: milliseconds) }
        } onCancel: {
            notifications.interrupt()
        }
        switch wake {
        case .interrupted: return false
        case .written: settlingUntil = .now + Self.settleDuration
        case .timedOut: break
        }
        return !Task.isCancelled
    }
}
