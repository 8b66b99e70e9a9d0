import Foundation
import Testing

/// Issue 28, finding 3: an import is one transaction of one upsert per message, and SQLite moved
/// each statement's journal to a temporary file once one upsert's journal passed 64 KiB: 2.4 GiB
/// written to `etilqs_*` per 100k messages. The upserts of a bulk transaction now take no
/// statement journal at all (`BulkWriteJournalTests`), and the first thousand of a transaction,
/// which do, keep theirs in memory up to 127 KiB (`SQLiteConnection.statementJournalSpillBytes`),
/// so an import creates no temporary file.
///
/// SQLite creates its temporary files in `SQLITE_TMPDIR` and unlinks them at once, so the test
/// watches that directory's modification time, which a file created and removed changes.
@Suite struct ImportTemporaryFileTests {
    /// A JSON Lines file of 40 users and `count` messages whose IDs arrive in scattered order,
    /// as a real export's do against the ID index, so that upserts land all over the index. The
    /// IDs are 320 characters long: an index page then holds a dozen of them, and a few thousand
    /// messages make the index as deep as a hundred thousand short IDs do, where one upsert's
    /// page splits journal more than 64 KiB.
    static func scatteredTimeline(count: Int) -> String {
        var lines: [String] = (0..<40).map { #"{"type":"user","id":"user-\#($0)","handle":"handle\#($0)","name":"User \#($0)"}"# }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for index in 0..<count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let id = String(repeating: String(state, radix: 16), count: 20).prefix(320)
            let words = (0..<(8 + index % 30)).map { "word\((Int(state >> 40) &+ $0 &* 7919) % 5000)" }.joined(separator: " ")
            let minute = String(format: "%02d", index % 60), hour = String(format: "%02d", (index / 60) % 24)
            lines.append(#"{"type":"message","id":"\#(id)","author":"user-\#(index % 40)","text":"\#(words)","#
                         + #""created_at":"2026-11-\#(String(format: "%02d", 1 + index / 1440))T\#(hour):\#(minute):00Z","read":\#(index % 3 == 0)}"#)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func modificationTime(_ path: String) -> timespec {
        var status = stat()
        precondition(stat(path, &status) == 0, "cannot stat \(path)")
        return status.st_mtim
    }

    @Test func anImportOfThousandsOfMessagesWritesNoTemporaryFile() throws {
        let temporary = NSTemporaryDirectory() + "timeline-sqlite-tmp-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let scenario = Scenario(environment: ["SQLITE_TMPDIR": temporary])
        try scenario.importSample()
        let file = scenario.directory + "/scattered.jsonl"
        try Data(Self.scatteredTimeline(count: 3_000).utf8).write(to: URL(fileURLWithPath: file))

        // The control: SQLite does put its temporary files there, and the check sees one.
        let control = scenario.directory + "/control.sqlite"
        let before = Self.modificationTime(temporary)
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        shell.arguments = [control, """
            PRAGMA temp_store = FILE; PRAGMA temp.cache_size = 10; BEGIN;
            CREATE TEMP TABLE spill (x); INSERT INTO spill SELECT randomblob(1000) FROM generate_series(1, 2000); COMMIT;
            """]
        shell.environment = ["SQLITE_TMPDIR": temporary]
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
        let afterControl = Self.modificationTime(temporary)
        #expect(afterControl.tv_sec != before.tv_sec || afterControl.tv_nsec != before.tv_nsec,
                "the sqlite3 shell's temporary table did not touch SQLITE_TMPDIR: the check would see nothing")

        let result = try scenario.timeline.run(["import", file])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("3,000 messages (3,000 new)"))
        let after = Self.modificationTime(temporary)
        #expect(after.tv_sec == afterControl.tv_sec && after.tv_nsec == afterControl.tv_nsec,
                "the import created a temporary file (a statement journal that spilled to disk)")
        #expect(try scenario.sqlite("SELECT count(*) FROM messages") == "\(337 + 3_000)")
    }
}
