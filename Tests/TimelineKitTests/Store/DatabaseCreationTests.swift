import Foundation
import Testing
@testable import TimelineKit

/// Where there is no database, nothing is created before a write commits (issue 12, item 6).
@Suite struct DatabaseCreationTests {
    struct Refused: Error {}

    @Test func aStoreOpenedWhereThereIsNoDatabaseCreatesNothingBeforeAWriteCommits() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("data/timeline/timeline.sqlite")
        let store = try TimelineStore(path: path)

        // Reads see an empty timeline.
        #expect(try store.state().messageCount == 0)
        #expect(try store.timeline(limit: 10).messages.isEmpty)
        #expect(try store.users(handle: "alice").isEmpty)
        #expect(try store.search("coffee", limit: 10).results.isEmpty)
        #expect(try store.snapshotStatus() == .missing)
        #expect(throws: TimelineStoreError.databaseMissing(path: path)) { try store.writeSnapshot() }
        #expect(throws: TimelineStoreError.databaseMissing(path: path)) { try store.vacuum() }

        // Writes that fail leave nothing: no directory, no file, no temporary file.
        #expect(throws: Refused.self) { try store.write { _ in throw Refused() } }
        #expect(throws: TimelineStoreError.unknownAuthor(messageID: "m1", authorID: "u1")) {
            try store.upsert(messages: [Samples.message(1)])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])

        // The first write that commits creates it all, private, in WAL mode, with its snapshot.
        let oldMask = umask(0)
        defer { umask(oldMask) }
        try store.upsert(users: [Samples.alice], messages: [Samples.message(1)])
        #expect(try FileSystem.permissions(at: directory.file("data")) == 0o700)
        #expect(try FileSystem.permissions(at: directory.file("data/timeline")) == 0o700)
        #expect(try FileSystem.permissions(at: path) == 0o600)
        #expect(try SQLiteShell.run(path, "PRAGMA journal_mode").trimmed == "wal")
        #expect(try store.snapshotStatus().isFresh)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.file("data/timeline")).sorted()
            == ["timeline.snapshot", "timeline.snapshot.lock", "timeline.sqlite", "timeline.sqlite-shm", "timeline.sqlite-wal"])
        // The store now reads the file, not the empty timeline it read before.
        #expect(try store.timeline(limit: 10).messages.map(\.id) == ["m1"])
        #expect(try TimelineStore(path: path).state() == store.state())
    }

    /// SQLite writes the auto-vacuum mode into an empty file before any transaction can start, so
    /// a failed first write leaves an SQLite database holding nothing: still no timeline to every
    /// command, as the empty file was.
    @Test func anEmptyFileStaysNoTimelineAfterAFailedWriteAndIsFilledByOneThatCommits() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("timeline.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let store = try TimelineStore(path: path)
        #expect(throws: TimelineStoreError.unknownAuthor(messageID: "m1", authorID: "u1")) {
            try store.upsert(messages: [Samples.message(1)])
        }
        #expect(throws: TimelineStoreError.databaseMissing(path: path)) {
            try TimelineStore(path: path, configuration: .init(createIfMissing: false))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["timeline.sqlite"])

        try store.upsert(users: [Samples.alice], messages: [Samples.message(1)])
        #expect(try store.state().messageCount == 1)
        #expect(try SQLiteShell.run(path, "PRAGMA journal_mode").trimmed == "wal")
    }

    @Test func anEmptyFileIsNoTimelineForAStoreThatMustNotCreateOne() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("timeline.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let before = try FileFingerprint(path)
        #expect(throws: TimelineStoreError.databaseMissing(path: path)) {
            try TimelineStore(path: path, configuration: .init(createIfMissing: false))
        }
        #expect(try FileFingerprint(path) == before)
    }

    @Test func aDatabaseThatAnotherStoreCreatedMeanwhileTakesTheWrite() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("timeline.sqlite")
        let first = try TimelineStore(path: path)
        let second = try TimelineStore(path: path)
        try second.upsert(users: [Samples.bob])
        #expect(try first.users(ids: [Samples.bob.id]).isEmpty)  // still the empty timeline
        try first.upsert(users: [Samples.alice], messages: [Samples.message(1)])
        #expect(try first.state().userCount == 2)
        #expect(try second.timeline(limit: 5).messages.map(\.id) == ["m1"])
    }
}
