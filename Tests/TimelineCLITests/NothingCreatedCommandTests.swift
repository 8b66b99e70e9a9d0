import Foundation
import Testing

/// A command that fails before it writes creates nothing: no directory, no database, no snapshot;
/// and `show` still says there is no timeline yet (issue 12, item 6).
@Suite struct NothingCreatedCommandTests {
    /// Commands that fail where there is no database yet, and their exit status. `show -f` comes
    /// first: after a command that wrongly created a database, it would follow it forever.
    static func failures(inputs: String) -> [(arguments: [String], status: Int32)] {
        [
            (["show", "-f"], 66),
            (["import", inputs + "/missing.jsonl"], 66), (["import", inputs + "/bad.jsonl"], 65),
            (["post", "--as", "nobody", "hi"], 65), (["user", "me"], 64), (["user", "me", "--handle", "me"], 64),
            (["mark-read", "--all"], 66), (["delete", "m1"], 66), (["prune", "--older-than", "1d"], 66),
            (["vacuum"], 66), (["upgrade"], 66), (["snapshot"], 66), (["snapshot", "--check"], 66),
            (["stats"], 66), (["search", "coffee"], 66), (["export", inputs + "/out.jsonl"], 66), (["doctor"], 66),
        ]
    }

    static let noTimelineYet = "no timeline yet"

    @Test func aCommandThatFailsBeforeWritingCreatesNoDirectoryDatabaseOrSnapshot() throws {
        let scenario = Scenario()
        let inputs = scenario.directory + "/inputs"
        try FileManager.default.createDirectory(atPath: inputs, withIntermediateDirectories: false)
        try ImportLine.write([
            ImportLine.user(id: "u1", handle: "alice", name: "Alice"),
            ImportLine.message(id: "m1", author: "u2", text: "by nobody we know", createdAt: 0),
        ], to: inputs + "/bad.jsonl")
        var timeline = scenario.timeline
        timeline.environment["TIMELINE_DB"] = scenario.directory + "/data/timeline/timeline.sqlite"

        for (arguments, status) in Self.failures(inputs: inputs) {
            let result = try timeline.run(arguments)
            #expect(result.status == status, "\(arguments): \(result.errors)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: scenario.directory) == ["inputs"], "\(arguments)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: inputs) == ["bad.jsonl"], "\(arguments)")
        }
        let show = try timeline.run(["show"])
        #expect(show.status == 0)
        #expect(show.output.isEmpty)
        #expect(show.errors.contains(Self.noTimelineYet))
    }

    /// An empty file (`touch`, `mktemp`) is no timeline to the commands that read, and left as it
    /// is; the first import that succeeds makes it the database.
    @Test func anEmptyFileIsNoTimelineUntilAnImportFills() throws {
        let scenario = Scenario()
        #expect(FileManager.default.createFile(atPath: scenario.databasePath, contents: Data()))
        let before = try DirectoryState(scenario.directory)
        for arguments in [["show"], ["show", "--no-reconcile"]] {
            let show = try scenario.timeline.run(arguments)
            #expect(show.status == 0)
            #expect(show.errors.contains(Self.noTimelineYet))
        }
        for arguments in [["stats"], ["search", "coffee"], ["doctor"], ["import", scenario.directory + "/missing.jsonl"], ["post", "--as", "nobody", "hi"]] {
            #expect(try scenario.timeline.run(arguments).status != 0, "\(arguments)")
            #expect(try DirectoryState(scenario.directory) == before, "\(arguments)")
        }
        try scenario.importSample()
        #expect(try scenario.timeline.run(["show", "-n", "1"]).output.contains("Mika Lindqvist"))
    }
}
