import Foundation
import Testing

/// A database that cannot be written where it is: the commands that read work, the ones that
/// write say which directory or file cannot be written, with status 77 (issue 12, item 11).
@Suite(.enabled(if: ReadOnlyTimeline.isAvailable, "needs permissions (not root) or setpriv (root)"))
struct ReadOnlyPlaceCommandTests {
    static let reading: [[String]] = [
        ["show"], ["show", "--no-reconcile"], ["show", "--from-db"], ["show", "--json"], ["stats"], ["stats", "--json"],
        ["search", "coffee"], ["export", "-"], ["doctor"], ["snapshot", "--check"],
        ["prune", "--older-than", "1d", "--dry-run"], ["upgrade"],
    ]
    static let writing: [[String]] = [
        ["import", ReadOnlyTimeline.readableCopy(of: "Fixtures/sample-timeline.jsonl")], ["post", "--as", "mika", "hi"], ["user", "u9", "--handle", "u9", "--name", "U"],
        ["mark-read", "--all"], ["delete", "117626012958762273"], ["prune", "--older-than", "1d", "--yes"], ["vacuum"],
    ]

    static func check(_ readOnly: ReadOnlyTimeline, unwritable: String) throws {
        for arguments in reading {
            let result = try readOnly.timeline.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.errors)")
            #expect(!result.errors.contains("SQLite error"), "\(arguments): \(result.errors)")
        }
        for arguments in writing {
            let result = try readOnly.timeline.run(arguments)
            #expect(result.status == 77, "\(arguments): \(result.errors)")
            #expect(result.errors.contains("\(unwritable) is read-only"), "\(arguments): \(result.errors)")
            #expect(result.errors.contains("Nothing was changed"), "\(arguments): \(result.errors)")
        }
    }

    @Test func inAReadOnlyDirectoryReadingWorksAndWritingNamesTheDirectory() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let readOnly = try ReadOnlyTimeline(scenario)
        let before = try DirectoryState(scenario.directory)
        #expect(try readOnly.timeline.run(["show", "-n", "1"]).output.contains("Mika Lindqvist"))
        try Self.check(readOnly, unwritable: "its directory \(scenario.directory)")
        #expect(try DirectoryState(scenario.directory) == before)
    }

    /// Changed by another program before the directory became read-only: `show` shows the change
    /// and says that the snapshot could not be rewritten.
    @Test func inAReadOnlyDirectoryAStaleSnapshotIsReconciledAndSaysSo() throws {
        let scenario = Scenario()
        try scenario.importSample()
        try scenario.query("UPDATE messages SET text = 'edited elsewhere' WHERE id = (SELECT id FROM messages ORDER BY created_at DESC, id DESC LIMIT 1)")
        let readOnly = try ReadOnlyTimeline(scenario)
        let show = try readOnly.timeline.run(["show", "-n", "1"])
        #expect(show.status == 0)
        #expect(show.output.contains("edited elsewhere"))
        #expect(show.errors.contains("could not write a new snapshot"))
    }

    @Test func withAReadOnlyDatabaseFileReadingWorksAndWritingNamesTheFile() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let readOnly = try ReadOnlyTimeline(scenario, only: scenario.databasePath)
        let before = try Data(contentsOf: URL(fileURLWithPath: scenario.databasePath))
        try Self.check(readOnly, unwritable: "the file")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scenario.databasePath)) == before)
    }
}
