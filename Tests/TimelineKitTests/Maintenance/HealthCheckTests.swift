import Foundation
import Testing
@testable import TimelineKit

@Suite struct HealthCheckTests {
    /// A store of `count` messages with long texts, so that the database spans many pages.
    static func filledStore(in directory: TemporaryDirectory, count: Int = 2000) throws -> TimelineStore {
        let store = try Samples.store(in: directory)
        let text = String(repeating: "a fairly long message body ", count: 8)
        try store.upsert(messages: (1...count).map { Samples.message($0, text: "\($0) \(text)") })
        return store
    }

    @Test func aHealthyTimelineHasNoProblems() throws {
        let directory = TemporaryDirectory()
        let store = try Self.filledStore(in: directory, count: 50)
        let report = store.checkHealth()
        #expect(report.problems == [])
        #expect(report.isHealthy)
        #expect(report.integrity == ["ok"])
        #expect(report.schemaVersion == Migration.latestVersion)
        #expect(report.snapshotStatus?.isFresh == true)
        #expect(report.state?.messageCount == 50)
        #expect(report.autoVacuum == "incremental")
        #expect(report.pageCount ?? 0 > 1)
        #expect(report.databaseBytes > 0)
        #expect(report.lastMaintenance != nil)
    }

    @Test func theQuickCheckRunsQuickCheck() throws {
        let directory = TemporaryDirectory()
        let store = try Self.filledStore(in: directory, count: 10)
        let report = store.checkHealth(thorough: false)
        #expect(!report.thorough)
        #expect(report.integrity == ["ok"])
        #expect(report.isHealthy)
    }

    @Test func aStaleSnapshotIsReportedWithWhatToDo() throws {
        let directory = TemporaryDirectory()
        let store = try Self.filledStore(in: directory, count: 10)
        try SQLiteShell.run(store.path, "DELETE FROM messages WHERE id = 'm1'")
        let report = store.checkHealth()
        #expect(report.problems.map(\.kind) == [.snapshotStale])
        #expect(report.problems.first?.remedy.contains("timeline snapshot") == true)
        #expect(!report.isHealthy)
        guard case .stale(_, _, sameDatabase: true)? = report.snapshotStatus else {
            Issue.record("expected a stale snapshot, got \(String(describing: report.snapshotStatus))")
            return
        }
    }

    @Test func aMissingSnapshotIsReported() throws {
        let directory = TemporaryDirectory()
        let store = try Self.filledStore(in: directory, count: 10)
        try FileManager.default.removeItem(atPath: store.snapshotFile.path)
        let report = store.checkHealth()
        #expect(report.problems.map(\.kind) == [.snapshotMissing])
        #expect(report.snapshotStatus == .missing)
    }

    @Test func aCorruptSnapshotIsReportedWithTheReason() throws {
        let directory = TemporaryDirectory()
        let store = try Self.filledStore(in: directory, count: 10)
        try Data("not a snapshot at all".utf8).write(to: URL(fileURLWithPath: store.snapshotFile.path))
        let report = store.checkHealth()
        #expect(report.problems.map(\.kind) == [.snapshotUnusable])
        #expect(report.problems.first?.detail.contains("not a timeline snapshot") == true)
    }

    @Test func aDamagedDatabaseIsReportedNotFatalAndLeftAsItWas() throws {
        let directory = TemporaryDirectory()
        let path = try Self.filledStore(in: directory).path
        try SQLiteShell.run(path, "PRAGMA wal_checkpoint(TRUNCATE)")
        // Overwrite the middle of the index's root page (an interior page of a multi-page B-tree)
        // with a pattern no valid page holds.
        let rootPage = try #require(Int(try SQLiteShell.run(path, "SELECT rootpage FROM sqlite_master WHERE name = 'messages_by_time'").trimmed))
        let pageCount = try #require(Int(try SQLiteShell.run(path, "PRAGMA page_count").trimmed))
        #expect(pageCount > 100 && rootPage > 1)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let start = (rootPage - 1) * 4096
        bytes.replaceSubrange(start ..< start + 4000, with: Data(repeating: 0xA5, count: 4000))
        try bytes.write(to: URL(fileURLWithPath: path))

        let report = TimelineStore.checkHealth(path: path)
        #expect(report.problems.first?.kind == .damaged)
        #expect(report.integrity != ["ok"] && !report.integrity.isEmpty)
        #expect(report.problems.first?.remedy.contains(".recover") == true)
        #expect(!report.isHealthy)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test func aFileThatIsNotADatabaseIsReported() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("timeline.sqlite")
        let text = Data(String(repeating: "just some notes, not a database\n", count: 200).utf8)
        try text.write(to: URL(fileURLWithPath: path))
        let report = TimelineStore.checkHealth(path: path)
        #expect(report.problems.map(\.kind) == [.notADatabase])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == text)
    }

    @Test func anotherProgramsDatabaseIsNotATimelineDatabase() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("other.sqlite")
        try SQLiteShell.run(path, "CREATE TABLE recipes (name TEXT)")
        let report = TimelineStore.checkHealth(path: path)
        #expect(report.problems.map(\.kind) == [.notADatabase])
    }

    /// As for every other command, an empty file is no timeline yet, and stays as it was.
    @Test func anEmptyFileIsReportedAsNoTimelineYetAndLeftAsItWas() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("timeline.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let before = try FileFingerprint(path)
        #expect(TimelineStore.checkHealth(path: path).problems.map(\.kind) == [.databaseMissing])
        #expect(try FileFingerprint(path) == before)
    }

    @Test func aMissingDatabaseIsReportedAndNotCreated() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("nothing/timeline.sqlite")
        let report = TimelineStore.checkHealth(path: path)
        #expect(report.problems.map(\.kind) == [.databaseMissing])
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: directory.file("nothing")))
    }

    @Test func countsThatDisagreeWithTheTablesAreReported() throws {
        let directory = TemporaryDirectory()
        let store = try Self.filledStore(in: directory, count: 10)
        try SQLiteShell.run(store.path, "UPDATE timeline_state SET unread_count = 99")
        let report = store.checkHealth()
        #expect(report.problems.map(\.kind) == [.countsDisagree])
    }

    @Test func aDatabaseFromANewerTimelineIsReported() throws {
        let directory = TemporaryDirectory()
        let store = try Self.filledStore(in: directory, count: 10)
        try SQLiteShell.run(store.path, "PRAGMA user_version = \(Migration.latestVersion + 1)")
        let report = store.checkHealth()
        #expect(report.problems.map(\.kind) == [.newerSchema])
    }

    @Test func muchFreeSpaceIsAdviceNotAFailure() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("timeline.sqlite")
        // Created without auto-vacuum, as databases of earlier versions were.
        try SQLiteShell.run(path, "PRAGMA journal_mode = WAL")
        let store = try TimelineStore(path: path)
        try store.upsert(users: [Samples.alice])
        let text = String(repeating: "x", count: 2000)
        try store.upsert(messages: (1...2000).map { Samples.message($0, text: text) })
        try store.prune(olderThan: Samples.epoch.addingTimeInterval(1900 * 60))
        let report = store.checkHealth()
        #expect(report.problems.map(\.kind) == [.manyFreePages])
        #expect(report.isHealthy)
        #expect(report.problems.first?.remedy.contains("timeline vacuum") == true)
    }
}
