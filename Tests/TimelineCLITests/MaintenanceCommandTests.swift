import Foundation
import Testing
import TimelineKit

@Suite struct MaintenanceCommandTests {
    /// JSON Lines with `old` messages 400 days old and `recent` messages a day old (unread unless
    /// `oldRead` is false), by alice and bob, plus one user whose only message is old.
    static func timelineFile(in scenario: Scenario, old: Int, recent: Int, oldRead: Bool = true) throws -> String {
        let now = Date()
        func time(_ secondsAgo: Double) -> String { now.addingTimeInterval(-secondsAgo).formatted(.iso8601) }
        var lines = [
            #"{"type":"user","id":"u1","handle":"alice","name":"Alice"}"#,
            #"{"type":"user","id":"u2","handle":"bob","name":"Bob"}"#,
            #"{"type":"user","id":"u3","handle":"gone","name":"Gone Soon"}"#,
        ]
        for n in 0..<old {
            let read = oldRead ? n % 2 == 0 : false
            lines.append(#"{"type":"message","id":"old\#(n)","author":"u\#(n % 2 + 1)","text":"old \#(n)","created_at":"\#(time(400 * 86_400 + Double(n)))","read":\#(read)}"#)
        }
        lines.append(#"{"type":"message","id":"gone1","author":"u3","text":"bye","created_at":"\#(time(500 * 86_400))","read":true}"#)
        for n in 0..<recent {
            lines.append(#"{"type":"message","id":"new\#(n)","author":"u\#(n % 2 + 1)","text":"new \#(n)","created_at":"\#(time(86_400 + Double(n)))"}"#)
        }
        let path = scenario.directory + "/timeline.jsonl"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func importTimeline(_ scenario: Scenario, old: Int = 20, recent: Int = 5) throws {
        let result = try scenario.timeline.run(["import", try timelineFile(in: scenario, old: old, recent: recent)])
        #expect(result.status == 0, "\(result.errors)")
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    // MARK: doctor

    @Test func doctorSaysAHealthyTimelineIsHealthy() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let result = try scenario.timeline.run(["doctor"])
        #expect(result.status == 0)
        #expect(result.output.contains("integrity_check: ok"))
        #expect(result.output.contains("Healthy."))

        let json = try scenario.timeline.run(["doctor", "--json", "--quick"])
        #expect(json.status == 0)
        let object = try Self.json(json.output)
        #expect(object["healthy"] as? Bool == true)
        #expect(object["check"] as? String == "quick_check")
        #expect(object["snapshot_status"] as? String == "fresh")
        #expect(object["messages"] as? Int == 337)
        #expect((object["problems"] as? [Any])?.isEmpty == true)
    }

    @Test func doctorReportsAStaleSnapshotAndWhatToDo() throws {
        let scenario = Scenario()
        try scenario.importSample()
        try scenario.sqlite("DELETE FROM messages WHERE id IN (SELECT id FROM messages LIMIT 1)")
        let result = try scenario.timeline.run(["doctor"])
        #expect(result.status == 3)
        #expect(result.output.contains("stale"))
        #expect(result.output.contains("timeline snapshot"))

        #expect(try scenario.timeline.run(["snapshot"]).status == 0)
        #expect(try scenario.timeline.run(["doctor"]).status == 0)
    }

    @Test func doctorReportsAMissingAndACorruptSnapshot() throws {
        let scenario = Scenario()
        try scenario.importSample()
        try FileManager.default.removeItem(atPath: scenario.snapshotPath)
        let missing = try scenario.timeline.run(["doctor", "--json"])
        #expect(missing.status == 4)
        #expect(try Self.json(missing.output)["snapshot_status"] as? String == "missing")

        try Data("garbage".utf8).write(to: URL(fileURLWithPath: scenario.snapshotPath))
        let corrupt = try scenario.timeline.run(["doctor", "--json"])
        #expect(corrupt.status == 5)
        let object = try Self.json(corrupt.output)
        #expect(object["snapshot_status"] as? String == "corrupt")
        #expect((object["snapshot_reason"] as? String)?.contains("not a timeline snapshot") == true)
    }

    @Test func doctorReportsADamagedDatabaseWithoutCrashingOrChangingIt() throws {
        let scenario = Scenario()
        try Self.importTimeline(scenario, old: 3000, recent: 10)
        try scenario.sqlite("PRAGMA wal_checkpoint(TRUNCATE)")
        let rootPage = try #require(Int(try scenario.sqlite("SELECT rootpage FROM sqlite_master WHERE name = 'messages_by_time'")))
        var bytes = try #require(scenario.fileBytes(scenario.databasePath))
        #expect(bytes.count > 50 * 4096)
        let start = (rootPage - 1) * 4096
        bytes.replaceSubrange(start ..< start + 4000, with: Data(repeating: 0xA5, count: 4000))
        try bytes.write(to: URL(fileURLWithPath: scenario.databasePath))

        let result = try scenario.timeline.run(["doctor"])
        #expect(result.status == 65)
        #expect(result.output.contains("damaged"))
        #expect(result.output.contains(".recover"))
        #expect(scenario.fileBytes(scenario.databasePath) == bytes)

        let json = try scenario.timeline.run(["doctor", "--json"])
        #expect(json.status == 65)
        let problems = try #require(try Self.json(json.output)["problems"] as? [[String: Any]])
        #expect(problems.first?["kind"] as? String == "damaged")
    }

    @Test func doctorReportsAFileThatIsNotADatabase() throws {
        let scenario = Scenario()
        try Data(String(repeating: "shopping list\n", count: 500).utf8).write(to: URL(fileURLWithPath: scenario.databasePath))
        let result = try scenario.timeline.run(["doctor"])
        #expect(result.status == 65)
        #expect(result.output.contains("not an SQLite database"))
    }

    @Test func doctorOnNoDatabaseSaysSoAndCreatesNothing() throws {
        let scenario = Scenario()
        let result = try scenario.timeline.run(["doctor"])
        #expect(result.status == 66)
        #expect(result.output.contains("no database"))
        #expect(!FileManager.default.fileExists(atPath: scenario.databasePath))
        #expect(!FileManager.default.fileExists(atPath: scenario.snapshotPath))
    }

    // MARK: prune

    @Test func pruneRemovesOldMessagesAndTheSnapshotFollows() throws {
        let scenario = Scenario()
        try Self.importTimeline(scenario)
        let result = try scenario.timeline.run(["prune", "--older-than", "30d", "--yes"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.hasPrefix("Removed 21 messages and 1 user older than 30 days"))
        #expect(try scenario.sqlite("SELECT count(*) FROM messages") == "5")
        #expect(try scenario.sqlite("SELECT group_concat(id) FROM users ORDER BY id") == "u1,u2")
        #expect(try scenario.timeline.run(["snapshot", "--check"]).status == 0)
        #expect(try scenario.timeline.run(["doctor"]).status == 0)
    }

    @Test func pruneKeepsUnreadMessagesWhenAsked() throws {
        let scenario = Scenario()
        try Self.importTimeline(scenario)
        let result = try scenario.timeline.run(["prune", "--older-than", "2w", "--keep-unread", "--yes"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("kept 10 unread"))
        #expect(try scenario.sqlite("SELECT count(*) FROM messages WHERE id LIKE 'old%'") == "10")
        #expect(try scenario.sqlite("SELECT count(*) FROM messages WHERE id LIKE 'old%' AND seq NOT IN (SELECT seq FROM unread_messages)") == "0")
    }

    @Test func aDryRunChangesNothing() throws {
        let scenario = Scenario()
        try Self.importTimeline(scenario)
        try scenario.sqlite("PRAGMA wal_checkpoint(TRUNCATE)")
        let before = scenario.fileBytes(scenario.databasePath)
        let snapshot = scenario.fileBytes(scenario.snapshotPath)
        let result = try scenario.timeline.run(["prune", "--older-than", "1y", "--dry-run"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("Would remove 21 messages and 1 user older than 1 year"))
        #expect(result.output.contains("Nothing was changed."))
        #expect(scenario.fileBytes(scenario.databasePath) == before)
        #expect(scenario.fileBytes(scenario.snapshotPath) == snapshot)
        #expect(try scenario.sqlite("SELECT count(*) FROM messages") == "26")
    }

    @Test func aBadDurationIsAUsageErrorNamingTheFlag() throws {
        let scenario = Scenario()
        try Self.importTimeline(scenario)
        for bad in ["30", "30x", "d", "-5d", "0d", "1.5d", "30 d", "٣d"] {
            let result = try scenario.timeline.run(["prune", "--older-than", bad])
            #expect(result.status == 64, "\(bad)")
            #expect(result.errors.contains("--older-than"), "\(bad)")
        }
        #expect(try scenario.sqlite("SELECT count(*) FROM messages") == "26")
    }

    @Test func pruneWithoutADatabaseCreatesNone() throws {
        let scenario = Scenario()
        let result = try scenario.timeline.run(["prune", "--older-than", "30d", "--yes"])
        #expect(result.status == 66)
        #expect(!FileManager.default.fileExists(atPath: scenario.databasePath))
    }

    // MARK: the automatic upkeep

    @Test func showNeverRunsTheUpkeepAndAWriteCommandRunsItWhenDue() throws {
        let scenario = Scenario()
        try Self.importTimeline(scenario)
        let eightDaysAgo = Int64((Date().timeIntervalSince1970 - 8 * 86_400) * 1000)
        // A stale snapshot too, so that `show` writes one.
        try scenario.sqlite("UPDATE maintenance SET last_run_at = \(eightDaysAgo); DELETE FROM messages WHERE id = 'new0'")
        #expect(try scenario.timeline.run(["show", "-n", "2"]).status == 0)
        #expect(try scenario.timeline.run(["snapshot", "--check"]).status == 0)
        #expect(try scenario.sqlite("SELECT last_run_at FROM maintenance") == "\(eightDaysAgo)")

        #expect(try scenario.timeline.run(["mark-read", "--all"]).status == 0)
        let last = try #require(Int64(try scenario.sqlite("SELECT last_run_at FROM maintenance")))
        #expect(last > eightDaysAgo + 7 * 86_400_000)
    }

    // MARK: vacuum

    @Test func vacuumRewritesTheDatabaseAndKeepsTheSnapshotFresh() throws {
        let scenario = Scenario()
        try Self.importTimeline(scenario, old: 2000, recent: 5)
        #expect(try scenario.timeline.run(["prune", "--older-than", "30d", "--yes"]).status == 0)
        let result = try scenario.timeline.run(["vacuum"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.hasPrefix("Vacuumed"))
        #expect(try scenario.timeline.run(["snapshot", "--check"]).status == 0)
        #expect(try scenario.sqlite("PRAGMA auto_vacuum") == "2")
        #expect(try scenario.sqlite("SELECT count(*) FROM messages") == "5")
    }
}
