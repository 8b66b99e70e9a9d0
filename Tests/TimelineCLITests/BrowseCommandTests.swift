import Foundation
import Testing
import TimelineKit

/// `timeline browse` as a person meets it: the built binary in a real terminal (tmux), driven
/// with the keys a person presses, read back from the screen; every way of ending it leaves the
/// terminal's settings (`stty -a`) as they were and the normal screen back.
@Suite(.serialized) struct BrowseCommandTests {
    /// Runs `browse` in tmux under a shell that records `stty -a` before and after it and says
    /// how it ended. `BROWSER` is a script that writes the address it is given to a file.
    private func start(_ scenario: Scenario, columns: Int = 90, rows: Int = 30, browser: Bool = true) throws -> Tmux {
        let dir = scenario.directory
        let script = dir + "/browser.sh"
        try TestScript.write("#!/bin/sh\necho \"$1\" > '\(dir)/opened'\n", to: script)
        let environment = "TIMELINE_DB='\(scenario.databasePath)' TERM=xterm-256color HOME=/nonexistent PATH=/usr/bin:/bin "
            + "SWIFT_BACKTRACE=enable=no " + (browser ? "BROWSER='\(script)' " : "")
        let command = "trap 'echo TRAPPED' INT; stty -a > '\(dir)/stty-before'; env -i \(environment)"
            + "'\(TimelineProcess.executable)' browse; echo EXIT=$?; stty -a > '\(dir)/stty-after'; echo DONE; sleep 60"
        return try Tmux(command: command, columns: columns, rows: rows)
    }

    private func statusLine(_ screen: String) -> String { Tmux.statusLine(screen) }

    /// Presses `keys` and waits until the status line changed and holds `expected`.
    @discardableResult
    private func press(_ terminal: Tmux, _ keys: String..., until expected: String, changing: Bool = true,
                       sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try terminal.press(keys, until: expected, changing: changing, sourceLocation: sourceLocation)
    }

    /// After the shell printed DONE: the terminal's settings as before, the normal screen back.
    private func expectTerminalRestored(_ scenario: Scenario, _ terminal: Tmux, status: Int, ignoringSize: Bool = false,
                                        sourceLocation: SourceLocation = #_sourceLocation) throws {
        // A loaded machine can take long to end a process and its shell's next lines: the wait
        // ends as soon as they are there.
        let screen = try terminal.waitForScreen(timeout: 60) { $0.contains("DONE") }
        #expect(screen.contains("EXIT=\(status)"), "\(screen)", sourceLocation: sourceLocation)
        func settings(_ name: String) throws -> String {
            let text = try String(contentsOfFile: scenario.directory + "/" + name, encoding: .utf8)
            return ignoringSize ? text.replacing(/rows \d+; columns \d+;/, with: "") : text
        }
        let before = try settings("stty-before")
        let after = try settings("stty-after")
        #expect(!before.isEmpty && before == after, "\(before)\n\(after)", sourceLocation: sourceLocation)
        // Off the alternate screen: nothing of the view is left, the cursor is shown again.
        #expect(!screen.contains("? keys"), sourceLocation: sourceLocation)
        #expect(!screen.contains("Okay, closing the laptop"), sourceLocation: sourceLocation)
    }

    @Test(.enabled(if: Tmux.isAvailable, "tmux is installed by `make deps`"))
    func everyKeyInATerminalThenQuitGivesTheTerminalBack() throws {
        let scenario = Scenario()
        try scenario.importSample()
        #expect(try scenario.timeline.run(["show", "-n", "1"]).status == 0)  // writes the snapshot
        let terminal = try start(scenario)
        var screen = try terminal.waitForScreen(timeout: 30) { statusLine($0).contains("timeline · 1/") }
        #expect(screen.hasPrefix("▌   Mika Lindqvist @mika"))

        try press(terminal, "j", until: "2/")
        try press(terminal, "Down", until: "3/")
        try press(terminal, "k", until: "2/")
        try press(terminal, "Up", until: "1/")
        try press(terminal, "Enter", until: "2/")

        // Search what is loaded, then the next and previous match.
        try press(terminal, "/", "c", "o", "f", "f", "e", "e", until: "/coffee")
        screen = try press(terminal, "Enter", until: "n: next match")
        let firstMatch = try #require(position(statusLine(screen)))
        #expect(firstMatch > 2)
        #expect(screen.lowercased().contains("coffee"))
        screen = try press(terminal, "n", until: "timeline · ")
        #expect(try #require(position(statusLine(screen))) > firstMatch)
        try press(terminal, "N", until: "timeline · \(firstMatch)/")
        // Nothing loaded matches: the store is searched, its results open over the timeline.
        // (The sample's one message about tenons is older than the 200 the view loads.)
        screen = try press(terminal, "/", "t", "e", "n", "o", "n", "s", "Enter", until: "search tenons · 1/1")
        #expect(screen.contains("tenons"))
        try press(terminal, "q", until: "timeline · \(firstMatch)/")

        // The thread of the selected entry, and back.
        try press(terminal, "t", until: "thread of ")
        try press(terminal, "Escape", until: "timeline · \(firstMatch)/")

        // Mark read, then unread; the store says so. (The second entry of the sample is unread.)
        try press(terminal, "g", until: "timeline · 1/")
        try press(terminal, "j", until: "timeline · 2/")
        let reference = try #require(selectedReference(try terminal.screen()))
        let seq = try #require(ShortReference.sequence(of: reference))
        let isRead = "SELECT count(*) FROM messages m WHERE m.seq = \(seq) AND NOT EXISTS (SELECT 1 FROM unread_messages u WHERE u.seq = m.seq)"
        #expect(try scenario.sqlite(isRead) == "0")
        try press(terminal, "m", until: "marked read")
        #expect(try scenario.sqlite(isRead) == "1")
        try press(terminal, "m", until: "marked unread")
        #expect(try scenario.sqlite(isRead) == "0")

        // Unread only, and back to all.
        try press(terminal, "u", until: "unread only · ")
        try press(terminal, "u", until: "all entries")

        // Open: $BROWSER gets the post's address.
        try press(terminal, "g", until: "timeline · 1/", changing: false)
        try press(terminal, "o", until: "opened with $BROWSER")
        let opened = try String(contentsOfFile: scenario.directory + "/opened", encoding: .utf8)
        #expect(opened.hasPrefix("https://"))

        // Pages forward and back: the selection moves by a screen.
        screen = try press(terminal, "Space", until: "timeline · ")
        let afterSpace = try #require(position(statusLine(screen)))
        #expect(afterSpace > 3)
        screen = try press(terminal, "NPage", until: "timeline · ")
        let afterPageDown = try #require(position(statusLine(screen)))
        #expect(afterPageDown > afterSpace)
        screen = try press(terminal, "C-f", until: "timeline · ")
        #expect(try #require(position(statusLine(screen))) > afterPageDown)
        screen = try press(terminal, "C-b", until: "timeline · ")
        #expect(try #require(position(statusLine(screen))) <= afterPageDown)
        try press(terminal, "PPage", "PPage", "PPage", "PPage", until: "timeline · 1/")
        // The last entry loaded (the view has read older pages meanwhile: all 337).
        try press(terminal, "G", until: "200/337")
        try press(terminal, "g", until: "timeline · 1/")
        try press(terminal, "End", until: "337/337")
        try press(terminal, "Home", until: "timeline · 1/")

        // The keys, and back; Ctrl-L redraws; a key of no use says so.
        try terminal.sendKeys("?")
        screen = try terminal.waitForScreen(timeout: 30) { $0.contains("Keys of timeline browse") }
        #expect(screen.contains("search: what is loaded"))
        try terminal.sendKeys("x")
        screen = try terminal.waitForScreen(timeout: 30) { !$0.contains("Keys of timeline browse") }
        #expect(screen.hasPrefix("▌"))
        try terminal.sendKeys("C-l")
        try press(terminal, "x", until: "x does nothing here")
        #expect(try terminal.screen().hasPrefix("▌"))

        try terminal.sendKeys("q")
        try expectTerminalRestored(scenario, terminal, status: 0)
    }

    @Test(.enabled(if: Tmux.isAvailable, "tmux is installed by `make deps`"))
    func withoutABrowserTheAddressIsShown() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let terminal = try start(scenario, browser: false)
        _ = try terminal.waitForScreen(timeout: 30) { statusLine($0).contains("timeline · 1/") }
        try press(terminal, "o", until: "no browser here (set $BROWSER): https://")
        try terminal.sendKeys("q")
        try expectTerminalRestored(scenario, terminal, status: 0)
    }

    @Test(.enabled(if: Tmux.isAvailable, "tmux is installed by `make deps`"))
    func aResizedWindowIsLaidOutAgainToItsSize() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let terminal = try start(scenario, columns: 100, rows: 30)
        _ = try terminal.waitForScreen(timeout: 30) { statusLine($0).contains("timeline · 1/") }
        try press(terminal, "j", "j", until: "3/")
        try terminal.resizeWindow(columns: 50, rows: 16)
        // A key after the resize: the screen that answers it was painted after the relayout.
        let screen = try press(terminal, "k", until: "timeline · 2/")
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The status line on the last row, every line within 50 columns, the selection still on it.
        #expect(lines.count >= 16 && lines[15].contains("timeline · 2/"), "\(screen)")
        #expect(lines.allSatisfy { TimelineRenderer.displayWidth(ofLine: $0) <= 50 }, "\(screen)")
        // Wrapped for 48 columns, beside the gutter: some line uses the last columns.
        #expect(lines.dropLast().contains { TimelineRenderer.displayWidth(ofLine: $0) > 44 }, "\(screen)")
        #expect(lines.contains { $0.hasPrefix("▌") })
        try terminal.sendKeys("q")
        // `stty -a` shows the window's size, which the test changed: the rest must be as before.
        try expectTerminalRestored(scenario, terminal, status: 0, ignoringSize: true)
    }

    @Test(.enabled(if: Tmux.isAvailable, "tmux is installed by `make deps`"),
          arguments: [(SIGINT, 130), (SIGTERM, 143), (SIGHUP, 129), (SIGSEGV, 139), (SIGILL, 132)])
    func everyEndingGivesTheTerminalBack(signal: Int32, status: Int) throws {
        let scenario = Scenario()
        try scenario.importSample()
        let terminal = try start(scenario)
        _ = try terminal.waitForScreen(timeout: 30) { statusLine($0).contains("timeline · 1/") }
        let pid = try #require(browsePID(scenario.databasePath))
        // A process that fails to end must not outlive the test (one spun for minutes, CI's run of
        // 2026-11-26: its crash handler made a static inside malloc).
        defer { kill(pid, SIGKILL) }
        if signal == SIGINT {
            try terminal.sendKeys("C-c")
        } else {
            kill(pid, signal)
        }
        try expectTerminalRestored(scenario, terminal, status: status)
        #expect(kill(pid, 0) != 0)
    }

    @Test(.enabled(if: Tmux.isAvailable, "tmux is installed by `make deps`"))
    func aMessageWrittenByAnotherProcessAppearsInPlace() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let terminal = try start(scenario)
        _ = try terminal.waitForScreen(timeout: 30) { statusLine($0).contains("timeline · 1/") }
        try press(terminal, "j", until: "2/")
        let author = try scenario.sqlite("SELECT id FROM users ORDER BY id LIMIT 1")
        let newest = try scenario.sqlite("SELECT max(created_at) FROM messages")
        try scenario.sqlite("INSERT INTO messages (id, author_id, text, created_at) VALUES ('live-1', '\(author)', 'WRITTEN BY THE SQLITE SHELL', \(Int64(newest)! + 60_000));")
        let screen = try terminal.waitForScreen(timeout: 30) { $0.contains("WRITTEN BY THE SQLITE SHELL") }
        // On top, and the selection stayed on its message, now one further down.
        #expect(screen.split(separator: "\n").dropFirst().first?.contains("WRITTEN BY THE SQLITE SHELL") == true)
        #expect(statusLine(screen).contains("timeline · 3/"), "\(statusLine(screen))")
        try terminal.sendKeys("q")
        try expectTerminalRestored(scenario, terminal, status: 0)
    }

    @Test func notOnATerminalItPrintsWhatShowPrints() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let shown = try scenario.timeline.run(["show"])
        let browsed = try scenario.timeline.run(["browse"])
        #expect(browsed.status == 0)
        #expect(!browsed.output.isEmpty && browsed.output == shown.output)
        #expect(!browsed.output.contains("\u{1b}"))
    }

    @Test func itsHelpNamesTheKeys() throws {
        let help = try Scenario().timeline.run(["browse", "--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("j/k or arrows move"))
        #expect(try Scenario().timeline.run(["browse", "--bogus"]).status == 64)
    }

    // MARK: Reading the screen

    /// The position on the status line (`timeline · 12/200+` is 12).
    private func position(_ status: String) -> Int? {
        guard let slash = status.firstIndex(of: "/") else { return nil }
        let digits = status[..<slash].reversed().prefix { $0.isNumber }
        return Int(String(digits.reversed()))
    }

    /// The short reference on the header of the selected entry.
    private func selectedReference(_ screen: String) -> String? {
        guard let header = screen.split(separator: "\n").first(where: { $0.hasPrefix("▌") }) else { return nil }
        return header.components(separatedBy: " · ").dropFirst(2).first?.split(separator: " ").first.map(String.init)
    }

    /// The `timeline browse` process on this database (found in /proc).
    private func browsePID(_ databasePath: String) -> pid_t? {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
                guard let pid = pid_t(entry), let environ = FileManager.default.contents(atPath: "/proc/\(entry)/environ"),
                      let command = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { continue }
                if String(decoding: environ, as: UTF8.self).contains("TIMELINE_DB=\(databasePath)\0"),
                   String(decoding: command, as: UTF8.self).hasPrefix(TimelineProcess.executable) { return pid }
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return nil
    }
}
