import Foundation
import Testing
@testable import TimelineKit

/// "Nothing changed, nothing opened" (issue 38): a stamp answers for a database whose files did
/// not change, and every way there is to write one makes it answer no more. Each write test first
/// checks that the stamp answers (so that it can fail), then writes, then expects no answer and
/// a reconcile that sees what was written.
@Suite struct UnchangedDatabaseTests {
    /// A store of 30 messages with a fresh snapshot of 10, its preview, and a stamp once the
    /// files' times have settled (a few milliseconds after the last write).
    private func stamped(_ directory: TemporaryDirectory) throws -> (TimelineStore, SnapshotPreview) {
        let store = try Samples.store(in: directory, configuration: .init(snapshotLimit: 10))
        try store.upsert(messages: Samples.messages(1...30))
        try stampSettled(store)
        let preview = try store.snapshotFile.readPreview(messages: 5)
        let answered = TimelineStore.unchangedReconciliation(of: preview, databasePath: store.path)?.isSnapshotFresh == true
        #expect(answered)
        return (store, preview)
    }

    /// Stamps the store as soon as its files' times are settled (within 5 s).
    private func stampSettled(_ store: TimelineStore) throws {
        let deadline = Date().addingTimeInterval(5)
        var outcome = TimelineStore.StampOutcome.unsupported
        while Date() < deadline {
            outcome = try store.stampUnchangedDatabase()
            if case .stamped = outcome { return }
            usleep(1_000)
        }
        Issue.record("no stamp within 5 s: \(outcome)")
    }

    /// Whether the stamp answers for `preview` (a `Bool`, so that a failed expectation does not
    /// print the whole preview).
    private func unchanged(_ preview: SnapshotPreview, _ store: TimelineStore) -> Bool {
        TimelineStore.unchangedReconciliation(of: preview, databasePath: store.path) != nil
    }

    /// The newest message's text, as a new connection reads it.
    private func newestText(_ path: String) throws -> String? {
        try TimelineStore(path: path).timeline(limit: 1).messages.first?.text
    }

    private func walSize(_ store: TimelineStore) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: store.path + "-wal")[.size] as? Int) ?? -1
    }

    @Test func anUnchangedDatabaseIsAnsweredFromTheStampAsTheReconcileWould() throws {
        let directory = TemporaryDirectory()
        let (store, preview) = try stamped(directory)
        let answer = try #require(TimelineStore.unchangedReconciliation(of: preview, databasePath: store.path))
        let opened = try store.reconcile(preview)
        #expect(answer.window == opened.window)
        #expect(answer.isSnapshotFresh && opened.isSnapshotFresh)
        #expect(answer.changes == opened.changes)
    }

    /// The stamp answers only for a preview whose content checksum, left for after the paint,
    /// holds: a damaged one opens the database, whose reconcile answers from it.
    @Test func aPreviewWhoseContentChecksumFailsIsNotAnsweredFromTheStamp() throws {
        let directory = TemporaryDirectory()
        let (store, _) = try stamped(directory)
        var file = Array(try Data(contentsOf: URL(fileURLWithPath: store.snapshotFile.path)))
        file[file.count - 3] ^= 0x04
        try Data(file).write(to: URL(fileURLWithPath: store.snapshotFile.path))
        let damaged = try store.snapshotFile.readPreview(messages: 5)
        #expect(!unchanged(damaged, store))
        #expect(try store.reconcile(damaged).snapshotProblem != nil)
    }

    @Test func aWriteThroughTheLibraryIsSeen() throws {
        let directory = TemporaryDirectory()
        let (store, preview) = try stamped(directory)
        try store.upsert(messages: [Samples.message(31)])
        #expect(!unchanged(preview, store))
        #expect(try store.reconcile(preview).changes?.inserted == ["m31"])
    }

    /// The shell changes a text without touching `edited_at`: the files tell, whatever column.
    @Test func aWriteBySQLiteShellIsSeen() throws {
        let directory = TemporaryDirectory()
        let (store, preview) = try stamped(directory)
        try SQLiteShell.run(store.path, "UPDATE messages SET text = 'by the shell' WHERE id = 'm30'")
        #expect(!unchanged(preview, store))
        #expect(try store.reconcile(preview).changes?.updated == ["m30"])
    }

    /// Another process commits into the `-wal` and no checkpoint copies it into the database
    /// file: only the `-wal` changed.
    @Test func anotherProcesssWALWriteWithNoCheckpointIsSeen() throws {
        let directory = TemporaryDirectory()
        let (store, preview) = try stamped(directory)
        let databaseBefore = FileSystem.identity(at: store.path)
        try SQLiteShell.run(store.path, "PRAGMA wal_autocheckpoint = 0; UPDATE messages SET like_count = 7 WHERE id = 'm30'")
        #expect(FileSystem.identity(at: store.path) == databaseBefore)
        #expect(walSize(store) > 0)
        #expect(!unchanged(preview, store))
        #expect(try store.reconcile(preview).changes?.updated == ["m30"])
    }

    /// A checkpoint, then a write that starts the `-wal` over from its beginning: the `-wal`
    /// keeps its size, and only its times tell.
    @Test func aCheckpointAndAWriteThatRestartsTheWALAtTheSameSizeAreSeen() throws {
        let directory = TemporaryDirectory()
        let (store, first) = try stamped(directory)
        try SQLiteShell.run(store.path, "PRAGMA wal_autocheckpoint = 0; UPDATE messages SET like_count = 1 WHERE id = 'm30'")
        try store.writeSnapshot()
        try stampSettled(store)
        let preview = try store.snapshotFile.readPreview(messages: 5)
        #expect(preview.state.generation > first.state.generation)
        #expect(unchanged(preview, store))
        let size = walSize(store)
        try SQLiteShell.run(store.path, "PRAGMA wal_checkpoint(PASSIVE)")
        #expect(!unchanged(preview, store))
        try SQLiteShell.run(store.path, "PRAGMA wal_autocheckpoint = 0; UPDATE messages SET like_count = 2 WHERE id = 'm30'")
        #expect(walSize(store) == size)
        #expect(!unchanged(preview, store))
        #expect(try store.reconcile(preview).changes?.updated == ["m30"])
    }

    @Test func aVacuumIsSeen() throws {
        let directory = TemporaryDirectory()
        let (store, preview) = try stamped(directory)
        try SQLiteShell.run(store.path, "UPDATE messages SET text = 'before the vacuum' WHERE id = 'm30'; VACUUM")
        #expect(!unchanged(preview, store))
        #expect(try newestText(store.path) == "before the vacuum")
    }

    /// A write right after the stamp, in the same millisecond as often as the machine allows:
    /// the stamp was only written because the files' times were settled, so the write gives the
    /// `-wal` a later modification time whatever the clock's tick.
    @Test func aWriteInTheSameMillisecondAsTheStampIsSeen() throws {
        let directory = TemporaryDirectory()
        let (store, _) = try stamped(directory)
        for n in 31...60 {
            try stampSettled(store)
            let preview = try store.snapshotFile.readPreview(messages: 5)
            #expect(unchanged(preview, store))
            try store.upsert(messages: [Samples.message(n)])
            #expect(!unchanged(preview, store), "write \(n)")
        }
    }

    /// Another database moved over the path (`mv`): another inode, whatever its times and size.
    @Test func aDatabaseReplacedByRenameIsSeen() throws {
        let directory = TemporaryDirectory()
        let (store, _) = try stamped(directory)
        try SQLiteShell.run(store.path, "PRAGMA wal_checkpoint(TRUNCATE)")
        try stampSettled(store)
        let preview = try store.snapshotFile.readPreview(messages: 5)
        #expect(unchanged(preview, store))
        let other = directory.file("other.sqlite")
        try FileManager.default.copyItem(atPath: store.path, toPath: other)
        try SQLiteShell.run(other, "UPDATE messages SET text = 'from the other file' WHERE id = 'm30'")
        #expect(rename(other, store.path) == 0)
        #expect(!unchanged(preview, store))
        #expect(try newestText(store.path) == "from the other file")
    }

    /// An older copy put back with its older modification time (`cp -p`), written over the same
    /// inode at the same size: only the status-change time, which no program can set back, tells.
    @Test func anOlderCopyRestoredWithItsOlderTimeIsSeen() throws {
        let directory = TemporaryDirectory()
        let (store, _) = try stamped(directory)
        try SQLiteShell.run(store.path, "PRAGMA wal_checkpoint(TRUNCATE)")
        let copy = directory.file("copy.sqlite")
        try ExternalCommand.run("/bin/cp", ["-p", store.path, copy])
        try SQLiteShell.run(store.path, "UPDATE messages SET text = 'after the copy' WHERE id = 'm30'; PRAGMA wal_checkpoint(TRUNCATE)")
        try store.writeSnapshot()
        try stampSettled(store)
        let preview = try store.snapshotFile.readPreview(messages: 5)
        #expect(preview.head.messages.first?.text == "after the copy")
        #expect(unchanged(preview, store))
        let stamped = try #require(FileSystem.identity(at: store.path))
        try ExternalCommand.run("/bin/cp", ["-p", copy, store.path])
        let restored = try #require(FileSystem.identity(at: store.path))
        #expect(restored.inode == stamped.inode && restored.size == stamped.size)
        #expect(restored.modified < stamped.modified)
        #expect(!unchanged(preview, store))
        #expect(try newestText(store.path) == "message number 30")
    }

    /// The bytes changed, then both files' modification times set back to the stamped ones to the
    /// nanosecond (`touch -d`), at the same sizes: the status-change time, which no program can
    /// set, still tells.
    @Test func aChangeWhoseModificationTimesAreSetBackIsSeen() throws {
        let directory = TemporaryDirectory()
        let (store, _) = try stamped(directory)
        try SQLiteShell.run(store.path, "PRAGMA wal_checkpoint(TRUNCATE)")
        try stampSettled(store)
        let preview = try store.snapshotFile.readPreview(messages: 5)
        #expect(unchanged(preview, store))
        let database = try #require(FileSystem.identity(at: store.path))
        let wal = try #require(FileSystem.identity(at: store.path + "-wal"))
        try SQLiteShell.run(store.path, "UPDATE messages SET text = 'message number 99' WHERE id = 'm30'; PRAGMA wal_checkpoint(TRUNCATE)")
        for (path, time) in [(store.path, database.modified), (store.path + "-wal", wal.modified)] {
            let nanoseconds = String(time.nanoseconds)
            try ExternalCommand.run("/usr/bin/touch", ["-m", "-d", "@\(time.seconds).\(String(repeating: "0", count: 9 - nanoseconds.count))\(nanoseconds)", path])
        }
        let now = try #require(FileSystem.identity(at: store.path))
        #expect(now.inode == database.inode && now.size == database.size && now.modified == database.modified)
        #expect(FileSystem.identity(at: store.path + "-wal")?.modified == wal.modified)
        #expect(!unchanged(preview, store))
        #expect(try newestText(store.path) == "message number 99")
    }

    @Test func aStampIsNotTakenWhileAWriterHoldsTheDatabase() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...3))
        let outcome = try store.write { _ throws(TimelineStoreError) in try store.stampUnchangedDatabase() }
        #expect(outcome == .busy)
    }

    /// A stamp of another database, generation or schema version answers nothing.
    @Test func aStampOfAnotherGenerationAnswersNothing() throws {
        let directory = TemporaryDirectory()
        let (store, preview) = try stamped(directory)
        let path = SnapshotStamp.path(forSnapshotAt: store.snapshotFile.path)
        let stamp = try #require(SnapshotStamp.read(at: path))
        for changed in [{ (s: inout SnapshotStamp) in s.generation += 1 }, { $0.databaseID = "another" }, { $0.schemaVersion += 1 }] {
            var other = stamp
            changed(&other)
            try other.write(to: path)
            #expect(!unchanged(preview, store))
        }
        try stamp.write(to: path)
        #expect(unchanged(preview, store))
    }

    /// A torn or damaged stamp (a power cut, another program) is refused, never misread.
    @Test func aTruncatedOrFlippedStampDoesNotDecode() throws {
        let stamp = SnapshotStamp(
            databaseID: "0123456789abcdef0123456789abcdef", generation: 42, schemaVersion: 16,
            database: FileIdentity(device: 1, inode: 2, size: 3, modified: FileTime(seconds: 4, nanoseconds: 5),
                                   statusChanged: FileTime(seconds: 6, nanoseconds: 7)),
            writeAheadLog: nil)
        let bytes = stamp.encoded()
        #expect(SnapshotStamp(decoding: bytes) == stamp)
        for length in 0 ..< bytes.count {
            #expect(SnapshotStamp(decoding: Array(bytes.prefix(length))) == nil, "\(length) bytes")
        }
        for bit in 0 ..< bytes.count * 8 {
            var flipped = bytes
            flipped[bit / 8] ^= 1 << UInt8(bit % 8)
            #expect(SnapshotStamp(decoding: flipped) == nil, "bit \(bit)")
        }
    }

    /// Times within the clock's tick of the reading are not settled; whole seconds (a file system
    /// that keeps no nanoseconds) need two seconds.
    @Test func timesAreSettledOnlyATickOrTwoSecondsBehindTheClock() {
        let tick: Int64 = 4_000_000
        let now = FileTime(seconds: 100, nanoseconds: 500_000_000)
        #expect(SnapshotStamp.isSettled([FileTime(seconds: 100, nanoseconds: 496_000_000)], now: now, clockResolution: tick))
        #expect(!SnapshotStamp.isSettled([FileTime(seconds: 100, nanoseconds: 496_000_001)], now: now, clockResolution: tick))
        // Ahead of the coarse clock, as multigrain timestamps can be.
        #expect(!SnapshotStamp.isSettled([FileTime(seconds: 100, nanoseconds: 502_000_000)], now: now, clockResolution: tick))
        #expect(!SnapshotStamp.isSettled([FileTime(seconds: 99, nanoseconds: 0)], now: now, clockResolution: tick))
        #expect(SnapshotStamp.isSettled([FileTime(seconds: 98, nanoseconds: 0)], now: now, clockResolution: tick))
        #expect(!SnapshotStamp.isSettled([FileTime(seconds: 98, nanoseconds: 0), FileTime(seconds: 100, nanoseconds: 499_000_000)],
                                         now: now, clockResolution: tick))
    }

    /// A network or user-space file system (here /proc, which no kernel stamps like a disk's)
    /// is not trusted; the temporary directory the tests run in is.
    @Test func onlyLocalFileSystemsAreTrustedWithFileTimes() {
        let directory = TemporaryDirectory()
        #expect(!FileSystem.keepsLocalFileTimes(at: "/proc/self/status"))
        #expect(FileSystem.keepsLocalFileTimes(at: directory.path))
    }
}

/// A failed expectation names the preview's generation instead of printing every byte of it.
extension SnapshotPreview: CustomTestStringConvertible {
    public var testDescription: String { "the preview of generation \(state.generation)" }
}
