import Foundation
import Testing
@testable import TimelineKit

@Suite struct VacuumTests {
    static let longText = String(repeating: "a message long enough to fill pages quickly ", count: 20)

    static func messages(_ range: ClosedRange<Int>) -> [Message] {
        range.map { Samples.message($0, text: "\($0) \(longText)") }
    }

    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    @Test func aNewDatabaseHasIncrementalAutoVacuum() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        #expect(try SQLiteShell.run(store.path, "PRAGMA auto_vacuum").trimmed == "2")
    }

    @Test func aLargePruneGivesTheSpaceBackOnANewDatabase() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Self.messages(1...3000))
        try store.maintain()
        let before = Self.size(store.path)
        let summary = try store.prune(olderThan: Samples.epoch.addingTimeInterval(2700 * 60))
        #expect(summary.messagesRemoved == 2699)
        let maintenance = try #require(summary.maintenance)
        #expect(maintenance.pagesReleased > 0)
        #expect(maintenance.walTruncated)
        #expect(Self.size(store.path) < before / 4)
        #expect(Self.size(store.path + "-wal") == 0)
        #expect(try store.snapshotStatus().isFresh)
    }

    @Test func vacuumShrinksAnOlderDatabaseAfterALargePruneAndSwitchesItToIncremental() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("timeline.sqlite")
        // Created the way databases were before incremental auto-vacuum: WAL first, no auto-vacuum.
        try SQLiteShell.run(path, "PRAGMA journal_mode = WAL")
        let store = try TimelineStore(path: path)
        try store.upsert(users: [Samples.alice])
        try store.upsert(messages: Self.messages(1...3000))
        #expect(try SQLiteShell.run(path, "PRAGMA auto_vacuum").trimmed == "0")

        let pruned = try store.prune(olderThan: Samples.epoch.addingTimeInterval(2700 * 60))
        #expect(pruned.maintenance?.pagesReleased == 0)
        #expect(pruned.freeableBytes > 0)
        let afterPrune = Self.size(path)

        let summary = try store.vacuum()
        #expect(summary.walTruncated)
        #expect(Self.size(path) < afterPrune / 4)
        #expect(summary.bytesAfter < summary.bytesBefore)
        #expect(try SQLiteShell.run(path, "PRAGMA auto_vacuum").trimmed == "2")
        // Vacuum changes no message: the snapshot stays fresh, the data is all there.
        #expect(try store.snapshotStatus().isFresh)
        #expect(try store.state().messageCount == 301)
        #expect(try store.timeline(limit: 1).messages.map(\.id) == ["m3000"])
    }

    @Test func theWALIsBoundedAfterALargeImport() throws {
        let directory = TemporaryDirectory()
        let limit = 256 << 10
        let store = try Samples.store(in: directory, configuration: .init(maintenance: MaintenancePolicy(walSizeLimit: limit)))
        try store.upsert(messages: Self.messages(1...3000))
        #expect(Self.size(store.path + "-wal") <= limit)
    }

    @Test func withoutTheBoundOneLargeImportLeavesALargeWAL() throws {
        // The control for the test above: the bound is what keeps the WAL small.
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory, configuration: .init(maintenance: MaintenancePolicy(walSizeLimit: .max)))
        try store.upsert(messages: Self.messages(1...3000))
        #expect(Self.size(store.path + "-wal") > 256 << 10)
    }

    @Test func theWeeklyUpkeepRunsFromAWriteOnceItIsDue() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        let created = try #require(try store.lastMaintenance())
        try store.upsert(messages: [Samples.message(1)])
        #expect(try store.lastMaintenance() == created)  // not due yet

        let eightDaysAgo = Int64((Date().timeIntervalSince1970 - 8 * 86_400) * 1000)
        try SQLiteShell.run(store.path, "UPDATE maintenance SET last_run_at = \(eightDaysAgo)")
        // Reads never run it: `timeline show` reads and rewrites the snapshot only.
        _ = try store.timeline(limit: 5)
        try store.writeSnapshot(force: true)
        #expect(try store.lastMaintenance().map { MillisecondTime.milliseconds(from: $0) } == eightDaysAgo)

        try store.upsert(messages: [Samples.message(2)])
        let last = try #require(try store.lastMaintenance())
        #expect(Date().timeIntervalSince(last) < 3600)
    }

    @Test func noIntervalMeansNoAutomaticUpkeep() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory, configuration: .init(maintenance: MaintenancePolicy(interval: nil)))
        let eightDaysAgo = Int64((Date().timeIntervalSince1970 - 8 * 86_400) * 1000)
        try SQLiteShell.run(store.path, "UPDATE maintenance SET last_run_at = \(eightDaysAgo)")
        try store.upsert(messages: [Samples.message(1)])
        #expect(try store.lastMaintenance().map { MillisecondTime.milliseconds(from: $0) } == eightDaysAgo)
    }
}
