import Foundation
import Testing
@testable import TimelineKit

@Suite struct SnapshotWriteTests {
    @Test func everyWriteLeavesAFreshSnapshotOfCommittedData() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...5))
        var snapshot = try store.snapshotFile.read()
        #expect(snapshot.isFresh(for: try store.state()))
        #expect(snapshot.window.messages.map(\.id) == ["m5", "m4", "m3", "m2", "m1"])
        #expect(snapshot.state.unreadCount == 5)

        try store.markRead(ids: ["m5"])
        snapshot = try store.snapshotFile.read()
        #expect(snapshot.isFresh(for: try store.state()))
        #expect(snapshot.window.messages.first?.isRead == true)
        #expect(snapshot.state.unreadCount == 4)
    }

    @Test func theSnapshotHoldsTheConfiguredNumberOfNewestMessages() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory, configuration: .init(snapshotLimit: 10))
        try store.upsert(messages: Samples.messages(1...50))
        let snapshot = try store.snapshotFile.read()
        #expect(snapshot.window.messages.map(\.id) == (41...50).reversed().map { "m\($0)" })
        #expect(snapshot.limit == 10)
        #expect(snapshot.state.messageCount == 50)
    }

    @Test func aLimitChosenForTheSnapshotLastsThroughLaterWrites() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...30))
        #expect(try store.snapshotFile.read().window.messages.count == 30)
        try store.writeSnapshot(limit: 5)
        try store.upsert(messages: [Samples.message(31)])
        let snapshot = try store.snapshotFile.read()
        #expect(snapshot.limit == 5)
        #expect(snapshot.window.messages.map(\.id) == ["m31", "m30", "m29", "m28", "m27"])
        #expect(try TimelineStore(path: store.path).makeSnapshot().limit == 5)
    }

    @Test func aRolledBackWriteLeavesTheSnapshotAsItWas() throws {
        struct Stop: Error {}
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...3))
        let before = try Data(contentsOf: URL(fileURLWithPath: store.snapshotFile.path))
        #expect(throws: Stop.self) {
            try store.write { transaction in
                try transaction.upsert(messages: Samples.messages(4...9))
                throw Stop()
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.snapshotFile.path)) == before)
    }

    @Test func aStaleSnapshotIsRefreshedAndAFreshOneIsLeftAlone() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...3))
        let generation = try store.state().generation
        #expect(try store.writeSnapshot() == .alreadyFresh(generation: generation))

        try SQLiteShell.run(store.path, "UPDATE messages SET text = 'by hand' WHERE id = 'm3'")
        #expect(!(try store.snapshotFile.read().isFresh(for: try store.state())))
        #expect(try store.writeSnapshot() == .written(generation: try store.state().generation))
        #expect(try store.snapshotFile.read().window.messages.first?.text == "by hand")
    }

    @Test func aSnapshotThatCannotBeWrittenKeepsTheCommitAndTheOldSnapshot() throws {
        let directory = TemporaryDirectory()
        let snapshotDirectory = directory.file("snapshots")
        try FileManager.default.createDirectory(atPath: snapshotDirectory, withIntermediateDirectories: false)
        let snapshotPath = snapshotDirectory + "/timeline.snapshot"
        let store = try Samples.store(in: directory, configuration: .init(snapshotPath: snapshotPath))
        try store.upsert(messages: Samples.messages(1...3))
        let old = try store.snapshotFile.read()

        // A directory where the temporary file should go makes the write fail, as a full disk would.
        try FileManager.default.createDirectory(atPath: snapshotPath + ".tmp", withIntermediateDirectories: false)
        #expect {
            try store.upsert(messages: [Samples.message(4)])
        } throws: { error in
            guard case .snapshotNotWritten = error as? TimelineStoreError else { return false }
            return true
        }
        #expect(try store.state().messageCount == 4)
        #expect(try store.snapshotFile.read() == old)

        try FileManager.default.removeItem(atPath: snapshotPath + ".tmp")
        #expect(try store.writeSnapshot() == .written(generation: try store.state().generation))
    }

    @Test func concurrentWritersNeverLeaveAnOlderSnapshotInPlace() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("timeline.sqlite")
        _ = try Samples.store(in: directory)
        // Separate stores behave as separate processes: separate connections, separate lock
        // file descriptors.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    let store = try TimelineStore(path: path)
                    for n in 0..<10 {
                        try store.upsert(messages: [Samples.message(worker * 100 + n)])
                    }
                }
            }
            try await group.waitForAll()
        }
        let store = try TimelineStore(path: path)
        let snapshot = try store.snapshotFile.read()
        #expect(snapshot.isFresh(for: try store.state()))
        #expect(snapshot.state.messageCount == 40)
    }

    @Test func aShowThatCannotGetTheSnapshotLockGivesUpWithinItsBound() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...3))
        try SQLiteShell.run(store.path, "DELETE FROM messages WHERE id = 'm1'")
        let outcome = try FileLock.withLock(store.snapshotFile.path + ".lock", timeout: nil) { () throws(TimelineStoreError) in
            try store.writeSnapshot(lockTimeout: .milliseconds(20))
        }
        #expect(outcome == .lockBusy)
        #expect(try store.writeSnapshot(lockTimeout: .milliseconds(20)) == .written(generation: try store.state().generation))
    }
}
