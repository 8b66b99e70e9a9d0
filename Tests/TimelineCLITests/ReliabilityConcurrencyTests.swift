import Foundation
import Testing
import TimelineKit

/// Issue 6, point 2: many terminals open at once while a fetcher writes. Every `show` exits 0,
/// paints, returns within its bound, never shows a lock error; the snapshot ends fresh.
@Suite struct ReliabilityConcurrencyTests {
    /// A fetcher: imports small batches back to back until told to stop.
    final class Ingest: @unchecked Sendable {
        // @unchecked Sendable: `stop` and the counters are guarded by `lock`.
        private let lock = NSLock()
        private var stopRequested = false
        private(set) var batches = 0
        private(set) var failures: [String] = []
        private let done = DispatchSemaphore(value: 0)

        init(_ scenario: Scenario) {
            let timeline = scenario.timeline
            let directory = scenario.directory
            Thread.detachNewThread { [self] in
                var n = 0
                while !lock.withLock({ stopRequested }) {
                    let path = directory + "/ingest-\(n % 2).jsonl"
                    let lines = (0..<20).map { i in
                        ImportLine.message(id: "ingest-\(n)-\(i)", author: "ingest-user", text: "ingested \(n).\(i)",
                                           createdAt: 1_800_000_000_000 + Int64(n * 20 + i) * 1000)
                    }
                    do {
                        try ImportLine.write([ImportLine.user(id: "ingest-user", handle: "fetcher", name: "Fetcher")] + lines, to: path)
                        let result = try timeline.run(["import", path])
                        lock.withLock {
                            batches += 1
                            if result.status != 0 { failures.append("import exited \(result.status): \(result.errors)") }
                        }
                    } catch {
                        lock.withLock { failures.append("\(error)") }
                    }
                    n += 1
                }
                done.signal()
            }
        }

        /// Waits until at least `count` batches have been imported (or 60 s have passed).
        func waitForBatches(_ count: Int) {
            let deadline = Date().addingTimeInterval(60)
            while lock.withLock({ batches }) < count, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        }

        func stop() -> (batches: Int, failures: [String]) {
            lock.withLock { stopRequested = true }
            done.wait()
            return lock.withLock { (batches, failures) }
        }
    }

    /// What a user must never see from `show`.
    static let lockWords = ["locked", "busy", "SQLITE_BUSY", "not updated"]

    @Test func twentyShowsAtOnceDuringIngestAllPaintInTimeAndLeaveAFreshSnapshot() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let ingest = Ingest(scenario)
        var slowest = 0.0
        for round in 0..<4 {
            // Each round starts with the writer mid-stream: another batch has landed since the last.
            ingest.waitForBatches(round + 1)
            // Half on pseudo-terminals (paint, then reconcile), half on pipes (reconciled once).
            let timeline = scenario.timeline
            let results = concurrently(20) { index in
                try timeline.timed(["show", "-n", "3", "--color", "never"], inTerminal: index.isMultiple(of: 2))
            }
            for (index, outcome) in results.enumerated() {
                let (result, seconds) = try outcome.get()
                slowest = max(slowest, seconds)
                #expect(result.status == 0, "round \(round), show \(index): exit \(result.status): \(result.errors)")
                #expect(!result.output.isEmpty, "round \(round), show \(index) printed nothing")
                for word in Self.lockWords {
                    #expect(!result.errors.contains(word), "round \(round), show \(index): \(result.errors)")
                }
                // The bound: at most 100 ms for the database and 100 ms for the snapshot lock,
                // plus start-up of 20 debug binaries sharing this machine's cores.
                #expect(seconds < 3, "round \(round), show \(index) took \(seconds) s")
            }
        }
        let (batches, failures) = ingest.stop()
        #expect(failures.isEmpty, "\(failures)")
        #expect(batches >= 4, "the writer imported only \(batches) batches during the shows")

        // The writer's last import refreshed the snapshot under the lock after its commit, so it
        // is fresh already; one more show keeps it so.
        let afterWriter = try scenario.timeline.run(["snapshot", "--check"])
        #expect(afterWriter.status == 0, "\(afterWriter.errors)")
        #expect(try scenario.timeline.run(["show", "-n", "1"]).status == 0)
        let check = try scenario.timeline.run(["snapshot", "--check"])
        #expect(check.status == 0, "\(check.errors)")
        print("many terminals: 4 rounds of 20 shows during \(batches) imports; slowest show \(String(format: "%.3f", slowest)) s")
    }
}
