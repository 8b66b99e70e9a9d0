import Foundation
import Testing

/// `timeline show` in a real terminal (tmux), as a person opening a new terminal sees it.
@Suite(.enabled(if: Tmux.isAvailable, "tmux is installed by `make deps`"))
struct TerminalSessionTests {
    @Test func aWriteThatLandsWhileShowIsPaintedIsUpdatedInPlace() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let newest = try scenario.sqlite("SELECT id FROM messages ORDER BY created_at DESC, id DESC LIMIT 1")
        let originalText = try scenario.sqlite("SELECT text FROM messages WHERE id = '\(newest)'")
        let originalStart = String(originalText.prefix(24))

        // Another process takes the database for itself, edits the newest message, says it holds
        // it, and commits 4 s later: `show` starts in between, so it paints the snapshot, waits
        // for the lock, then finds the edit. (Started once the lock is surely held, and 4 s of
        // room for a loaded machine to start `show` before the commit.)
        let held = scenario.directory + "/writer-holds-the-lock"
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        writer.arguments = [scenario.databasePath, "PRAGMA locking_mode=EXCLUSIVE;", "BEGIN EXCLUSIVE;",
                            "UPDATE messages SET text = 'CONCURRENT EDIT FROM ANOTHER PROCESS' WHERE id = '\(newest)';",
                            ".shell touch '\(held)'", ".shell sleep 4", "COMMIT;"]
        writer.standardOutput = FileHandle.nullDevice
        try writer.run()
        defer { writer.waitUntilExit() }
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: held) && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        try #require(FileManager.default.fileExists(atPath: held), "the sqlite3 shell never took the database")

        let command = "env -i TIMELINE_DB='\(scenario.databasePath)' TERM=xterm-256color '\(TimelineProcess.executable)' show -n 3 --busy-timeout 10000; echo SHOW-EXITED; sleep 30"
        let terminal = try Tmux(command: command, columns: 80, rows: 40)

        // The first paint is there while the writer still holds the database.
        let painted = try terminal.waitForScreen(timeout: 5) { $0.contains(originalStart) }
        #expect(painted.contains(originalStart))
        #expect(!painted.contains("SHOW-EXITED"))

        let updated = try terminal.waitForScreen(timeout: 30) { $0.contains("SHOW-EXITED") }
        #expect(updated.contains("CONCURRENT EDIT FROM ANOTHER PROCESS"))
        // Updated in place: the old text is gone, not pushed up above a second copy.
        #expect(!updated.contains(originalStart))
        let lines = updated.split(separator: "\n").map(String.init)
        let exitLine = try #require(lines.firstIndex { $0.contains("SHOW-EXITED") })
        #expect(lines[..<exitLine].filter { $0.contains("CONCURRENT EDIT") }.count == 1)
    }
}
