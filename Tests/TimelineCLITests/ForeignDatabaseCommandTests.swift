import Foundation
import Testing

/// Another program's file where the database should be: every command refuses it and leaves it
/// exactly as it was, with nothing beside it (issue 12, item 4).
@Suite struct ForeignDatabaseCommandTests {
    /// Every command that opens the database, with what it needs to run.
    static let commands: [[String]] = [
        ["show"], ["show", "--no-reconcile"], ["show", "--from-db"], ["show", "--json"], ["show", "-f"],
        ["stats"], ["stats", "--json"], ["import", Scenario.sampleTimeline], ["doctor"], ["doctor", "--json"],
        ["search", "coffee"], ["export", "-"], ["mark-read", "--all"], ["delete", "m1"],
        ["post", "--as", "mika", "hi"], ["user", "u9", "--handle", "u9", "--name", "U"],
        ["prune", "--older-than", "1d"], ["prune", "--older-than", "1d", "--dry-run"], ["vacuum"], ["upgrade"],
        ["snapshot"], ["snapshot", "--check"], ["browse"],
    ]

    enum Foreign: String, CaseIterable, CustomTestStringConvertible {
        case tables, tablesInWALMode, userVersion2WithTimelineTableNames, userVersion4, otherApplicationID, text

        var testDescription: String { rawValue }

        var sql: String? {
            switch self {
            case .tables: "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')"
            case .tablesInWALMode: "PRAGMA journal_mode = WAL; CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')"
            case .userVersion2WithTimelineTableNames:
                "CREATE TABLE users (x); CREATE TABLE messages (y); CREATE TABLE timeline_state (singleton, z); INSERT INTO timeline_state VALUES (1, 2); PRAGMA user_version = 2"
            case .userVersion4: "CREATE TABLE notes (body TEXT); PRAGMA user_version = 4"
            case .otherApplicationID: "PRAGMA application_id = 7; CREATE TABLE notes (body TEXT)"
            case .text: nil
            }
        }
    }

    @Test(arguments: Foreign.allCases)
    func everyCommandRefusesAnotherProgramsFileAndLeavesItByteForByte(_ foreign: Foreign) throws {
        let scenario = Scenario()
        if let sql = foreign.sql {
            try scenario.query(sql)
        } else {
            try Data(String(repeating: "my notes\n", count: 500).utf8).write(to: URL(fileURLWithPath: scenario.databasePath))
        }
        let before = try DirectoryState(scenario.directory)
        for command in Self.commands {
            let result = try scenario.timeline.run(command)
            #expect(result.status != 0, "\(command)")
            #expect((result.errors + result.output).contains("is not a timeline database"), "\(command): \(result.errors)")
            #expect(!result.errors.contains("SQLite error"), "\(command): \(result.errors)")
            #expect(try DirectoryState(scenario.directory) == before, "\(command) changed \(scenario.directory)")
        }
    }
}
