import Testing
@testable import TimelineKit

/// How far a snapshot grows by itself when a reader asks for more than it holds: the library's
/// rule (issue 26: `show` used to decide it).
@Suite struct SnapshotGrowthLimitTests {
    @Test func aSnapshotGrowsToWhatWasAskedUpToAThousand() {
        #expect(TimelineSnapshot.grownLimit(from: 200, asked: 500) == 500)
        #expect(TimelineSnapshot.grownLimit(from: 200, asked: 5_000) == TimelineSnapshot.largestGrownLimit)
        #expect(TimelineSnapshot.largestGrownLimit == 1_000)
        // Already as large, or larger (set by `timeline snapshot --limit`): it stays.
        #expect(TimelineSnapshot.grownLimit(from: 1_000, asked: 5_000) == nil)
        #expect(TimelineSnapshot.grownLimit(from: 3_000, asked: 2_000) == nil)
        #expect(TimelineSnapshot.grownLimit(from: 500, asked: 500) == nil)
    }
}
