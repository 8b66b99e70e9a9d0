import Foundation
import Testing
@testable import TimelineKit

@Suite struct MigrationTests {
    @Test func creatingADatabaseAppliesEveryMigrationAndEnablesWAL() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("new/timeline.sqlite")
        let store = try TimelineStore(path: path)
        try store.upsert(users: [Samples.alice])
        #expect(try SQLiteShell.run(path, "PRAGMA user_version").trimmed == "\(Migration.latestVersion)")
        #expect(try SQLiteShell.run(path, "PRAGMA application_id").trimmed == "1414351950")  // "TMLN"
        #expect(try SQLiteShell.run(path, "PRAGMA journal_mode").trimmed == "wal")
        #expect(try store.state().generation == 1)
        #expect(try store.state().databaseID.count == 32)
    }

    @Test func theApplicationIDMigrationSetsTheIdentityConstant() {
        #expect(Migration.all[4].sql.contains("PRAGMA application_id = \(DatabaseIdentity.applicationID);"))
        #expect(DatabaseIdentity.applicationID == 0x544D_4C4E)  // "TMLN", as the README says
    }

    @Test func anEmptyFileBecomesATimelineDatabase() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("timeline.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let store = try TimelineStore(path: path)
        try store.upsert(users: [Samples.alice], messages: [Samples.message(1)])
        #expect(try store.state().messageCount == 1)
    }

    @Test func aVersion1DatabaseFromTheFixturesOpensWithItsData() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("timeline.sqlite")
        try FileManager.default.copyItem(atPath: Fixtures.path("schema-v1.sqlite"), toPath: path)
        #expect(try SQLiteShell.run(path, "PRAGMA user_version").trimmed == "1")

        let store = try TimelineStore(path: path)
        #expect(try SQLiteShell.run(path, "PRAGMA user_version").trimmed == "\(Migration.latestVersion)")
        let page = try store.timeline(limit: 10)
        #expect(page.messages.map(\.id) == ["113000000000000003", "113000000000000002", "113000000000000001"])
        #expect(page.usersByID["1"]?.handle == "ada")
        #expect(try store.state().unreadCount == 2)
        // It still takes writes and tracks them.
        let before = try store.state().generation
        try store.markAllRead()
        #expect(try store.state().generation > before)
        #expect(try store.state().unreadCount == 0)
    }

    @Test func aDatabaseFromANewerLibraryIsRefusedAndLeftUntouched() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("timeline.sqlite")
        try TimelineStore(path: path).upsert(users: [Samples.alice])
        try SQLiteShell.run(path, "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA user_version = \(Migration.latestVersion + 1)")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        #expect(throws: TimelineStoreError.databaseNewerThanLibrary(
            path: path, schemaVersion: Migration.latestVersion + 1, newestKnown: Migration.latestVersion)) {
            try TimelineStore(path: path)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func anotherProgramsSQLiteDatabaseIsRefused() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("other.sqlite")
        try SQLiteShell.run(path, "CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES ('mine')")
        #expect {
            try TimelineStore(path: path)
        } throws: { error in
            guard case .notATimelineDatabase = error as? TimelineStoreError else { return false }
            return true
        }
        #expect(try SQLiteShell.run(path, "SELECT name FROM sqlite_master").trimmed == "notes")
    }

    @Test func aFileThatIsNotSQLiteIsRefused() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("timeline.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        #expect {
            try TimelineStore(path: path)
        } throws: { error in
            guard case .notATimelineDatabase = error as? TimelineStoreError else { return false }
            return true
        }
    }

    @Test func openingWithoutCreateRefusesAMissingDatabase() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("timeline.sqlite")
        #expect(throws: TimelineStoreError.databaseMissing(path: path)) {
            try TimelineStore(path: path, configuration: .init(createIfMissing: false))
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func theDatabaseAndItsDirectoryAreCreatedPrivate() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("data/timeline/timeline.sqlite")
        let oldMask = umask(0)
        defer { umask(oldMask) }
        let store = try TimelineStore(path: path)
        try store.upsert(users: [Samples.alice], messages: [Samples.message(1)])
        #expect(try FileSystem.permissions(at: directory.file("data")) == 0o700)
        #expect(try FileSystem.permissions(at: directory.file("data/timeline")) == 0o700)
        #expect(try FileSystem.permissions(at: path) == 0o600)
        #expect(try FileSystem.permissions(at: path + "-wal") == 0o600)
        #expect(try FileSystem.permissions(at: store.snapshotFile.path) == 0o600)
    }
}
