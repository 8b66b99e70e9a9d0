import Foundation
import Testing
import TimelineKit

@Suite struct SnapshotCommandTests {
    @Test func checkExitsZeroOnlyWhenFreshAndSaysWhyOtherwise() throws {
        let scenario = Scenario()
        try scenario.importSample()

        let fresh = try scenario.timeline.run(["snapshot", "--check"])
        #expect(fresh.status == 0)

        try scenario.sqlite("DELETE FROM messages WHERE rowid = 1")
        let stale = try scenario.timeline.run(["snapshot", "--check"])
        #expect(stale.status == 3)
        #expect(stale.errors.contains("stale"))

        let rebuilt = try scenario.timeline.run(["snapshot"])
        #expect(rebuilt.status == 0)
        #expect(try scenario.timeline.run(["snapshot", "--check"]).status == 0)

        try Data("not a snapshot".utf8).write(to: URL(fileURLWithPath: scenario.snapshotPath))
        let corrupt = try scenario.timeline.run(["snapshot", "--check"])
        #expect(corrupt.status == 5)
        #expect(corrupt.errors.contains("not a timeline snapshot"))

        try FileManager.default.removeItem(atPath: scenario.snapshotPath)
        let missing = try scenario.timeline.run(["snapshot", "--check"])
        #expect(missing.status == 4)
        #expect(missing.errors.contains("missing"))
    }

    @Test func aLimitGivenToSnapshotIsKeptByLaterWrites() throws {
        let scenario = Scenario()
        try scenario.importSample()
        #expect(try scenario.timeline.run(["snapshot", "--limit", "7"]).status == 0)
        #expect(try scenario.timeline.run(["mark-read", "--all"]).status == 0)
        let snapshot = try SnapshotFile(path: scenario.snapshotPath).read()
        #expect(snapshot.limit == 7)
        #expect(snapshot.window.messages.count == 7)
        #expect(snapshot.state.unreadCount == 0)
    }

    @Test func dumpPrintsTheSnapshotAsJSON() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let dump = try scenario.timeline.run(["snapshot", "--dump"])
        #expect(dump.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(dump.output.utf8)) as? [String: Any])
        #expect(object["format_version"] as? Int == TimelineSnapshot.formatVersion)
        let snapshot = try #require(object["snapshot"] as? [String: Any])
        let window = try #require(snapshot["window"] as? [String: Any])
        #expect((window["messages"] as? [Any])?.count == 200)
    }
}
