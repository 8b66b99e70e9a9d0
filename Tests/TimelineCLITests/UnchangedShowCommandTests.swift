import Foundation
import Synchronization
import Testing
import TimelineKit

/// Issue 38 end to end: a `show` of a database that did not change since its snapshot opens no
/// SQLite connection (the `-shm`, which every connection maps, is not even created), and the first
/// `show` after any write, whoever made it, shows it.
@Suite struct UnchangedShowCommandTests {
    private static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// Runs `show` until one runs without a connection: the one before it stamped the database
    /// once its files' times had settled. Returns that show's output.
    private func showUntilNothingIsOpened(_ scenario: Scenario, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let shm = scenario.databasePath + "-shm"
        for _ in 0 ..< 400 {
            _ = try scenario.timeline.run(["show"])
            try? FileManager.default.removeItem(atPath: shm)
            let show = try scenario.timeline.run(["show"])
            if !Self.exists(shm) { return show.output }
            usleep(5_000)
        }
        Issue.record("every show opened the database", sourceLocation: sourceLocation)
        return ""
    }

    @Test func aShowOfAnUnchangedDatabaseOpensNoConnectionAndShowsWhatTheDatabaseHolds() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let opened = try scenario.timeline.run(["show", "--from-db"]).output
        #expect(try showUntilNothingIsOpened(scenario) == opened)
        #expect(Self.exists(scenario.snapshotPath + ".stamp"))
        let terminal = try scenario.timeline.runInTerminal(["show"])
        #expect(terminal.status == 0 && terminal.output.contains("Okay, closing the laptop."))
        #expect(!Self.exists(scenario.databasePath + "-shm"))
    }

    /// Each way of writing, one after the other, and after each the first `show` (on a pipe: the
    /// reconciled timeline) shows what was written, though the show before it opened nothing.
    @Test func theFirstShowAfterAnyWriteShowsIt() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let db = scenario.databasePath
        let newest = try scenario.sqlite("SELECT id FROM messages ORDER BY created_at DESC, id DESC LIMIT 1")
        let copy = scenario.directory + "/copy.sqlite"
        let other = scenario.directory + "/other.sqlite"
        let importFile = scenario.directory + "/one.jsonl"
        try #"{"type":"message","id":"new1","author":"109301442871003451","text":"imported by timeline","created_at":"2026-11-28T00:00:00Z"}"#
            .write(toFile: importFile, atomically: true, encoding: .utf8)

        var holder: ConnectionHolder?
        let writes: [(name: String, expected: String, write: () throws -> Void)] = [
            ("timeline import", "imported by timeline", { _ = try scenario.timeline.run(["import", importFile]) }),
            ("sqlite3, text only", "edited by the shell", {
                try scenario.sqlite("UPDATE messages SET text = 'edited by the shell' WHERE id = 'new1'")
            }),
            ("sqlite3, no checkpoint", "in the wal only", {
                // Another connection stays open, so that the shell's close checkpoints nothing.
                holder = try ConnectionHolder(db)
                let before = try #require(try FileManager.default.attributesOfItem(atPath: db)[.modificationDate] as? Date)
                try scenario.sqlite("PRAGMA wal_autocheckpoint = 0; UPDATE messages SET text = 'in the wal only' WHERE id = 'new1'")
                #expect(try FileManager.default.attributesOfItem(atPath: db)[.modificationDate] as? Date == before)
            }),
            ("a checkpoint, then a copy kept", "in the wal only", {
                try scenario.sqlite("PRAGMA wal_checkpoint(TRUNCATE)")
                try FileManager.default.copyItem(atPath: db, toPath: copy)
            }),
            ("VACUUM", "after a vacuum", {
                try scenario.sqlite("UPDATE messages SET text = 'after a vacuum' WHERE id = 'new1'; VACUUM; PRAGMA wal_checkpoint(TRUNCATE)")
            }),
            ("mv of another database", "moved in", {
                try FileManager.default.copyItem(atPath: db, toPath: other)
                _ = try SQLiteShellProcess.run(other, "UPDATE messages SET text = 'moved in' WHERE id = 'new1'")
                #expect(rename(other, db) == 0)
            }),
            ("cp -p of the older copy", "in the wal only", {
                _ = try SQLiteShellProcess.run("/bin/cp", arguments: ["-p", copy, db])
            }),
            ("the newest message's text, sqlite3", "the last word", {
                try scenario.sqlite("UPDATE messages SET text = 'the last word' WHERE id = '\(newest)' OR id = 'new1'")
            }),
        ]
        for write in writes {
            _ = try showUntilNothingIsOpened(scenario)
            try write.write()
            let show = try scenario.timeline.run(["show", "-n", "1"])
            #expect(show.output.contains(write.expected), "after \(write.name): \(show.output)")
            holder?.close()
            holder = nil
        }
    }

    /// Every sync writes when it ran into the database, found it something new or not, which
    /// voids the stamp; the background sync the shell hook starts stamps again once the files'
    /// times settle, so that the terminal after a sync that brought nothing opens nothing.
    @Test func aBackgroundSyncThatBroughtNothingLeavesTheNextShowOpeningNothing() throws {
        let server = try MastodonTestServer(statuses: 30)
        let scenario = try SyncCommandTests.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        _ = try showUntilNothingIsOpened(scenario)
        let generation = try scenario.sqlite("SELECT generation FROM timeline_state")
        let sync = try scenario.timeline.run(["sync", "--detached"])  // what the hook's show starts
        #expect(sync.status == 0, "\(sync.errors)")
        let shm = scenario.databasePath + "-shm"
        try? FileManager.default.removeItem(atPath: shm)
        let show = try scenario.timeline.run(["show"])
        #expect(show.status == 0 && !show.output.isEmpty)
        #expect(!Self.exists(shm))
        // Read last: the sqlite3 shell, the last connection to close, checkpoints the -wal.
        #expect(try scenario.sqlite("SELECT generation FROM timeline_state") == generation)
    }

    /// The smoke version of `tools/stress/run --only unchanged`: the `sqlite3` shell writes the
    /// newest message's text again and again, with and without pauses long enough for a stamp,
    /// while `show`s run one after another; none may print a text older than the last write that
    /// had returned before it started.
    @Test func noShowIsOlderThanAWriteThatCommittedBeforeIt() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let newest = try scenario.sqlite("SELECT id FROM messages ORDER BY created_at DESC, id DESC LIMIT 1")
        try scenario.sqlite("UPDATE messages SET text = 'v0' WHERE id = '\(newest)'")
        let committed = Mutex<[(at: ContinuousClock.Instant, version: Int)]>([(ContinuousClock.now, 0)])
        let stop = Atomic<Bool>(false)
        let database = scenario.databasePath
        let writerEnded = DispatchSemaphore(value: 0)
        let writer = Thread {
            defer { writerEnded.signal() }
            var version = 0
            var pauses = SplitPauses()
            while !stop.load(ordering: .relaxed) {
                usleep(pauses.next())
                version += 1
                let autocheckpoint = version % 4 == 0 ? "" : "PRAGMA wal_autocheckpoint = 0; "
                // Waiting out a lock as tools/stress does (a `show` stamping holds the write lock
                // for a moment); and only a write that returned success counts as committed: a
                // busy one that gave up left the text as it was.
                let sql = autocheckpoint + "UPDATE messages SET text = 'v\(version)' WHERE id = '\(newest)'"
                guard (try? SQLiteShellProcess.run("/usr/bin/sqlite3", arguments: ["-cmd", ".timeout 10000", database, sql])) != nil else { continue }
                committed.withLock { $0.append((ContinuousClock.now, version)) }
            }
        }
        // Held open all along, so that the shell's writes stay in the -wal until a checkpoint.
        let holder = try ConnectionHolder(database)
        writer.start()
        defer {
            holder.close()
            stop.store(true, ordering: .relaxed)
            writerEnded.wait()
        }
        for _ in 0 ..< 150 {
            let started = ContinuousClock.now
            let floor = committed.withLock { list in list.last { $0.at < started }?.version ?? 0 }
            let show = try scenario.timeline.run(["show", "-n", "1", "--format", "{text}"])
            let text = show.output.trimmingCharacters(in: .whitespacesAndNewlines)
            let version = Int(text.dropFirst()) ?? -1
            #expect(version >= floor, "printed \(text) after v\(floor) had committed")
        }
    }
}

/// The `sqlite3` shell, and other programs, on any path.
enum SQLiteShellProcess {
    struct Failure: Error { let command: String }

    static func run(_ path: String, _ sql: String) throws -> String {
        try run("/usr/bin/sqlite3", arguments: [path, sql])
    }

    @discardableResult
    static func run(_ executable: String, arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(command: "\(executable) \(arguments)") }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Pauses between writes: none, a millisecond, or long enough (50 ms) for the files' times to
/// settle and a `show` to stamp them, in a fixed order.
struct SplitPauses {
    private var index = 0
    private static let microseconds: [UInt32] = [0, 0, 1_000, 50_000, 0, 3_000, 50_000, 0]

    mutating func next() -> UInt32 {
        defer { index += 1 }
        return Self.microseconds[index % Self.microseconds.count]
    }
}

/// A `sqlite3` shell that has the database open until `close()`: while it is, another process's
/// close is not the last one, and checkpoints nothing.
final class ConnectionHolder {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()

    init(_ path: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // Answered once the shell has opened the database and read it.
        input.fileHandleForWriting.write(Data("SELECT count(*) FROM timeline_state;\n".utf8))
        _ = output.fileHandleForReading.availableData
    }

    func close() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
