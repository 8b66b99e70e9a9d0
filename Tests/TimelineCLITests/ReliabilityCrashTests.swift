import Foundation
import Testing
import TimelineKit

/// Issue 6, point 1: a writer killed with SIGKILL at random moments of a save loses nothing
/// committed, never tears the database or the snapshot, and the next `show` repairs the rest.
/// (`tools/stress/run` does the same hundreds of times; this is the short version.)
@Suite struct ReliabilityCrashTests {
    /// What the test knows the database must hold: built from the batches it wrote, never read
    /// back from the database it checks.
    struct Model {
        struct Entry: Equatable, CustomStringConvertible {
            var id: String
            var text: String
            var likes: Int
            var createdAt: Int64
            var description: String { "\(id)|\(text)|\(likes)" }
        }

        var messages: [String: Entry] = [:]

        mutating func apply(_ batch: [Entry]) {
            for entry in batch { messages[entry.id] = entry }
        }

        /// The newest `limit` messages, newest first (creation times are unique here).
        func window(limit: Int) -> [Entry] {
            Array(messages.values.sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }.prefix(limit))
        }

        /// The database's messages as `sqlite3` prints the dump query below.
        var dump: String {
            messages.values.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }.map(\.description).joined(separator: "\n")
        }
    }

    static let dumpQuery = "SELECT id || '|' || text || '|' || like_count FROM messages ORDER BY id"
    static let snapshotLimit = 60

    /// A committed state: its message count and the window a snapshot of it must hold.
    struct Committed {
        let count: Int
        let window: [Model.Entry]
    }

    @Test func aWriterKilledAtRandomMomentsLosesNothingCommittedAndTearsNothing() throws {
        let scenario = Scenario()
        var random = SplitMix64(seed: 0x6A11_0C4A_5B)
        var model = Model()
        var history: [Committed] = []
        var usedTimes: Set<Int64> = []
        let users = ["crash-a", "crash-b", "crash-c"]

        // Batch k adds 30–59 new messages, at random (unique) times among the earlier ones so
        // the window really changes, and edits a few stored ones.
        func makeBatch(_ k: Int) -> (lines: [String], entries: [Model.Entry]) {
            var lines: [String] = []
            var entries: [Model.Entry] = []
            if k == 0 {
                lines = users.map { ImportLine.user(id: $0, handle: $0, name: "User \($0)") }
            }
            for n in 0 ..< 30 + Int(random.next() % 30) {
                var time: Int64
                repeat { time = 1_700_000_000_000 + Int64(random.next() % 100_000_000) * 1000 } while usedTimes.contains(time)
                usedTimes.insert(time)
                let filler = String(repeating: "abcdefghij", count: 10 + Int(random.next() % 20))
                entries.append(.init(id: "b\(k)-\(n)", text: "batch \(k) message \(n) \(filler)", likes: 0, createdAt: time))
            }
            let stored = model.messages.values.sorted { $0.id < $1.id }
            for _ in 0 ..< min(4, stored.count) {
                var edited = stored[Int(random.next() % UInt64(stored.count))]
                edited.text = "edited in batch \(k)"
                edited.likes = k
                if !entries.contains(where: { $0.id == edited.id }) { entries.append(edited) }
            }
            for entry in entries {
                lines.append(ImportLine.message(id: entry.id, author: users[Int(random.next() % 3)], text: entry.text,
                                                createdAt: entry.createdAt, extra: #","likes":\#(entry.likes)"#))
            }
            return (lines, entries)
        }

        func commit(_ entries: [Model.Entry]) {
            model.apply(entries)
            history.append(Committed(count: model.messages.count, window: model.window(limit: Self.snapshotLimit)))
        }

        // Two batches that run to the end: they set the snapshot limit and time an import.
        var importSeconds: [Double] = []
        for k in 0 ..< 2 {
            let batch = makeBatch(k)
            let path = scenario.directory + "/batch-\(k).jsonl"
            try ImportLine.write(batch.lines, to: path)
            let (result, seconds) = try scenario.timeline.timed(["import", path], inTerminal: false)
            try #require(result.status == 0, "\(result.errors)")
            importSeconds.append(seconds)
            commit(batch.entries)
            if k == 0 { try #require(try scenario.timeline.run(["snapshot", "--limit", "\(Self.snapshotLimit)"]).status == 0) }
        }
        // The faster of the two: one slowed by a busy machine would put most kills after the import.
        var span = importSeconds.min()! * 1.3

        var killedBeforeCommit = 0, killedAfterCommit = 0, finished = 0
        for k in 2 ..< 32 {
            let batch = makeBatch(k)
            let path = scenario.directory + "/batch-\(k).jsonl"
            try ImportLine.write(batch.lines, to: path)
            let delay = Double(random.next() % 1000) / 1000 * span

            let process = try scenario.timeline.start(["import", path])
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let killed = process.terminationReason == .uncaughtSignal

            // All or nothing: the database holds the model before the batch or after it.
            let before = model.dump
            var after = model
            after.apply(batch.entries)
            let stored = try scenario.query(Self.dumpQuery)
            if !killed {
                // The machine got faster than the calibration (a busy neighbour went quiet): aim
                // the next kills earlier, so that they keep landing during the import.
                span *= 0.75
                #expect(process.terminationStatus == 0, "batch \(k): import exited \(process.terminationStatus)")
                #expect(stored == after.dump, "batch \(k): an import that exited 0 is not all there")
                finished += 1
                commit(batch.entries)
            } else if stored == after.dump {
                killedAfterCommit += 1
                commit(batch.entries)
            } else {
                #expect(stored == before, "batch \(k), killed after \(delay) s: the database holds part of a batch, or lost a commit")
                killedBeforeCommit += 1
            }
            #expect(try scenario.query("PRAGMA integrity_check") == "ok", "batch \(k)")

            // Whatever snapshot is on disk is whole and shows one committed state exactly.
            expectSnapshotShowsACommittedState(scenario, history: history, context: "batch \(k), killed: \(killed), delay \(delay) s")

            // The next show paints at once, then reconciles to the truth and leaves it fresh.
            let shown = try scenario.timeline.runInTerminal(["show", "-n", "3", "--color", "never"])
            #expect(shown.status == 0, "batch \(k): \(shown.errors)")
            #expect(!shown.output.isEmpty, "batch \(k): show painted nothing")
            #expect(try scenario.timeline.run(["snapshot", "--check"]).status == 0, "batch \(k)")
            let repaired = try SnapshotFile(path: scenario.snapshotPath).read()
            #expect(repaired.window.messages.map(\.id) == history.last!.window.map(\.id), "batch \(k): show did not reconcile")
        }
        print("crash during save: 30 imports, \(killedBeforeCommit) killed before their commit, \(killedAfterCommit) killed after it, \(finished) finished; kill delays 0–\(Int(span * 1000)) ms")
        // The kills really landed, before and after commits alike (the delays adapt to this
        // machine's speed, so this holds however fast it is).
        #expect(killedBeforeCommit + killedAfterCommit >= 8, "only \(killedBeforeCommit + killedAfterCommit) of 30 imports were killed")
        #expect(killedBeforeCommit > 0)
        #expect(finished + killedAfterCommit > 0)
    }

    private func expectSnapshotShowsACommittedState(_ scenario: Scenario, history: [Committed], context: String) {
        let snapshot: TimelineSnapshot
        do {
            snapshot = try SnapshotFile(path: scenario.snapshotPath).read()
        } catch {
            Issue.record("\(context): the snapshot does not read: \(error)")
            return
        }
        guard let state = history.last(where: { $0.count == snapshot.state.messageCount }) else {
            Issue.record("\(context): the snapshot counts \(snapshot.state.messageCount) messages, which no commit left (\(history.map(\.count)))")
            return
        }
        let shown = snapshot.window.messages.map { Model.Entry(id: $0.id, text: $0.text, likes: $0.likeCount, createdAt: 0) }
        let expected = state.window.map { Model.Entry(id: $0.id, text: $0.text, likes: $0.likes, createdAt: 0) }
        #expect(shown == expected, "\(context): the snapshot's window is not the newest \(Self.snapshotLimit) of the commit with \(state.count) messages")
        #expect(snapshot.state.unreadCount == state.count, "\(context)")
    }
}
