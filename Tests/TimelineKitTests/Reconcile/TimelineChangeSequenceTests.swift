import Foundation
import Testing
@testable import TimelineKit

/// `TimelineStore.changes(since:)` and the watcher under it: commits from anywhere arrive,
/// cancellation ends the sequence. Waits are generous deadlines for "it arrived", never timings.
/// The hang guard is 10 minutes: in the whole suite these async tests start at once and wait
/// for the cooperative pool's two threads (on two cores) while the command-line tests hold them,
/// blocked on their processes, for most of the run: a minute ran out before they got a thread.
@Suite(.timeLimit(.minutes(10)))
struct TimelineChangeSequenceTests {
    /// The first element of `sequence`, or `nil` when none came within `seconds` (the iterating
    /// task is cancelled then, which ends the sequence).
    private func firstChanges(
        of sequence: TimelineChangeSequence, waitingAtMost seconds: Double = 10,
        after write: @escaping @Sendable () throws -> Void
    ) async throws -> TimelineChanges? {
        let iteration = Task { () async throws -> TimelineChanges? in
            var iterator = sequence.makeAsyncIterator()
            return try await iterator.next()
        }
        // Let the iterator make its first check and go to sleep, so the write is seen by polling.
        try await Task.sleep(for: .milliseconds(300))
        try write()
        let deadline = Task {
            try? await Task.sleep(for: .seconds(seconds))
            iteration.cancel()
        }
        defer { deadline.cancel() }
        return try await iteration.value
    }

    @Test func aWriteFromASecondStoreArrives() async throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...5))
        let other = try TimelineStore(path: store.path)

        let changes = try await firstChanges(of: try store.changes(windowSize: 3)) {
            try other.upsert(messages: [Samples.message(9, text: "from the other store")])
        }
        let found = try #require(changes)
        #expect(found.inserted == ["m9"])
        #expect(found.scrolledOut == ["m3"])
        #expect(found.window.messages.map(\.id) == ["m9", "m5", "m4"])
        #expect(found.state.messageCount == 6)
    }

    @Test func aWriteFromTheSQLiteShellArrives() async throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...5))
        let path = store.path
        let created = Int64(Samples.epoch.timeIntervalSince1970 * 1000) + 60 * 60_000

        // One transaction, so one commit: the iterator wakes at the first write it is told of,
        // and three commits could arrive as two elements.
        let changes = try await firstChanges(of: try store.changes(windowSize: 10)) {
            try SQLiteShell.run(path, """
                BEGIN;
                INSERT INTO messages (id, author_id, text, created_at) VALUES ('typed', 'u2', 'typed in sqlite3', \(created));
                UPDATE messages SET text = 'edited in sqlite3' WHERE id = 'm2';
                DELETE FROM messages WHERE id = 'm1';
                COMMIT;
                """)
        }
        let found = try #require(changes)
        #expect(found.inserted == ["typed"])
        #expect(found.updated == ["m2"])
        #expect(found.removed == ["m1"])
    }

    @Test func changesSinceAStaleSnapshotArriveWithoutAWrite() async throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...3))
        let old = try store.makeSnapshot(limit: 10)
        try store.upsert(messages: [Samples.message(4)])

        var iterator = store.changes(since: old).makeAsyncIterator()
        let changes = try #require(try await iterator.next())
        #expect(changes.inserted == ["m4"])
        #expect(changes.previousState == old.state)
    }

    @Test func successiveElementsEachDescribeWhatMovedSinceThePreviousOne() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...3))
        let watcher = TimelineChangeWatcher(store: store, since: try store.makeSnapshot(limit: 10))
        #expect(try watcher.check() == nil)

        try store.upsert(messages: [Samples.message(4)])
        #expect(try watcher.check()?.inserted == ["m4"])
        #expect(try watcher.check() == nil)

        try store.markRead(ids: ["m4"])
        let read = try #require(try watcher.check())
        #expect(read.inserted.isEmpty)
        #expect(read.updated == ["m4"])
    }

    @Test func aChangeOutsideTheWindowStillMovesTheSequenceWithAnEmptyElement() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...5))
        let watcher = TimelineChangeWatcher(store: store, since: try store.makeSnapshot(limit: 2))
        try store.upsert(messages: [Samples.message(1, text: "an old message, edited")])

        let changes = try #require(try watcher.check())
        #expect(changes.isEmpty)
        #expect(changes.state.generation != changes.previousState.generation)
    }

    #if os(Linux)
    /// The wake-up `show -f` has: with inotify the iterator waits for the write itself, so a commit
    /// arrives although the timer would not fire for half a minute (the deadline is 10 s).
    @Test func aCommitWakesTheIteratorLongBeforeItsPollInterval() async throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...5))
        let other = try TimelineStore(path: store.path)

        let changes = try await firstChanges(of: store.changes(since: try store.makeSnapshot(limit: 3), pollInterval: .seconds(30))) {
            try other.upsert(messages: [Samples.message(9, text: "from the other store")])
        }
        #expect(try #require(changes).inserted == ["m9"])
    }
    #endif

    @Test func withoutFileNoticesTheIteratorFindsACommitOnItsTimer() async throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...5))
        let other = try TimelineStore(path: store.path)
        let sequence = TimelineChangeSequence(store: store, since: try store.makeSnapshot(limit: 3),
                                              pollInterval: .milliseconds(50), notified: false)

        let changes = try await firstChanges(of: sequence) {
            try other.upsert(messages: [Samples.message(9, text: "from the other store")])
        }
        #expect(try #require(changes).inserted == ["m9"])
    }

    @Test func theWakeChecksOftenJustAfterAWriteAndSeldomOtherwise() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...2))
        let timer = DatabaseWriteWake(databasePath: store.path, pollInterval: .milliseconds(100), notified: false)
        #expect(!timer.isNotified)
        #expect(timer.nextWait() == .milliseconds(100))
        #expect(timer.timeoutMilliseconds() == 100)
        #if os(Linux)
        var wake = DatabaseWriteWake(databasePath: store.path, pollInterval: .milliseconds(100))
        #expect(wake.isNotified)
        #expect(wake.nextWait() == .seconds(1))
        wake.noteWrite()
        #expect(wake.nextWait() == .milliseconds(20))
        #expect(wake.timeoutMilliseconds() == 20)
        // A poll interval longer than the safety net is kept.
        #expect(DatabaseWriteWake(databasePath: store.path, pollInterval: .seconds(30)).nextWait() == .seconds(30))
        #endif
    }

    @Test func cancellingTheIteratingTaskEndsTheSequence() async throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        let sequence = try store.changes(windowSize: 5, pollInterval: .seconds(30))
        let iteration = Task { () async throws -> Int in
            var count = 0
            for try await _ in sequence { count += 1 }
            return count
        }
        try await Task.sleep(for: .milliseconds(200))
        iteration.cancel()
        // Ends although the next check is half a minute away (the suite's time limit would fail it).
        #expect(try await iteration.value == 0)
    }

    @Test func aSequenceIsIteratedFromTheMainActor() async throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        let sequence = try store.changes(windowSize: 5)
        try store.upsert(messages: [Samples.message(1)])
        let inserted = await MainActor.run { () -> Task<[String], any Error> in
            Task { @MainActor in
                for try await changes in sequence { return changes.inserted }
                return []
            }
        }
        #expect(try await inserted.value == ["m1"])
    }
}
