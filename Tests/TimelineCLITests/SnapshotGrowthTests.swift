import Foundation
import Testing
import TimelineKit

/// `show -n N` beyond what the snapshot holds (issue 15): it used to say "the snapshot held fewer
/// messages than asked for" and read the database on every run; now the snapshot grows to N (up to
/// 1,000) and says so once, so the next `show -n N` paints from it.
@Suite struct SnapshotGrowthTests {
    @Test func aSnapshotTooSmallForShowGrowsOnceAndThenAnswers() throws {
        let scenario = Scenario()
        try scenario.importSample()
        #expect(try scenario.timeline.run(["snapshot", "--limit", "50"]).status == 0)

        let first = try scenario.timeline.run(["show", "-n", "100"])
        #expect(first.status == 0)
        #expect(first.errors == "timeline: the snapshot held 50 messages, fewer than the 100 asked for; showing the database and keeping 100 in the snapshot from now on.\n")
        #expect(try SnapshotFile(path: scenario.snapshotPath).readHeader().limit == 100)
        #expect(try scenario.timeline.run(["snapshot", "--check"]).status == 0)

        let bytes = scenario.fileBytes(scenario.snapshotPath)
        let second = try scenario.timeline.run(["show", "-n", "100"])
        #expect(second.errors.isEmpty, "\(second.errors)")
        #expect(second.output == first.output)
        #expect(scenario.fileBytes(scenario.snapshotPath) == bytes)
        // Asking for fewer never shrinks it.
        #expect(try scenario.timeline.run(["show", "-n", "3"]).errors.isEmpty)
        #expect(try SnapshotFile(path: scenario.snapshotPath).readHeader().limit == 100)
    }

    @Test func itGrowsNoFurtherThanAThousandAndSaysHowToKeepMore() throws {
        let scenario = Scenario()
        try scenario.importSample()
        try scenario.sqlite("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1200)
            INSERT INTO messages (id, author_id, text, created_at)
            SELECT 'bulk' || i, '109301442871003451', 'bulk ' || i, 1895000000000 + i FROM n
            """)
        #expect(try scenario.timeline.run(["snapshot"]).status == 0)

        let first = try scenario.timeline.run(["show", "-n", "1100"])
        #expect(first.status == 0)
        #expect(first.errors == "timeline: the snapshot held 200 messages, fewer than the 1,100 asked for; showing the database and keeping 1,000 in the snapshot from now on (`timeline snapshot --limit 1100` keeps more).\n")
        #expect(try SnapshotFile(path: scenario.snapshotPath).readHeader().limit == 1_000)

        let bytes = scenario.fileBytes(scenario.snapshotPath)
        let second = try scenario.timeline.run(["show", "-n", "1100"])
        #expect(second.errors.isEmpty, "said once: \(second.errors)")
        #expect(second.output == first.output)
        #expect(scenario.fileBytes(scenario.snapshotPath) == bytes)

        #expect(try scenario.timeline.run(["snapshot", "--limit", "1100"]).status == 0)
        let third = try scenario.timeline.run(["show", "-n", "1100"])
        #expect(third.errors.isEmpty)
        #expect(third.output == first.output)
    }
}
