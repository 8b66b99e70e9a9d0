import Foundation
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

        let writes: [(name: String, expected: String, write: () throws -> Void)] = [
            ("timeline import", "imported by timeline", { _ = try scenario.timeline.run(["import", importFile]) }),
            ("sqlite3, text only", "edited by the shell", {
                try scenario.sqlite("UPDATE messages SET text = 'edited by the shell' WHERE id = 'new1'")
            }),
            ("sqlite3, no checkpoint", "in the wal only", {
                try scenario.sqlite("PRAGMA wal_autocheckpoint = 0; UPDATE messages SET text = 'in the wal only' WHERE id = 'new1'")
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
