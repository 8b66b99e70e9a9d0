import Foundation
import Testing
import TimelineKit

/// Issue 6, points 7 and 8 through the `timeline` tool: a snapshot path that points elsewhere,
/// a file-size limit hit while the snapshot is written, snapshots of other format versions and a
/// database from a newer schema. (SnapshotFileTests and SnapshotWriteTests cover the library.)
@Suite struct ReliabilityFilesTests {
    static let victimText = "not the timeline's file: keep me"

    @Test func aWriteCommandReplacesASnapshotSymlinkInsteadOfWritingThroughIt() throws {
        let scenario = Scenario()
        try scenario.importSample()
        #expect(try scenario.timeline.run(["user", "me", "--handle", "linker", "--name", "Linker"]).status == 0)
        let victim = scenario.directory + "/victim"
        try Data(Self.victimText.utf8).write(to: URL(fileURLWithPath: victim))

        // The snapshot and its temporary file both point at the victim.
        for link in [scenario.snapshotPath, scenario.snapshotPath + ".tmp"] {
            try? FileManager.default.removeItem(atPath: link)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        }
        let posted = try scenario.timeline.run(["post", "--as", "linker", "through a link?"])
        #expect(posted.status == 0, "\(posted.errors)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == Self.victimText)
        let attributes = try FileManager.default.attributesOfItem(atPath: scenario.snapshotPath)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(!FileManager.default.fileExists(atPath: scenario.snapshotPath + ".tmp"))
        #expect(try scenario.timeline.run(["snapshot", "--check"]).status == 0)

        // `show` refuses a linked snapshot (never reads through it) and replaces the link too.
        try FileManager.default.removeItem(atPath: scenario.snapshotPath)
        try FileManager.default.createSymbolicLink(atPath: scenario.snapshotPath, withDestinationPath: victim)
        let shown = try scenario.timeline.runInTerminal(["show", "-n", "2", "--color", "never"])
        #expect(shown.status == 0)
        #expect(shown.output.contains("through a link?"))
        #expect(shown.errors.contains("symbolic link"), "\(shown.errors)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == Self.victimText)
        #expect(try scenario.timeline.run(["snapshot", "--check"]).status == 0)
    }

    /// A directory cannot be replaced by a rename, so `show` cannot rewrite the snapshot: it must
    /// still show the database, say so in a note, and succeed (a shell start-up never gets an
    /// error status for what is only a cache).
    @Test func aDirectoryInPlaceOfTheSnapshotStillShowsTheDatabaseAndSucceeds() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let expected = try scenario.timeline.run(["show", "-n", "2", "--color", "never"]).output
        try FileManager.default.removeItem(atPath: scenario.snapshotPath)
        try FileManager.default.createDirectory(atPath: scenario.snapshotPath, withIntermediateDirectories: false)

        for inTerminal in [true, false] {
            let shown = inTerminal ? try scenario.timeline.runInTerminal(["show", "-n", "2", "--color", "never"])
                                   : try scenario.timeline.run(["show", "-n", "2", "--color", "never"])
            #expect(shown.output == expected)
            #expect(shown.errors.contains("is a directory"), "\(shown.errors)")
            #expect(shown.status == 0, "show exited \(shown.status) (terminal: \(inTerminal)): \(shown.errors)")
            // Nothing was changed by `show`, so nothing may claim that a change was saved.
            #expect(!shown.errors.contains("The change was saved"), "\(shown.errors)")
        }
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: scenario.snapshotPath, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    @Test func aLockFileSymlinkIsNotFollowedAndTheCommitStands() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let victim = scenario.directory + "/victim"
        try Data(Self.victimText.utf8).write(to: URL(fileURLWithPath: victim))
        let lock = scenario.snapshotPath + ".lock"
        try? FileManager.default.removeItem(atPath: lock)
        try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: victim)
        let snapshotBefore = scenario.fileBytes(scenario.snapshotPath)

        let marked = try scenario.timeline.run(["mark-read", "--all"])
        #expect(marked.status == 1)
        #expect(marked.errors.contains("The change was saved, but the snapshot"), "\(marked.errors)")
        #expect(try scenario.query("SELECT count(*) FROM unread_messages") == "0")
        #expect(scenario.fileBytes(scenario.snapshotPath) == snapshotBefore)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == Self.victimText)
    }

    /// A file-size limit (RLIMIT_FSIZE, `ulimit -f`) that the commit fits under but the snapshot
    /// does not: a full disk while the snapshot is written.
    @Test func aFileSizeLimitHitWhileWritingTheSnapshotKeepsTheCommitAndTheOldSnapshotAndSaysSo() throws {
        let scenario = Scenario()
        // 400 messages of 1,000 incompressible characters: a snapshot of about 400 KB.
        var random = SplitMix64(seed: 7)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var lines = [ImportLine.user(id: "big", handle: "big", name: "Big")]
        for n in 0..<400 {
            let text = String((0..<1000).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
            lines.append(ImportLine.message(id: "big-\(n)", author: "big", text: text, createdAt: 1_700_000_000_000 + Int64(n) * 1000))
        }
        let path = scenario.directory + "/big.jsonl"
        try ImportLine.write(lines, to: path)
        #expect(try scenario.timeline.run(["import", path]).status == 0)
        #expect(try scenario.timeline.run(["snapshot", "--limit", "400"]).status == 0)
        let snapshotBefore = try #require(scenario.fileBytes(scenario.snapshotPath))
        #expect(snapshotBefore.count > 300_000)

        // 128 KiB: room for the commit's few WAL pages, not for the snapshot. SIGXFSZ gets its
        // default action, as in a login shell (the test runner may have it ignored, which a
        // child would inherit).
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["--default-signal=XFSZ", "/bin/bash", "-c", "ulimit -f 128; exec \"$0\" \"$@\"",
                             TimelineProcess.executable, "post", "--as", "big", "posted under a file-size limit"]
        process.environment = scenario.timeline.environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        // It reports the failure and exits with a status; a signal (SIGXFSZ) would say nothing.
        #expect(process.terminationReason == .exit, "timeline was killed by signal \(process.terminationStatus) instead of reporting the error")
        #expect(process.terminationStatus == 1)
        #expect(errorText.contains("The change was saved, but the snapshot"), "\(errorText)")
        // The commit stands, the old snapshot stays whole, no temporary file is left.
        #expect(try scenario.query("SELECT count(*) FROM messages WHERE text = 'posted under a file-size limit'") == "1")
        #expect(try scenario.query("PRAGMA integrity_check") == "ok")
        #expect(scenario.fileBytes(scenario.snapshotPath) == snapshotBefore)
        #expect(!FileManager.default.fileExists(atPath: scenario.snapshotPath + ".tmp"))

        // The next show paints the old snapshot, reconciles, and leaves a fresh one.
        let shown = try scenario.timeline.runInTerminal(["show", "-n", "2", "--color", "never"])
        #expect(shown.status == 0)
        #expect(shown.output.contains("posted under a file-size limit"))
        #expect(try scenario.timeline.run(["snapshot", "--check"]).status == 0)
    }

    // MARK: Versions

    /// Every older version, the next one, and the largest: any version but the current one.
    @Test(arguments: Array(0 ..< TimelineSnapshot.formatVersion) + [TimelineSnapshot.formatVersion + 1, 0xFFFF])
    func aSnapshotOfAnotherFormatVersionIsRefusedAndRewrittenByShow(version: Int) throws {
        let scenario = Scenario()
        try scenario.importSample()
        let expected = try scenario.timeline.run(["show", "-n", "3", "--color", "never"]).output
        var bytes = try #require(scenario.fileBytes(scenario.snapshotPath)).map { $0 }
        Self.setFormatVersion(&bytes, to: version)
        try Data(bytes).write(to: URL(fileURLWithPath: scenario.snapshotPath))

        let check = try scenario.timeline.run(["snapshot", "--check"])
        #expect(check.status == 5)
        #expect(check.errors.contains("version \(version)"), "\(check.errors)")

        for inTerminal in [true, false] {
            try Data(bytes).write(to: URL(fileURLWithPath: scenario.snapshotPath))
            let shown = inTerminal ? try scenario.timeline.runInTerminal(["show", "-n", "3", "--color", "never"])
                                   : try scenario.timeline.run(["show", "-n", "3", "--color", "never"])
            #expect(shown.status == 0)
            #expect(shown.output == expected)
            let notes = shown.errors.split(separator: "\n")
            #expect(notes.count == 1 && notes[0].contains("could not be used") && notes[0].contains("version"), "\(shown.errors)")
            #expect(try scenario.timeline.run(["snapshot", "--check"]).status == 0)
            #expect(try SnapshotFile(path: scenario.snapshotPath).readHeader().formatVersion == TimelineSnapshot.formatVersion)
        }
    }

    @Test func aDatabaseFromANewerSchemaIsRefusedWithExit78AndLeftUntouched() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let version = Int(try scenario.query("PRAGMA user_version"))!
        try scenario.query("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA user_version = \(version + 1)")
        try FileManager.default.removeItem(atPath: scenario.snapshotPath)
        let before = try #require(scenario.fileBytes(scenario.databasePath))
        let input = scenario.directory + "/input.jsonl"
        try ImportLine.write([ImportLine.user(id: "late", handle: "late", name: "Late")], to: input)

        let commands: [[String]] = [
            ["show"], ["show", "--json"], ["import", input], ["post", "--as", "late", "hi"], ["mark-read", "--all"],
            ["delete", "x"], ["user", "me", "--handle", "late", "--name", "Late"], ["stats"], ["export"],
            ["snapshot"], ["snapshot", "--check"],
        ]
        for command in commands {
            let result = try scenario.timeline.run(command)
            #expect(result.status == 78, "\(command): exit \(result.status): \(result.errors)")
            #expect(result.errors.contains("schema version \(version + 1)") && result.errors.contains("newer timeline"),
                    "\(command): \(result.errors)")
            #expect(result.output.isEmpty, "\(command)")
        }
        let terminal = try scenario.timeline.runInTerminal(["show"])
        #expect(terminal.status == 78, "\(terminal.errors)")
        #expect(terminal.errors.contains("newer timeline"))

        #expect(scenario.fileBytes(scenario.databasePath) == before)
        #expect(!FileManager.default.fileExists(atPath: scenario.snapshotPath))
    }

    /// Writes `version` into a snapshot's header and recomputes the header's CRC-32, as a
    /// well-formed file of that version would have it (layout in the README).
    static func setFormatVersion(_ bytes: inout [UInt8], to version: Int) {
        let contentLength = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        bytes[16] = UInt8(version & 0xFF)
        bytes[17] = UInt8(version >> 8)
        let crc = crc32(bytes[8 ..< 8 + contentLength - 4])
        for i in 0..<4 { bytes[8 + contentLength - 4 + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
    }

    /// CRC-32 (IEEE, as zlib), bit by bit: independent of the library's table.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
