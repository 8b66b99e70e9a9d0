import Foundation
import Testing
import TimelineKit

/// Issue 6, point 3: another process holds the database exclusively. `show` on a terminal paints
/// at once and returns within its bound (ShowCommandTests covers the terminal's note); here: the
/// write commands wait their timeout, then fail with a clear message and exit 75, changing
/// nothing, and `show` on a pipe, which must never print stale data, says why within its bound.
@Suite struct ReliabilityLockTests {
    /// What "nothing changed" compares: the counts and generation, every message, the snapshot.
    private func fingerprint(_ scenario: Scenario) throws -> [String] {
        let stats = try scenario.timeline.run(["stats", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(stats.output.utf8)) as? [String: Any] ?? [:]
        let fields = ["messages", "users", "unread", "generation", "snapshot_fresh"].map { "\($0)=\(object[$0] ?? "nil")" }
        return fields + [
            try scenario.query("SELECT group_concat(id || ':' || (seq IN (SELECT seq FROM unread_messages)) || ':' || text, ',') FROM (SELECT * FROM messages ORDER BY id)"),
            scenario.fileBytes(scenario.snapshotPath)?.base64EncodedString() ?? "no snapshot",
        ]
    }

    @Test func writeCommandsWaitTheirTimeoutThenExit75ChangingNothing() throws {
        let scenario = Scenario()
        try scenario.importSample()
        #expect(try scenario.timeline.run(["user", "me", "--handle", "locktester", "--name", "Lock Tester"]).status == 0)
        let unread = try scenario.query("SELECT id FROM messages WHERE seq IN (SELECT seq FROM unread_messages) ORDER BY id LIMIT 1")
        let batch = scenario.directory + "/while-locked.jsonl"
        try ImportLine.write([ImportLine.message(id: "while-locked", author: "me", text: "must not land", createdAt: 1_900_000_000_000)], to: batch)
        let before = try fingerprint(scenario)

        // The write commands wait 5 s by default (tools/stress checks that); here
        // TIMELINE_WRITE_TIMEOUT_MS makes it 1 s and the hold outlasts it; they wait side by side.
        scenario.timeline.environment["TIMELINE_WRITE_TIMEOUT_MS"] = "1000"
        let holder = try scenario.holdExclusively(seconds: 2)
        defer { holder.waitUntilExit() }
        let timeline = scenario.timeline
        let commands: [[String]] = [
            ["import", batch], ["post", "--as", "locktester", "must not land either"], ["mark-read", unread], ["mark-read", "--all"],
            ["show", "-n", "3", "--color", "never"],
        ]
        let results = concurrently(commands.count) { index in try timeline.timed(commands[index], inTerminal: false) }

        for (command, outcome) in zip(commands, results) {
            let (result, seconds) = try outcome.get()
            let name = command.prefix(2).joined(separator: " ")
            #expect(result.status == 75, "\(name): exit \(result.status)")
            #expect(result.errors.contains("stayed locked by another process"), "\(name): \(result.errors)")
            #expect(result.errors.contains("Nothing was changed"), "\(name): \(result.errors)")
            // One line says it, the last one: no error wall.
            #expect(result.errors.split(separator: "\n").last?.contains("stayed locked") == true, "\(name): \(result.errors)")
            #expect(result.errors.split(separator: "\n").filter { $0.contains("locked") }.count == 1, "\(name): \(result.errors)")
            if command[0] == "show" {
                // show waits 100 ms, not 5 s, and prints nothing stale.
                #expect(result.output.isEmpty, "show on a pipe printed while the database was locked")
                #expect(seconds < 1.5, "show took \(seconds) s")
            } else {
                #expect(seconds >= 0.95 && seconds < 1.9, "\(name) gave up after \(seconds) s, not its 1 s timeout")
            }
        }
        holder.waitUntilExit()
        #expect(try fingerprint(scenario) == before)
        #expect(try scenario.timeline.run(["snapshot", "--check"]).status == 0)
    }

    @Test func showOnATerminalPaintsBeforeTheLockedDatabaseAnswersAndStaysWithinItsBound() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let expected = try scenario.timeline.run(["show", "-n", "4", "--color", "never"]).output
        let snapshotBefore = scenario.fileBytes(scenario.snapshotPath)
        let holder = try scenario.holdExclusively(seconds: 2)
        defer { holder.waitUntilExit() }

        for timeout in ["100", "400"] {
            var timed = scenario.timeline
            timed.environment["TIMELINE_BUSY_TIMEOUT_MS"] = timeout
            let (shown, seconds) = try timed.timed(["show", "-n", "4", "--color", "never"], inTerminal: true)
            #expect(shown.status == 0)
            // Exactly the snapshot's paint, nothing more: no half-written update.
            #expect(shown.output == expected)
            #expect(shown.errors == "timeline: not updated: the database stayed locked for \(timeout) ms (raise TIMELINE_BUSY_TIMEOUT_MS to wait longer).\n")
            // Its bound: the busy timeout, plus start-up and the paint.
            #expect(seconds < Double(timeout)! / 1000 + 0.6, "show with a \(timeout) ms timeout took \(seconds) s")
            #expect(seconds >= Double(timeout)! / 1000, "show returned after \(seconds) s: did it wait at all?")
        }
        #expect(scenario.fileBytes(scenario.snapshotPath) == snapshotBefore)
    }
}
