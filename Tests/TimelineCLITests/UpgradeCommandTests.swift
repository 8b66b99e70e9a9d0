import Foundation
import Testing
import TimelineKit

/// A new `timeline` meeting a database of an older schema: `show` upgrades small ones by itself
/// and never holds a shell's start for a large one; `timeline upgrade` does it on request.
@Suite struct UpgradeCommandTests {
    /// A copy of the version-1 fixture, grown past `show`'s 32 MiB upgrade bound when `large`.
    private func versionOneDatabase(_ scenario: Scenario, large: Bool) throws {
        try FileManager.default.createDirectory(atPath: scenario.directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Scenario.repositoryPath("Fixtures/schema-v1.sqlite"), toPath: scenario.databasePath)
        if large {
            // 18,000 messages of 2 KB by the fixture's user "1": about 40 MiB.
            _ = try scenario.sqlite("""
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 18000)
                INSERT INTO messages (id, author_id, text, created_at)
                SELECT 'big-' || i, '1', printf('%.2000c', 'x'), 1700000000000 + i FROM n;
                """)
        }
        #expect(try scenario.sqlite("PRAGMA user_version") == "1")
    }

    @Test func showUpgradesASmallDatabaseByItself() throws {
        let scenario = Scenario()
        try versionOneDatabase(scenario, large: false)
        let result = try scenario.timeline.run(["show", "--json"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("113000000000000003"))
        #expect(try scenario.sqlite("PRAGMA user_version") == "\(TimelineStore.latestSchemaVersion)")
    }

    @Test func showLeavesALargeDatabaseAloneAndAsksForTheUpgrade() throws {
        let scenario = Scenario()
        try versionOneDatabase(scenario, large: true)
        let before = scenario.fileBytes(scenario.databasePath)

        let shown = try scenario.timeline.run(["show", "--json"])
        #expect(shown.status == 75)
        #expect(shown.errors.contains("timeline upgrade"), "\(shown.errors)")
        #expect(scenario.fileBytes(scenario.databasePath) == before)
        #expect(try scenario.sqlite("PRAGMA user_version") == "1")

        let upgraded = try scenario.timeline.run(["upgrade"])
        #expect(upgraded.status == 0, "\(upgraded.errors)")
        #expect(upgraded.output.contains("from schema version 1 to \(TimelineStore.latestSchemaVersion)"), "\(upgraded.output)")
        #expect(try scenario.sqlite("PRAGMA user_version") == "\(TimelineStore.latestSchemaVersion)")
        #expect(try scenario.sqlite("SELECT count(*) FROM messages") == "18003")
        #expect(try scenario.timeline.run(["snapshot", "--check"]).status == 0)

        let again = try scenario.timeline.run(["show", "--json", "-n", "1"])
        #expect(again.status == 0, "\(again.errors)")
        #expect(again.output.contains("113000000000000003"))
        #expect(try scenario.timeline.run(["upgrade"]).output.contains("is up to date"))
    }

    @Test func upgradeWithoutADatabaseSaysSo() throws {
        let scenario = Scenario()
        let result = try scenario.timeline.run(["upgrade"])
        #expect(result.status == 66)
        #expect(result.errors.contains("No timeline database"), "\(result.errors)")
    }
}
