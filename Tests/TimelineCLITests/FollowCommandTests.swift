import Foundation
import Testing

/// `timeline show --follow`: writes from other processes arrive, on a pipe and in a real terminal
/// (tmux), and every way of ending it ends it cleanly. Waits are generous deadlines for "it
/// arrived"; how fast it arrives is measured by tools/bench (stage 8).
@Suite(.timeLimit(.minutes(5)))
struct FollowCommandTests {
    /// The newest stored message's creation time plus `minutes`: a message that sorts first.
    private static func newerThanAll(_ scenario: Scenario, minutes: Int) throws -> String {
        let newest = try scenario.sqlite("SELECT max(created_at) FROM messages")
        return String(Int64(newest)! + Int64(minutes) * 60_000)
    }

    private static func insertSQL(_ scenario: Scenario, id: String, text: String, minutes: Int) throws -> String {
        let author = try scenario.sqlite("SELECT id FROM users ORDER BY id LIMIT 1")
        return "INSERT INTO messages (id, author_id, text, created_at) VALUES ('\(id)', '\(author)', '\(text)', \(try newerThanAll(scenario, minutes: minutes)));"
    }

    private static func handle(_ scenario: Scenario) throws -> String {
        try scenario.sqlite("SELECT handle FROM users ORDER BY id LIMIT 1")
    }

    // MARK: On a pipe

    @Test func onAPipeEachNewMessageFromAnotherProcessOrTheSQLiteShellIsOneMoreJSONLine() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let follow = try FollowingProcess(scenario, ["show", "--follow", "--json", "-n", "2"])
        #expect(follow.waitForOutput { $0.split(separator: "\n").count == 2 })

        let posted = try scenario.timeline.run(["post", "--as", try Self.handle(scenario), "posted by another timeline"])
        #expect(posted.status == 0)
        #expect(follow.waitForOutput { $0.contains("posted by another timeline") })
        try scenario.sqlite(try Self.insertSQL(scenario, id: "typed-1", text: "typed into the sqlite3 shell", minutes: 5))
        #expect(follow.waitForOutput { $0.contains("typed into the sqlite3 shell") })

        let lines = follow.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[2].contains("posted by another timeline"))
        #expect(lines[3].contains("\"id\":\"typed-1\""))
        // What the shell wrote is in the snapshot too: the next `show` paints the truth.
        #expect(follow.waitUntil { (try? scenario.timeline.run(["snapshot", "--check"]).status) == 0 })

        follow.signal(SIGTERM)
        let ending = follow.waitForExit()
        #expect(ending.reason == .uncaughtSignal && ending.status == SIGTERM)
        #expect(follow.errors.isEmpty)
    }

    /// Message lines for `import`: `count` messages by the first user, at `minutes` after
    /// `base` (milliseconds), newest first as an API page comes.
    private static func messageLines(_ scenario: Scenario, prefix: String, count: Int, base: Int64, spacingMinutes: Int64) throws -> String {
        let author = try scenario.sqlite("SELECT id FROM users ORDER BY id LIMIT 1")
        return (0 ..< count).reversed().map { index in
            let seconds = (base + Int64(index) * spacingMinutes * 60_000) / 1000
            let time = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            return #"{"type":"message","id":"\#(prefix)\#(index)","author":"\#(author)","text":"\#(prefix) \#(index)","created_at":"\#(time)"}"#
        }.joined(separator: "\n") + "\n"
    }

    /// One import of 500 messages newer than anything stored printed only the newest 200 (the
    /// window), and ten back-filled older messages printed nothing (issue 12, item 5).
    @Test func onAPipeEveryMessageAnImportAddsIsPrintedOldestFirstNewOrBackFilled() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let follow = try FollowingProcess(scenario, ["show", "--follow", "--json", "-n", "2"])
        #expect(follow.waitForOutput { $0.split(separator: "\n").count == 2 })

        let newest = Int64(try scenario.sqlite("SELECT max(created_at) FROM messages"))!
        let new = try Self.messageLines(scenario, prefix: "new", count: 500, base: newest + 60_000, spacingMinutes: 1)
        #expect(try scenario.timeline.run(["import", "-"], input: Data(new.utf8)).status == 0)
        #expect(follow.waitForOutput { $0.split(separator: "\n").count == 502 })

        let oldest = Int64(try scenario.sqlite("SELECT min(created_at) FROM messages"))!
        let old = try Self.messageLines(scenario, prefix: "old", count: 10, base: oldest - 86_400_000, spacingMinutes: 60)
        #expect(try scenario.timeline.run(["import", "-"], input: Data(old.utf8)).status == 0)
        #expect(follow.waitForOutput { $0.split(separator: "\n").count == 512 })

        let ids = follow.output.split(separator: "\n").dropFirst(2).map { line -> String in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["id"] as? String ?? "?"
        }
        #expect(ids == (0 ..< 500).map { "new\($0)" } + (0 ..< 10).map { "old\($0)" })
        follow.signal(SIGTERM)
        _ = follow.waitForExit()
        #expect(follow.errors.isEmpty)
    }

    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func onAPipeEachSignalEndsItByThatSignal(signal: Int32) throws {
        let scenario = Scenario()
        try scenario.importSample()
        let follow = try FollowingProcess(scenario, ["show", "-f"])
        #expect(follow.waitForOutput { !$0.isEmpty })
        follow.signal(signal)
        let ending = follow.waitForExit()
        #expect(ending.reason == .uncaughtSignal && ending.status == signal)
        #expect(follow.errors.isEmpty)
        #expect(try scenario.timeline.run(["snapshot", "--check"]).status == 0)
    }

    @Test func aReaderThatClosesThePipeEndsItQuietlyWithStatusZero() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let follow = try FollowingProcess(scenario, ["show", "-f", "--json"], readingOutput: false)
        follow.closeOutput()
        // Something to write: whichever comes first, the closed pipe or the failed write, ends it.
        _ = try scenario.timeline.run(["post", "--as", try Self.handle(scenario), "nobody reads this"])
        let ending = follow.waitForExit()
        #expect(ending.reason == .exit && ending.status == 0)
        #expect(follow.errors.isEmpty)
    }

    @Test func followingWithoutTheDatabaseIsRefusedByTheParser() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let result = try scenario.timeline.run(["show", "--follow", "--no-reconcile"])
        #expect(result.status == 64)
        #expect(result.errors.contains("--follow needs the database"))
    }

    @Test func followingADatabaseThatDoesNotExistFails() throws {
        let scenario = Scenario()
        let result = try scenario.timeline.run(["show", "--follow"])
        #expect(result.status == 66)
        #expect(result.errors.contains("no timeline yet"))
    }

    // MARK: In a terminal

    /// Runs `show -f` in tmux under a shell that reports how it ended and the terminal's echo
    /// setting afterwards.
    private func startInTerminal(_ scenario: Scenario, arguments: String = "", rows: Int = 30) throws -> Tmux {
        let command = "trap 'echo TRAPPED' INT; env -i TIMELINE_DB='\(scenario.databasePath)' TERM=xterm-256color "
            + "'\(TimelineProcess.executable)' show -f \(arguments); echo EXIT=$?; "
            + "echo ECHO=$(stty -a | tr ' ;' '\\n\\n' | grep -x -e echo -e -echo); sleep 60"
        return try Tmux(command: command, columns: 80, rows: rows)
    }

    @Test(.enabled(if: Tmux.isAvailable, "tmux is installed by `make deps`"))
    func inATerminalNewMessagesAppearAtTheTopAndEditsInPlace() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let newest = try scenario.sqlite("SELECT id FROM messages ORDER BY created_at DESC, id DESC LIMIT 1")
        let terminal = try startInTerminal(scenario)
        let painted = try terminal.waitForScreen(timeout: 30) { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        let firstLineBefore = painted.split(separator: "\n").first.map(String.init) ?? ""

        try scenario.sqlite(try Self.insertSQL(scenario, id: "live-1", text: "LIVE FROM THE SQLITE SHELL", minutes: 5))
        let afterInsert = try terminal.waitForScreen(timeout: 30) { $0.contains("LIVE FROM THE SQLITE SHELL") }
        let lines = afterInsert.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // At the top: the new message's text is on the second row, under its author line.
        #expect(lines.count > 1 && lines[1].contains("LIVE FROM THE SQLITE SHELL"))
        #expect(lines.contains(firstLineBefore))

        #expect(try scenario.timeline.run(["post", "--as", try Self.handle(scenario), "LIVE FROM TIMELINE POST"]).status == 0)
        try scenario.sqlite("UPDATE messages SET text = 'EDITED WHILE FOLLOWED' WHERE id = '\(newest)'")
        let afterEdit = try terminal.waitForScreen(timeout: 30) {
            $0.contains("EDITED WHILE FOLLOWED") && $0.contains("LIVE FROM TIMELINE POST")
        }
        // Repainted in place: each message once, nothing printed below a stale copy.
        #expect(afterEdit.components(separatedBy: "LIVE FROM THE SQLITE SHELL").count == 2)
        #expect(afterEdit.components(separatedBy: "EDITED WHILE FOLLOWED").count == 2)
        let firstRow = afterEdit.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().first ?? ""
        #expect(firstRow.contains("LIVE FROM TIMELINE POST"))
        #expect(!afterEdit.contains("EXIT="))
        if let pid = waitForPID(of: scenario.databasePath) { kill(pid, SIGTERM) }
    }

    @Test(.enabled(if: Tmux.isAvailable, "tmux is installed by `make deps`"),
          arguments: [(SIGINT, 130), (SIGTERM, 143), (SIGHUP, 129)])
    func inATerminalEachSignalEndsItCleanly(signal: Int32, status: Int) throws {
        let scenario = Scenario()
        try scenario.importSample()
        let terminal = try startInTerminal(scenario, arguments: "-n 3")
        _ = try terminal.waitForScreen(timeout: 30) { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        let pid = try #require(waitForPID(of: scenario.databasePath))
        // Its loop has started once it turned echo off: the state the signal must undo.
        let tty = try terminal.paneTTY()
        #expect(Self.waitUntil { (try? ExternalCommandOutput.run("/bin/stty", ["-F", tty, "-a"]))?.contains("-echo ") == true })

        if signal == SIGINT {
            try terminal.sendKeys("C-c")
        } else {
            kill(pid, signal)
        }
        let ended = try terminal.waitForScreen(timeout: 30) { $0.contains("ECHO=") }
        #expect(ended.contains("EXIT=\(status)"))
        #expect(ended.contains("ECHO=echo"))
        #expect(kill(pid, 0) != 0)  // gone
        #expect(try scenario.timeline.run(["snapshot", "--check"]).status == 0)
    }

    /// The process running `show` against this database (found in /proc), once it has started.
    private func waitForPID(of databasePath: String) -> pid_t? {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            for entry in entries {
                guard let pid = pid_t(entry),
                      let data = FileManager.default.contents(atPath: "/proc/\(entry)/environ"),
                      let command = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { continue }
                let environment = String(decoding: data, as: UTF8.self)
                if environment.contains("TIMELINE_DB=\(databasePath)\0"),
                   String(decoding: command, as: UTF8.self).hasPrefix(TimelineProcess.executable) {
                    return pid
                }
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return nil
    }
}

/// Waits until `condition` holds.
extension FollowCommandTests {
    /// Waits (up to 60 s, or `seconds`) until `condition` holds: long, because a loaded machine
    /// can take that long, and the wait ends as soon as it holds.
    static func waitUntil(seconds: Double = 60, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() >= deadline { return false }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return true
    }
}

/// A short command's standard output.
private enum ExternalCommandOutput {
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

/// `timeline show --follow` running with its output on a pipe, read as it comes.
final class FollowingProcess: @unchecked Sendable {
    // @unchecked Sendable: `collected` and `collectedErrors` are only touched under `lock`.
    private let process = Process()
    private let outputPipe = Pipe()
    private let errorPipe = Pipe()
    private let lock = NSLock()
    private var collected = Data()
    private var collectedErrors = Data()
    private var reading: Thread?

    convenience init(_ scenario: Scenario, _ arguments: [String], readingOutput: Bool = true) throws {
        try self.init(environment: scenario.timeline.environment, arguments, readingOutput: readingOutput)
    }

    init(environment: [String: String], _ arguments: [String], readingOutput: Bool = true) throws {
        process.executableURL = URL(fileURLWithPath: TimelineProcess.executable)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outputHandle = outputPipe.fileHandleForReading
        let errorHandle = errorPipe.fileHandleForReading
        if readingOutput {
            Thread.detachNewThread { [self] in
                while true {
                    let chunk = outputHandle.availableData
                    if chunk.isEmpty { return }
                    lock.withLock { collected += chunk }
                }
            }
        }
        // As it comes, so that a test can wait for a note while the follow goes on.
        Thread.detachNewThread { [self] in
            while true {
                let chunk = errorHandle.availableData
                if chunk.isEmpty { return }
                lock.withLock { collectedErrors += chunk }
            }
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    var output: String { lock.withLock { String(decoding: collected, as: UTF8.self) } }
    var errors: String { lock.withLock { String(decoding: collectedErrors, as: UTF8.self) } }

    /// Waits (up to 60 s, or `seconds`) until what was printed satisfies `condition`.
    func waitForOutput(seconds: Double = 60, _ condition: (String) -> Bool) -> Bool {
        FollowCommandTests.waitUntil(seconds: seconds) { condition(output) }
    }

    func waitUntil(_ condition: () -> Bool) -> Bool {
        FollowCommandTests.waitUntil(condition)
    }

    func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// The follow's process ID (to find its children).
    var processIdentifier: Int32 { process.processIdentifier }

    /// Closes the reading end, as `head` does when it has read enough.
    func closeOutput() {
        try? outputPipe.fileHandleForReading.close()
    }

    func waitForExit() -> (reason: Process.TerminationReason, status: Int32) {
        process.waitUntilExit()
        return (process.terminationReason, process.terminationStatus)
    }
}
