import Foundation
import Testing
@testable import TimelineKit

/// `TimelineStore.reconcile(_:atLeast:wholeWindow:)`: what `show` paints after asking the
/// database, decided in one read, on a real database with a real snapshot file.
@Suite struct TimelineReconciliationTests {
    /// A store of 30 messages whose snapshot holds the newest 10, and a preview of its first 3.
    private func setUp(_ directory: TemporaryDirectory) throws -> (TimelineStore, SnapshotPreview) {
        let store = try Samples.store(in: directory, configuration: .init(snapshotLimit: 10))
        try store.upsert(messages: Samples.messages(1...30))
        return (store, try store.snapshotFile.readPreview(messages: 3))
    }

    /// The snapshot file of `snapshot`, with the text of message `id` (past the preview's head)
    /// made invalid UTF-8: the checksums pass, the preview decodes, `complete()` fails.
    private func writeSnapshotWithABrokenRest(_ snapshot: TimelineSnapshot, brokenID id: String, to file: SnapshotFile) throws {
        var payload = BinaryEncoder().encode(snapshot)
        let text = try #require(snapshot.window.messages.first { $0.id == id }?.text)
        let start = try #require(payload.indices.first { payload[$0...].starts(with: Array(text.utf8)) })
        payload[start + 1] = 0xFF
        let header = SnapshotHeader(formatVersion: TimelineSnapshot.formatVersion, payloadLength: payload.count,
                                    generation: snapshot.state.generation, limit: snapshot.limit,
                                    databaseID: snapshot.state.databaseID)
        try Data(header.encoded() + (try LZ4Frame.compress(payload))).write(to: URL(fileURLWithPath: file.path))
    }

    /// Whether `answer` shows the window of `expected` and carries it, with its state and size, as
    /// the snapshot to follow from and to write.
    private static func answer(_ answer: TimelineReconciliation, holdsAllOf expected: TimelineSnapshot) -> Bool {
        answer.window == expected.window && answer.snapshot?.window == expected.window
            && answer.snapshot?.state == expected.state && answer.snapshot?.limit == expected.limit
    }

    @Test func aFreshPreviewIsTheAnswerAndItsRestIsNeverDecoded() throws {
        let directory = TemporaryDirectory()
        let (store, _) = try setUp(directory)
        // A rest that cannot be decoded proves that a fresh answer never decodes it.
        try writeSnapshotWithABrokenRest(try store.snapshotFile.read(), brokenID: "m22", to: store.snapshotFile)
        let preview = try store.snapshotFile.readPreview(messages: 3)

        let answer = try store.reconcile(preview)
        #expect(answer.isSnapshotFresh)
        #expect(answer.window == preview.head)
        #expect(answer.changes?.isEmpty == true)
        #expect(answer.snapshot == nil)
        #expect(answer.snapshotProblem == nil)
    }

    @Test func aStalePreviewIsAnsweredWithTheDatabasesWindowAndWhatChanged() throws {
        let directory = TemporaryDirectory()
        let (store, preview) = try setUp(directory)
        try SQLiteShell.run(store.path, """
            INSERT INTO messages (id, author_id, text, created_at) VALUES
              ('m31', 'u1', 'new', \(MillisecondTime.milliseconds(from: Samples.message(31).createdAt)));
            UPDATE messages SET text = 'edited' WHERE id = 'm29';
            DELETE FROM messages WHERE id = 'm28';
            """)

        let answer = try store.reconcile(preview)
        #expect(!answer.isSnapshotFresh)
        let changes = try #require(answer.changes)
        #expect(changes.inserted == ["m31"])
        #expect(changes.updated == ["m29"])
        #expect(changes.removed == ["m28"])
        #expect(changes.previousState == preview.state)
        // The whole window of the snapshot's size, as the database has it, and the state with it.
        #expect(Self.answer(answer, holdsAllOf: try store.makeSnapshot(limit: 10)))
    }

    @Test func withoutAPreviewTheAnswerIsTheNewestWindowOfAtLeastTheDefaultSize() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...300))

        let answer = try store.reconcile(nil)
        #expect(!answer.isSnapshotFresh)
        #expect(answer.changes == nil)
        #expect(answer.snapshotProblem == nil)
        #expect(Self.answer(answer, holdsAllOf: try store.makeSnapshot(limit: TimelineSnapshot.defaultLimit)))

        let larger = try store.reconcile(nil, atLeast: 250)
        #expect(larger.window.messages.count == 250)
        #expect(larger.snapshot?.limit == 250)
    }

    @Test func aPreviewWhoseRestDoesNotDecodeIsAnsweredFromTheDatabaseWithTheReason() throws {
        let directory = TemporaryDirectory()
        let (store, _) = try setUp(directory)
        try writeSnapshotWithABrokenRest(try store.snapshotFile.read(), brokenID: "m22", to: store.snapshotFile)
        try SQLiteShell.run(store.path, "UPDATE messages SET like_count = 5 WHERE id = 'm30'")
        let preview = try store.snapshotFile.readPreview(messages: 3)

        let answer = try store.reconcile(preview)
        #expect(!answer.isSnapshotFresh)
        #expect(answer.changes == nil)
        guard case .corrupt = answer.snapshotProblem else {
            Issue.record("expected a corrupt snapshot, got \(String(describing: answer.snapshotProblem))")
            return
        }
        #expect(answer.window == (try store.timeline(limit: TimelineSnapshot.defaultLimit)))
    }

    /// A fresh preview is the answer only once its content checksum, left for after the paint,
    /// holds: damaged, what was painted is replaced by the database's window (issue 38).
    @Test func aFreshPreviewWhoseContentChecksumFailsIsAnsweredFromTheDatabase() throws {
        let directory = TemporaryDirectory()
        let (store, _) = try setUp(directory)
        var file = Array(try Data(contentsOf: URL(fileURLWithPath: store.snapshotFile.path)))
        file[file.count - 2] ^= 0x10
        try Data(file).write(to: URL(fileURLWithPath: store.snapshotFile.path))
        let preview = try store.snapshotFile.readPreview(messages: 3)

        let answer = try store.reconcile(preview)
        #expect(!answer.isSnapshotFresh)
        #expect(answer.changes == nil)
        guard case .corrupt = answer.snapshotProblem else {
            Issue.record("expected a corrupt snapshot, got \(String(describing: answer.snapshotProblem))")
            return
        }
        #expect(answer.window == (try store.timeline(limit: TimelineSnapshot.defaultLimit)))
    }

    @Test func followingAFreshPreviewAnswersWithTheWholeWindowToFollowFrom() throws {
        let directory = TemporaryDirectory()
        let (store, preview) = try setUp(directory)
        let answer = try store.reconcile(preview, wholeWindow: true)
        #expect(answer.isSnapshotFresh)
        #expect(answer.changes?.isEmpty == true)
        #expect(Self.answer(answer, holdsAllOf: try store.snapshotFile.read()))
    }

    @Test func aPreviewOfAnotherDatabaseThatLooksTheSameIsNotFresh() throws {
        let directory = TemporaryDirectory()
        let (store, _) = try setUp(directory)
        var foreign = try store.snapshotFile.read()
        foreign.state.databaseID = "ffffffffffffffffffffffffffffffff"
        let preview = try SnapshotFile.decodePreview(try SnapshotFile.encode(foreign), messages: 3)

        let answer = try store.reconcile(preview)
        #expect(!answer.isSnapshotFresh)
        #expect(answer.changes?.isEmpty == true)
        #expect(answer.snapshot?.state == (try store.state()))
    }

    @Test func aSnapshotHoldsEnoughForARequestWhenItHoldsThatManyOrAllThereWere() throws {
        let directory = TemporaryDirectory()
        let (store, preview) = try setUp(directory)
        #expect(preview.canShow(messages: 10))
        #expect(!preview.canShow(messages: 11))

        try store.deleteMessages(ids: Samples.messages(1...25).map(\.id))
        let small = try store.snapshotFile.readPreview(messages: 3)
        #expect(small.windowMessageCount == 5)
        #expect(small.canShow(messages: 500))
    }

    // MARK: Writing the answer as the snapshot

    /// The answer's window is written as the snapshot when the database has not moved since:
    /// a candidate that differs from the database (which a real one never does) shows it was
    /// not read again.
    @Test func theAnswersWindowIsWrittenWithoutReadingItAgainWhenNothingMoved() throws {
        let directory = TemporaryDirectory()
        let (store, preview) = try setUp(directory)
        try SQLiteShell.run(store.path, "UPDATE messages SET like_count = 5 WHERE id = 'm30'")
        var answer = try store.reconcile(preview)
        var candidate = try #require(answer.snapshot)
        candidate.window.messages[0].text = "only in the candidate"
        answer.snapshot = candidate

        #expect(try store.writeSnapshot(reusing: answer.snapshot) == .written(generation: candidate.generation))
        #expect(try store.snapshotFile.read().window.messages.first?.text == "only in the candidate")
    }

    @Test func aCandidateTheDatabaseMovedPastOrOfAnotherSizeIsReadAgain() throws {
        let directory = TemporaryDirectory()
        let (store, preview) = try setUp(directory)
        try SQLiteShell.run(store.path, "UPDATE messages SET like_count = 5 WHERE id = 'm30'")
        var candidate = try #require(try store.reconcile(preview).snapshot)
        candidate.window.messages[0].text = "only in the candidate"

        try SQLiteShell.run(store.path, "UPDATE messages SET like_count = 6 WHERE id = 'm30'")
        try store.writeSnapshot(reusing: candidate)
        #expect(try store.snapshotFile.read().window == (try store.makeSnapshot(limit: 10)).window)

        let current = try #require(try store.reconcile(nil).snapshot)
        var larger = current
        larger.window.messages[0].text = "only in the candidate"
        try store.writeSnapshot(force: true, reusing: larger)  // 200 messages; the file holds 10
        let written = try store.snapshotFile.read()
        #expect(written.limit == 10)
        #expect(written.window.messages.first?.text != "only in the candidate")
    }
}
