import Foundation
import Testing
import TimelineKit

/// Issue 6, point 3: another process holds the database exclusively. `show` on a terminal paints
/// at once and returns within its bound (ShowCommandTests covers the terminal's note); here: the
/// write commands wait their timeout, then fail with a clear message and exit 75, changing
/// nothing, and `show` on a pipe, which must never print stale data, says why within its bound.
///
/// How long a command may take beyond its timeout is not an absolute figure: on two cores shared
/// with the rest of the suite, starting a process can take longer than the timeout itself. Each
/// locked run has a control: the same command, started at the same moment, on an unlocked copy
/// of the same timeline. The locked run may exceed its timeout by a quarter of the timeout, or by
/// three times what its control took, or by 0.25 s, whichever is more. That bound loosens with the
/// load (the floor because one control is one sample: on CI's loaded cores a control took 14 ms
/// and its locked `show` 0.19 s for a 0.1 s wait; 0.25 s still tells 0.1 s from the writes'
/// 0.5 s, and 0.5 s from 1 s); the
/// write commands also run twice at the same moment, with timeouts of 0.5 s and 1 s: start-up
/// costs both alike, so the second must give up 0.5 s (within a quarter) after the first,
/// whatever the load, and a timeout taken as half as long again fails. The two tests run one
/// after the other (`.serialized`): each starts a burst of processes that would be the other's load.
/// A run that is late (never one that is early, which load cannot cause) is measured again, up to
/// three times: a machine that stalls every process for a moment makes one burst late, while a
/// timeout that is not honoured is late in all three.
@Suite(.serialized) struct ReliabilityLockTests {
    /// What a locked run may take beyond `timeout` (seconds), given its control's time.
    private static func allowedOverrun(timeout: Double, control: Double) -> Double {
        max(timeout / 4, 3 * control, 0.25)
    }

    /// A second timeline like `scenario`'s, never locked: where the controls run.
    private func controlScenario(withUser: Bool) throws -> Scenario {
        let control = Scenario()
        try control.importSample()
        if withUser {
            #expect(try control.timeline.run(["user", "me", "--handle", "locktester", "--name", "Lock Tester"]).status == 0)
        }
        return control
    }

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

        // Every attempt checks the exits, the messages and that nothing changed; only the clock's
        // figures get a second and third try. CI's machine once stalled every process for 0.6 s
        // (mark-read --all with 0.5 s and 1 s timeouts both gave up at 1.15 s, its control 0.15 s):
        // a stall makes a run late, never early, so a timeout that is not honoured fails all three.
        var lateness: [String] = []
        for _ in 1...3 {
            lateness = try writeCommandsUnderALock(scenario, unread: unread, batch: batch)
            #expect(try fingerprint(scenario) == before)
            if lateness.isEmpty { break }
        }
        for problem in lateness {
            Issue.record(Comment(rawValue: problem))
        }
        #expect(try scenario.timeline.run(["snapshot", "--check"]).status == 0)
    }

    /// One run of every write command (and `show` on a pipe) against `scenario` held locked, with
    /// two timeouts and an unlocked control each; what the clock said wrong, as sentences.
    private func writeCommandsUnderALock(_ scenario: Scenario, unread: String, batch: String) throws -> [String] {
        let control = try controlScenario(withUser: true)

        // The write commands wait 5 s by default (tools/stress checks that); here
        // TIMELINE_WRITE_TIMEOUT_MS makes it half a second for one run of each and a second for
        // another, all side by side under a hold that outlasts both, and the controls run at the
        // same moment. The two timeouts make a ratio that load cannot blur: whatever start-up
        // costs, it costs both runs, so the second gives up half a second after the first.
        let timeout = 0.5
        var short = scenario.timeline, long = scenario.timeline
        short.environment["TIMELINE_WRITE_TIMEOUT_MS"] = "500"
        long.environment["TIMELINE_WRITE_TIMEOUT_MS"] = "1000"
        let holder = try scenario.holdExclusively(seconds: 2)
        defer { holder.waitUntilExit() }
        let runs = [short, long, control.timeline]
        let commands: [[String]] = [
            ["import", batch], ["post", "--as", "locktester", "must not land either"], ["mark-read", unread], ["mark-read", "--all"],
            ["show", "-n", "3", "--color", "never"],
        ]
        let n = commands.count
        let results = concurrently(3 * n) { index in
            try runs[index / n].timed(commands[index % n], inTerminal: false)
        }

        var lateness: [String] = []
        for (index, command) in commands.enumerated() {
            let name = command.prefix(2).joined(separator: " ")
            let (controlResult, controlSeconds) = try results[2 * n + index].get()
            #expect(controlResult.status == 0, "\(name) on the unlocked copy: exit \(controlResult.status) \(controlResult.errors)")
            // show waits its own 100 ms whatever TIMELINE_WRITE_TIMEOUT_MS says; the writes 0.5 s and 1 s.
            let waits = command[0] == "show" ? [0.1, 0.1] : [timeout, 2 * timeout]
            var took: [Double] = []
            for (run, waited) in waits.enumerated() {
                let (result, seconds) = try results[run * n + index].get()
                took.append(seconds)
                #expect(result.status == 75, "\(name): exit \(result.status)")
                #expect(result.errors.contains("stayed locked by another process"), "\(name): \(result.errors)")
                #expect(result.errors.contains("Nothing was changed"), "\(name): \(result.errors)")
                // One line says it, the last one: no error wall.
                #expect(result.errors.split(separator: "\n").last?.contains("stayed locked") == true, "\(name): \(result.errors)")
                #expect(result.errors.split(separator: "\n").filter { $0.contains("locked") }.count == 1, "\(name): \(result.errors)")
                // Early is never load's doing: it fails at once.
                #expect(seconds >= 0.95 * waited, "\(name) gave up after \(seconds) s, before its timeout of \(waited) s")
                let allowed = Self.allowedOverrun(timeout: waited, control: controlSeconds)
                if seconds - waited > allowed {
                    lateness.append("\(name) gave up after \(seconds) s: its timeout is \(waited) s, and it may take \(allowed) s more (its control took \(controlSeconds) s)")
                }
                if command[0] == "show" {
                    #expect(result.output.isEmpty, "show on a pipe printed while the database was locked")
                }
            }
            if command[0] != "show" {
                // Fifteen processes share two cores with the rest of the suite: the slack is what
                // the same command took on the unlocked copy in the same moment, at least 1/4.
                let difference = took[1] - took[0]
                let slack = max(timeout / 4, controlSeconds)
                if abs(difference - timeout) > slack {
                    lateness.append("\(name) with a 1 s timeout gave up \(difference) s after the same with 0.5 s, not 0.5 s later (slack \(slack) s)")
                }
            }
        }
        holder.waitUntilExit()
        return lateness
    }

    @Test func showOnATerminalPaintsBeforeTheLockedDatabaseAnswersAndStaysWithinItsBound() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let expected = try scenario.timeline.run(["show", "-n", "4", "--color", "never"]).output
        let snapshotBefore = scenario.fileBytes(scenario.snapshotPath)
        let control = try controlScenario(withUser: false)
        // As for the write commands: lateness alone gets a second and third try.
        var lateness: [String] = []
        for _ in 1...3 {
            lateness = try showsUnderALock(scenario, control: control, expected: expected)
            if lateness.isEmpty { break }
        }
        for problem in lateness {
            Issue.record(Comment(rawValue: problem))
        }
        #expect(scenario.fileBytes(scenario.snapshotPath) == snapshotBefore)
    }

    /// `show` on a terminal with two busy timeouts under one hold; what the clock said wrong.
    private func showsUnderALock(_ scenario: Scenario, control: Scenario, expected: String) throws -> [String] {
        let holder = try scenario.holdExclusively(seconds: 2)
        defer { holder.waitUntilExit() }
        var lateness: [String] = []
        for timeout in ["100", "400"] {
            var timed = scenario.timeline, unlocked = control.timeline
            timed.environment["TIMELINE_BUSY_TIMEOUT_MS"] = timeout
            unlocked.environment["TIMELINE_BUSY_TIMEOUT_MS"] = timeout
            let runs = [timed, unlocked]
            let results = concurrently(2) { index in try runs[index].timed(["show", "-n", "4", "--color", "never"], inTerminal: true) }
            let (shown, seconds) = try results[0].get()
            let (controlShown, controlSeconds) = try results[1].get()
            #expect(controlShown.status == 0)
            #expect(shown.status == 0)
            // Exactly the snapshot's paint, nothing more: no half-written update.
            #expect(shown.output == expected)
            #expect(shown.errors == "timeline: not updated: the database stayed locked for \(timeout) ms (raise TIMELINE_BUSY_TIMEOUT_MS to wait longer).\n")
            // Its bound: the busy timeout, plus what start-up and the paint take now (the control).
            let waited = Double(timeout)! / 1000
            let allowed = Self.allowedOverrun(timeout: waited, control: controlSeconds)
            if seconds - waited > allowed {
                lateness.append("show with a \(timeout) ms timeout took \(seconds) s, more than \(allowed) s beyond it (its control took \(controlSeconds) s)")
            }
            #expect(seconds >= waited, "show returned after \(seconds) s: did it wait at all?")
        }
        return lateness
    }

    /// Issue 26: a filtered page (`--unread`, `--author`, `--before`) waits as long as
    /// `TIMELINE_BUSY_TIMEOUT_MS` says, as the plain timeline does; it waited its 100 ms whatever
    /// the environment said, and gave up (exit 75) under a lock the person had allowed for.
    @Test func aFilteredPageWaitsAsLongAsTheEnvironmentSays() throws {
        let scenario = Scenario()
        try scenario.importSample()
        var patient = scenario.timeline
        patient.environment["TIMELINE_BUSY_TIMEOUT_MS"] = "20000"
        for filter in [["--unread"], ["--author", "mika"]] {
            let holder = try scenario.holdExclusively(seconds: 0.5)
            defer { holder.waitUntilExit() }
            let shown = try patient.run(["show", "-n", "3", "--json"] + filter)
            #expect(shown.status == 0, "\(filter): exit \(shown.status) \(shown.errors)")
            #expect(shown.output.split(separator: "\n").count == 3, "\(filter): \(shown.output)")
        }
    }
}
