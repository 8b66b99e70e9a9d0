import Foundation
import Testing
import TimelineKit

@Suite struct ShowCommandTests {
    @Test func theFirstPaintNeedsOnlyTheSnapshotNotTheDatabase() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let expected = try scenario.timeline.run(["show", "-n", "3", "--color", "never"]).output
        try FileManager.default.removeItem(atPath: scenario.databasePath)
        try? FileManager.default.removeItem(atPath: scenario.databasePath + "-wal")
        try? FileManager.default.removeItem(atPath: scenario.databasePath + "-shm")

        let shown = try scenario.timeline.runInTerminal(["show", "-n", "3", "--color", "never"])
        #expect(shown.status == 0)
        #expect(shown.output == expected)
        #expect(shown.errors.contains("showing the last snapshot"))
    }

    @Test func aChangeMadeWithTheSQLiteShellAppearsInTheNextShow() throws {
        let scenario = Scenario()
        try scenario.importSample()
        try scenario.sqlite("""
            INSERT INTO messages (id, author_id, text, created_at)
            SELECT 'typed-by-hand', id, 'written in the sqlite3 shell', 4102444800000 FROM users LIMIT 1
            """)
        let shown = try scenario.timeline.run(["show", "-n", "1"])
        #expect(shown.status == 0)
        #expect(shown.output.contains("written in the sqlite3 shell"))
        // The show refreshed the snapshot.
        #expect(try scenario.timeline.run(["snapshot", "--check"]).status == 0)
    }

    @Test func aCorruptSnapshotFallsBackToTheDatabaseAndIsRewrittenWithOneNote() throws {
        let scenario = Scenario()
        try scenario.importSample()
        var bytes = try #require(scenario.fileBytes(scenario.snapshotPath))
        bytes[bytes.count / 2] ^= 0x40
        try bytes.write(to: URL(fileURLWithPath: scenario.snapshotPath))

        let shown = try scenario.timeline.runInTerminal(["show", "-n", "2", "--color", "never"])
        #expect(shown.status == 0)
        #expect(!shown.output.isEmpty)
        let notes = shown.errors.split(separator: "\n")
        #expect(notes.count == 1)
        #expect(notes.first?.contains("could not be used") == true)
        #expect(try scenario.timeline.run(["snapshot", "--check"]).status == 0)
    }

    /// On a screen too short to repaint, new messages go below the painted block; a new repost of
    /// a message that was already shown still shows its original there.
    @Test func aNewRepostPrintedBelowTheBlockShowsItsOriginal() throws {
        let scenario = Scenario()
        let first = scenario.directory + "/first.jsonl", second = scenario.directory + "/second.jsonl"
        try ImportLine.write([ImportLine.user(id: "u1", handle: "ada", name: "Ada"),
                              ImportLine.message(id: "o1", author: "u1", text: "the original words", createdAt: 1_790_000_000_000)], to: first)
        try ImportLine.write([ImportLine.message(id: "r1", author: "u1", text: "", createdAt: 1_790_000_060_000,
                                                 extra: #","repost_of":"o1""#)], to: second)
        #expect(try scenario.timeline.run(["import", first]).status == 0)
        let stale = try #require(scenario.fileBytes(scenario.snapshotPath))
        #expect(try scenario.timeline.run(["import", second]).status == 0)
        try stale.write(to: URL(fileURLWithPath: scenario.snapshotPath))

        let shown = try scenario.timeline.runInTerminal(["show", "--color", "never"], rows: 2)
        #expect(shown.status == 0, "\(shown.errors)")
        #expect(!shown.output.contains("original not available"), "\(shown.output)")
        #expect(shown.output.components(separatedBy: "the original words").count == 3, "\(shown.output)")
    }

    @Test func withoutADatabaseShowSaysHowToAddDataAndSucceeds() throws {
        let scenario = Scenario()
        for run in [try scenario.timeline.run(["show"]), try scenario.timeline.runInTerminal([])] {
            #expect(run.status == 0)
            #expect(run.output.isEmpty)
            #expect(run.errors.contains("timeline login mastodon"))
            #expect(run.errors.contains("timeline import"))
        }
        #expect(!FileManager.default.fileExists(atPath: scenario.databasePath))
    }

    @Test func jsonOutputIsOneParsableMessagePerLineWithItsAuthor() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let shown = try scenario.timeline.run(["show", "--json", "-n", "25"])
        let lines = shown.output.split(separator: "\n")
        #expect(lines.count == 25)
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["type"] as? String == "message")
            let user = try #require(object["user"] as? [String: Any])
            #expect(user["id"] as? String == object["author"] as? String)
        }
    }

    @Test(arguments: [40, 80])
    func linesWrapToTheWidthWithWideCharacters(width: Int) throws {
        let scenario = Scenario()
        try scenario.importSample()
        for arguments in [["--width", "\(width)", "--color", "never"], ["--width", "\(width)", "--color", "always"]] {
            let shown = try scenario.timeline.run(["show", "-n", "400"] + arguments)
            let lines = shown.output.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count > 337)
            for line in lines {
                #expect(TimelineRenderer.displayWidth(ofLine: String(line)) <= width, "too wide: \(line)")
            }
        }
        // The sample's CJK and emoji lines are there, so the check above saw them.
        let plain = try scenario.timeline.run(["show", "-n", "400", "--width", "\(width)", "--color", "never"]).output
        #expect(plain.contains("日本") || plain.contains("東京"))
        #expect(plain.contains("👩‍💻") || plain.contains("🙌"))
    }

    @Test func escapeSequencesFromMessagesNeverReachTheTerminal() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let plain = try scenario.timeline.run(["show", "-n", "400", "--color", "never"])
        #expect(!plain.output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(!plain.output.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) })
        #expect(!plain.output.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) })
        #expect(plain.output.contains("␛"))  // shown, inert

        // With colour, the only escapes are the renderer's own SGR sequences.
        let coloured = try scenario.timeline.run(["show", "-n", "400", "--color", "always"]).output
        let withoutSGR = coloured.replacingOccurrences(of: "\u{1b}\\[[0-9;]*m", with: "", options: .regularExpression)
        #expect(!withoutSGR.contains("\u{1b}"))
    }

    @Test func noColorAndDumbTerminalsGetNoColourEvenOnATerminal() throws {
        let scenario = Scenario(environment: ["NO_COLOR": "1"])
        try scenario.importSample()
        let noColor = try scenario.timeline.runInTerminal(["show", "-n", "5"])
        #expect(noColor.status == 0)
        #expect(!noColor.output.contains("\u{1b}"))

        scenario.timeline.environment["NO_COLOR"] = nil
        let coloured = try scenario.timeline.runInTerminal(["show", "-n", "5"])
        #expect(coloured.output.contains("\u{1b}["))

        scenario.timeline.environment["TERM"] = "dumb"
        let dumb = try scenario.timeline.runInTerminal(["show", "-n", "5"])
        #expect(!dumb.output.contains("\u{1b}"))
    }

    @Test func onATerminalAStaleSnapshotIsPaintedThenUpdatedInPlace() throws {
        let scenario = Scenario()
        try scenario.importSample()
        try scenario.sqlite("UPDATE messages SET text = 'EDITED BY ANOTHER PROCESS' WHERE id = (SELECT id FROM messages ORDER BY created_at DESC, id DESC LIMIT 1)")
        let shown = try scenario.timeline.runInTerminal(["show", "-n", "2", "--color", "never"], columns: 80, rows: 40)
        #expect(shown.status == 0)
        // The stale paint, then the cursor moves back up over it, erases, and paints the truth.
        let parts = shown.output.components(separatedBy: "\r\u{1b}[")
        #expect(parts.count == 2)
        #expect(!parts[0].contains("EDITED BY ANOTHER PROCESS"))
        #expect(parts[1].contains("EDITED BY ANOTHER PROCESS"))
        let paintedLines = parts[0].filter { $0 == "\n" }.count
        #expect(parts[1].hasPrefix("\(paintedLines)A\u{1b}[J"))
    }

    @Test func aFreshSnapshotIsPaintedOnceAndNothingElseIsWritten() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let before = scenario.fileBytes(scenario.snapshotPath)
        let shown = try scenario.timeline.runInTerminal(["show", "-n", "3", "--color", "never"])
        #expect(shown.status == 0)
        #expect(shown.errors.isEmpty)
        #expect(!shown.output.contains("\u{1b}"))
        #expect(scenario.fileBytes(scenario.snapshotPath) == before)
    }

    @Test func byDefaultTheTerminalGetsWhatFitsItsWindow() throws {
        let scenario = Scenario()
        try scenario.importSample()
        for rows in [10, 24, 50] {
            let shown = try scenario.timeline.runInTerminal(["show", "--color", "never"], columns: 80, rows: rows)
            let lines = shown.output.filter { $0 == "\n" }.count
            #expect(lines <= rows - 1)
            #expect(lines >= rows / 2)
        }
    }

    @Test func aLockedDatabaseKeepsThePaintAndReturnsWithinItsBound() throws {
        let scenario = Scenario()
        try scenario.importSample()
        try scenario.sqlite("UPDATE messages SET like_count = like_count + 1")  // stale snapshot
        // Another process holds the database exclusively for 3 seconds (exclusive locking mode,
        // so even WAL readers must wait).
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        holder.arguments = [scenario.databasePath, "PRAGMA locking_mode=EXCLUSIVE;", "BEGIN EXCLUSIVE;",
                            "UPDATE messages SET like_count = like_count;", ".shell sleep 3", "COMMIT;"]
        holder.standardOutput = FileHandle.nullDevice
        try holder.run()
        defer { holder.waitUntilExit() }
        Thread.sleep(forTimeInterval: 0.5)

        let started = Date()
        let shown = try scenario.timeline.runInTerminal(["show", "-n", "2", "--color", "never"])
        let elapsed = Date().timeIntervalSince(started)
        #expect(shown.status == 0)
        #expect(!shown.output.isEmpty)
        #expect(shown.errors.contains("not updated"))
        #expect(elapsed < 2.0)
    }

    @Test func aSnapshotOfAReplacedDatabaseIsRewrittenEvenWhenItLooksTheSame() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let oldSnapshot = try #require(scenario.fileBytes(scenario.snapshotPath))
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: scenario.databasePath + suffix) }
        try scenario.importSample()  // a new database: same contents and generation, another ID
        try oldSnapshot.write(to: URL(fileURLWithPath: scenario.snapshotPath))
        #expect(try scenario.timeline.run(["snapshot", "--check"]).status == 3)

        let shown = try scenario.timeline.runInTerminal(["show", "-n", "2", "--color", "never"])
        #expect(shown.status == 0)
        #expect(try scenario.timeline.run(["snapshot", "--check"]).status == 0)
    }

    /// Content warnings fold their text unless `--expand` opens them, from the snapshot and
    /// from the database alike.
    @Test func expandShowsTheTextBehindContentWarnings() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let id = try scenario.sqlite("SELECT id FROM messages WHERE content_warning = 'rant: printers'")
        let arguments = ["-n", "400", "--width", "200"]
        let folded = try scenario.timeline.run(["show"] + arguments)
        #expect(folded.output.contains("CW: rant: printers") && !folded.output.contains("PC LOAD LETTER"), "\(id)")
        for source in [["--no-reconcile"], ["--from-db"]] {
            let open = try scenario.timeline.run(["show", "--expand"] + arguments + source)
            #expect(open.status == 0)
            #expect(open.output.contains("CW: rant: printers") && open.output.contains("PC LOAD LETTER"), "\(source)")
        }
    }

    /// Under `LANG=C` the decorations are ASCII (`*` for unread, ` - ` between header parts);
    /// under a UTF-8 locale, or none, they are Unicode.
    @Test func aNonUTF8LocaleGetsASCIIDecorations() throws {
        let scenario = Scenario()
        try scenario.importSample()
        scenario.timeline.environment["LANG"] = "C"
        let ascii = try scenario.timeline.run(["show", "-n", "5", "--width", "100"])
        #expect(ascii.status == 0)
        #expect(!ascii.output.contains("●") && !ascii.output.contains(" · ") && ascii.output.contains(" - "), "\(ascii.output)")
        scenario.timeline.environment["LANG"] = "en_US.UTF-8"
        let unicode = try scenario.timeline.run(["show", "-n", "5", "--width", "100"])
        #expect(unicode.output.contains(" · "))
    }
}
