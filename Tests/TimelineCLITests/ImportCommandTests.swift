import Foundation
import Testing
import TimelineKit

@Suite struct ImportCommandTests {
    @Test func aBadLineStopsTheImportNamesTheLineAndFieldAndWritesNothing() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let before = try scenario.timeline.run(["stats", "--json"]).output
        let snapshotBefore = scenario.fileBytes(scenario.snapshotPath)

        let file = scenario.directory + "/bad.jsonl"
        try Data("""
            {"type":"user","id":"new-user","handle":"newbie","name":"New"}
            {"type":"message","id":"fresh-1","author":"new-user","text":"fine","created_at":"2026-11-22T10:00:00Z"}
            {"type":"message","id":"fresh-2","author":"new-user","text":"bad","created_at":"2026-11-22T10:00:00Z","likes":"many"}

            """.utf8).write(to: URL(fileURLWithPath: file))
        let result = try scenario.timeline.run(["import", file])
        #expect(result.status == 65)
        #expect(result.errors.contains("bad.jsonl"))
        #expect(result.errors.contains("line 3"))
        #expect(result.errors.contains("likes"))
        #expect(try scenario.timeline.run(["stats", "--json"]).output == before)
        #expect(scenario.fileBytes(scenario.snapshotPath) == snapshotBefore)
    }

    @Test func importReadsStandardInputAndIsIdempotent() throws {
        let scenario = Scenario()
        let data = try #require(FileManager.default.contents(atPath: Scenario.sampleTimeline))
        let first = try scenario.timeline.run(["import", "-"], input: data)
        #expect(first.status == 0)
        #expect(first.output.contains("337 messages (337 new)"))
        let generation = try scenario.sqlite("SELECT generation FROM timeline_state")
        let second = try scenario.timeline.run(["import", "-"], input: data)
        #expect(second.output.contains("337 messages (0 new)"))
        #expect(try scenario.sqlite("SELECT generation FROM timeline_state") == generation)
    }

    @Test func exportThenImportRoundTripsExactly() throws {
        let scenario = Scenario()
        try scenario.importSample()
        #expect(try scenario.timeline.run(["mark-read", "--all"]).status == 0)
        let exported = try scenario.timeline.run(["export"])
        #expect(exported.status == 0)

        let copy = Scenario()
        #expect(try copy.timeline.run(["import", "-"], input: Data(exported.output.utf8)).status == 0)
        #expect(try copy.timeline.run(["export"]).output == exported.output)
        #expect(try copy.sqlite("SELECT count(*) FROM unread_messages") == "0")
    }
}
