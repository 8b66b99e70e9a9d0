import Foundation
import Testing
@testable import TimelineKit

/// Another program's file where the timeline's database should be: refused, and left exactly as
/// it was (issue 12, item 4).
@Suite struct ForeignDatabaseTests {
    /// Files a timeline must not take for its own.
    enum Foreign: String, CaseIterable, CustomTestStringConvertible {
        case tablesInRollbackMode, tablesInWALMode, userVersion2WithTimelineTableNames, userVersion4, userVersion5
        case otherApplicationID, emptySchemaWithOtherApplicationID, text, fewBytes

        var testDescription: String { rawValue }

        func make(at path: String) throws {
            switch self {
            case .tablesInRollbackMode:
                try SQLiteShell.run(path, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')")
            case .tablesInWALMode:
                try SQLiteShell.run(path, "PRAGMA journal_mode = WAL; CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')")
            case .userVersion2WithTimelineTableNames:
                // The names, not the columns: still someone else's.
                try SQLiteShell.run(path, """
                    CREATE TABLE users (x); CREATE TABLE messages (y); CREATE TABLE timeline_state (singleton, z);
                    INSERT INTO timeline_state VALUES (1, 2); PRAGMA user_version = 2
                    """)
            case .userVersion4:
                try SQLiteShell.run(path, "CREATE TABLE notes (body TEXT); PRAGMA user_version = 4")
            case .userVersion5:
                try SQLiteShell.run(path, "CREATE TABLE notes (body TEXT); PRAGMA user_version = 5")
            case .otherApplicationID:
                try SQLiteShell.run(path, "PRAGMA application_id = 7; CREATE TABLE notes (body TEXT)")
            case .emptySchemaWithOtherApplicationID:
                try SQLiteShell.run(path, "PRAGMA application_id = 7; VACUUM")
            case .text:
                try Data(String(repeating: "just some notes\n", count: 300).utf8).write(to: URL(fileURLWithPath: path))
            case .fewBytes:
                try Data("SQLite".utf8).write(to: URL(fileURLWithPath: path))
            }
        }
    }

    /// How the commands open a store: writers, readers, and `show` (short timeout, size limit).
    static let configurations: [TimelineStore.Configuration] = [
        .init(),
        .init(createIfMissing: false),
        .init(createIfMissing: false, busyTimeout: .milliseconds(100), migrationSizeLimit: 32 << 20),
    ]

    @Test(arguments: Foreign.allCases)
    func anotherProgramsFileIsRefusedAndLeftByteForByte(_ foreign: Foreign) throws {
        let directory = TemporaryDirectory()
        let path = directory.file("app.db")
        try foreign.make(at: path)
        let before = try FileFingerprint(path)

        for configuration in Self.configurations {
            #expect {
                try TimelineStore(path: path, configuration: configuration)
            } throws: { error in
                guard case .notATimelineDatabase = error as? TimelineStoreError else { return false }
                return true
            }
        }
        #expect {
            try TimelineStore.schemaVersion(ofDatabaseAt: path)
        } throws: { error in
            guard case .notATimelineDatabase = error as? TimelineStoreError else { return false }
            return true
        }
        #expect(TimelineStore.checkHealth(path: path).problems.map(\.kind) == [.notADatabase])
        #expect(try FileFingerprint(path) == before)
    }

    /// A program that crashed (or still runs) leaves its commits in the `-wal`: reading them is
    /// allowed, copying them into the main file (a checkpoint) is not.
    @Test func aForeignDatabaseWithCommitsStillInItsWALIsRefusedWithoutACheckpoint() throws {
        let directory = TemporaryDirectory()
        let live = directory.file("live/app.db")
        try FileManager.default.createDirectory(atPath: directory.file("live"), withIntermediateDirectories: false)
        let path = directory.file("app.db")
        // Copies the three files while the shell holds them open, as a crash would leave them.
        try ExternalCommand.run("/usr/bin/sqlite3", [
            live, "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;",
            "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('only in the WAL');",
            ".shell cp \(live) \(path) && cp \(live)-wal \(path)-wal && cp \(live)-shm \(path)-shm",
        ])
        let walBefore = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
        #expect(!walBefore.isEmpty)
        let before = try FileFingerprint(path)

        #expect {
            try TimelineStore(path: path)
        } throws: { error in
            guard case .notATimelineDatabase = error as? TimelineStoreError else { return false }
            return true
        }
        #expect(TimelineStore.checkHealth(path: path).problems.map(\.kind) == [.notADatabase])
        #expect(try FileFingerprint(path) == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + "-wal")) == walBefore)
    }

    /// SQLite's header, as the file holds it: bytes 18-19 the journal mode (2: WAL), 60-63 the
    /// user version, 68-71 the application ID, big-endian.
    static func header(of path: String) throws -> (wal: Bool, userVersion: [UInt8], applicationID: String) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(100))
        return (bytes[18] == 2 && bytes[19] == 2, Array(bytes[60..<64]), String(decoding: bytes[68..<72], as: UTF8.self))
    }

    @Test func aNewDatabaseCarriesTheApplicationIDInItsHeaderFromItsFirstWrite() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        let header = try Self.header(of: store.path)
        #expect(header.applicationID == "TMLN")
        #expect(header.wal)
        #expect(try SQLiteShell.run(store.path, "PRAGMA application_id").trimmed == "1414351950")
    }

    /// A database of the schema before the application ID (version 4)
    /// is recognised by its tables, gets the ID from migration 5 (with the migrations after it,
    /// within `show`'s size limit: migration 7 builds an index), and has it in the file's header
    /// after opening.
    @Test func anOlderTimelineDatabaseIsRecognisedAndMarked() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("timeline.sqlite")
        try TimelineStore(path: path).upsert(users: [Samples.alice], messages: [Samples.message(1)])
        try Samples.downgradeToSchemaVersion4(path)

        let store = try TimelineStore(path: path, configuration: .init(createIfMissing: false, migrationSizeLimit: 32 << 20))
        #expect(try store.timeline(limit: 5).messages.map(\.id) == ["m1"])
        let header = try Self.header(of: path)
        #expect(header.applicationID == "TMLN")
        #expect(header.userVersion == [0, 0, 0, UInt8(Migration.latestVersion)])
    }

    @Test func theVersion1FixtureIsStillRecognisedAsATimelineDatabase() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("timeline.sqlite")
        try FileManager.default.copyItem(atPath: Fixtures.path("schema-v1.sqlite"), toPath: path)
        #expect(try TimelineStore.schemaVersion(ofDatabaseAt: path) == 1)
        #expect(try TimelineStore(path: path, configuration: .init(createIfMissing: false)).state().messageCount == 3)
    }
}
