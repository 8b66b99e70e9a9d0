import Foundation
import Synchronization
@testable import TimelineKit

/// A `SyncClock` whose `sleep` only moves `now` and records the wait: a five-minute rate-limit
/// reset is tested in microseconds, and the waits themselves can be checked.
final class TestClock: Sendable {
    private let state: Mutex<(now: Date, sleeps: [Duration])>

    init(now: Date = Date(timeIntervalSince1970: 1_785_592_800)) {  // 2026-08-01T14:00:00Z
        state = Mutex((now, []))
    }

    var now: Date { state.withLock { $0.now } }
    var sleeps: [Duration] { state.withLock { $0.sleeps } }

    func advance(by seconds: Double) {
        state.withLock { $0.now = $0.now.addingTimeInterval(seconds) }
    }

    var clock: SyncClock {
        SyncClock(now: { self.now }, sleep: { duration in
            try Task.checkCancellation()
            self.state.withLock {
                $0.sleeps.append(duration)
                let (seconds, attoseconds) = duration.components
                $0.now = $0.now.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
            }
        })
    }
}
