import Foundation
import Testing
import TimelineKit

/// `browse`'s `f`, `b` and `r` (issue 27) as a person meets them: the built binary in a real
/// terminal (tmux) on a database synced from the loopback Mastodon server, each key acting at
/// the server and the entry's line changing in place; the reply written in a (fake) editor that
/// runs on the normal screen with the terminal's own settings, and the terminal as it was after.
@Suite(.serialized) struct BrowseActionCommandTests {
    /// The lines of the selected entry (those with the bar).
    private func selectedEntry(_ screen: String) -> String {
        screen.split(separator: "\n").filter { $0.hasPrefix("▌") }.joined(separator: "\n")
    }

    @Test(.enabled(if: Tmux.isAvailable, "tmux is installed by `make deps`"))
    func fBAndRActAtTheServerAndTheLineChangesInPlace() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        #expect(try home.timeline.run(["sync"]).status == 0)
        let dir = home.directory
        let editor = dir + "/editor.sh"
        // The editor records the terminal's settings while it runs, and writes the reply.
        try TestScript.write("#!/bin/sh\nstty -a > '\(dir)/stty-editor'\nprintf 'A reply from browse\\n' | cat - \"$1\" > '\(dir)/new' && cat '\(dir)/new' > \"$1\"\n",
                             to: editor)
        var environment = home.timeline.environment
        environment["EDITOR"] = editor
        environment["TMPDIR"] = dir
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        let command = "stty -a > '\(dir)/stty-before'; env -i \(assignments) '\(TimelineProcess.executable)' browse; echo EXIT=$?; "
            + "stty -a > '\(dir)/stty-after'; echo DONE; sleep 60"
        let terminal = try Tmux(command: command, columns: 100, rows: 30)
        var screen = try terminal.waitForScreen(timeout: 30) { Tmux.statusLine($0).contains("timeline · 1/") }
        #expect(!selectedEntry(screen).contains("favourited"))

        // f: favourited at the server, the mark on the entry's line.
        screen = try terminal.press("f", until: "favourited")
        let favourites = try server.requests().filter { ($0["path"] as? String)?.hasSuffix("/favourite") == true }
        #expect(favourites.count == 1)
        let path = try #require(favourites.first?["path"] as? String)
        let targetID = path.split(separator: "/")[3]
        #expect(selectedEntry(screen).contains("♥ favourited"), "\(screen)")
        // f again: taken back.
        screen = try terminal.press("f", until: "unfavourited")
        #expect(!selectedEntry(screen).contains("♥ favourited"), "\(screen)")
        #expect(try server.requests().contains { ($0["path"] as? String) == "/api/v1/statuses/\(targetID)/unfavourite" })
        // b: boosted.
        screen = try terminal.press("b", until: "boosted")
        #expect(selectedEntry(screen).contains("⟲ boosted"), "\(screen)")
        #expect(try server.requests().contains { ($0["path"] as? String) == "/api/v1/statuses/\(targetID)/reblog" })
        // The store says so too: the next `show` paints it from a fresh snapshot.
        #expect(try home.timeline.run(["snapshot", "--check"]).status == 0)

        // r: the editor runs on the terminal as the person set it, the reply is posted.
        screen = try terminal.press("r", until: "replied: posted")
        let newest = try #require(try server.state()["newest_status_id"] as? String)
        let reply = try #require(try server.status(newest))
        #expect(reply["content"] as? String == "<p>A reply from browse</p>")
        #expect(reply["in_reply_to_id"] as? String == String(targetID))
        let before = try String(contentsOfFile: dir + "/stty-before", encoding: .utf8)
        let inEditor = try String(contentsOfFile: dir + "/stty-editor", encoding: .utf8)
        #expect(!before.isEmpty && inEditor == before, "\(before)\n\(inEditor)")
        // The view is back, on the alternate screen, taking keys.
        #expect(screen.contains("▌"))

        // A reply the server refuses is kept: r opens the editor on it again.
        try server.control("faults", ["path": "/api/v1/statuses", "status": 422, "body": ["error": "Validation failed: refused for the test"]])
        screen = try terminal.press("r", until: "the reply was not posted (r opens it again)")
        #expect(try server.state()["newest_status_id"] as? String == newest)
        try TestScript.write("#!/bin/sh\ncp \"$1\" '\(dir)/second-template'\n", to: editor)
        screen = try terminal.press("r", until: "replied: posted")
        let second = try String(contentsOfFile: dir + "/second-template", encoding: .utf8)
        #expect(second.hasPrefix("A reply from browse\n\n# Write the reply above this line."), "\(second)")
        #expect(try server.state()["newest_status_id"] as? String != newest)

        // A reply whose server cannot be reached is kept for the next sync (issue 27, offline),
        // beyond the view: painted pending, published by the sync.
        try TestScript.write("#!/bin/sh\nprintf 'Kept while offline\\n' | cat - \"$1\" > '\(dir)/new' && cat '\(dir)/new' > \"$1\"\n", to: editor)
        let published = try #require(try server.state()["status_ids"] as? [String]).count
        try server.control("faults", ["path": "/api/v1/statuses", "status": 503, "times": 2])
        screen = try terminal.press("r", until: "the reply is kept (⋯ pending)")
        #expect(try #require(try server.state()["status_ids"] as? [String]).count == published)
        let waiting = try home.timeline.run(["show", "-n", "1", "--color", "never"]).output
        #expect(waiting.contains("Kept while offline") && waiting.contains("⋯ pending"), "\(waiting)")

        // The waiting reply is on the view's top too: the selected entry is one further down.
        try terminal.press("j", until: "timeline · 3/")

        try terminal.sendKeys("q")
        screen = try terminal.waitForScreen(timeout: 30) { $0.contains("DONE") }
        #expect(screen.contains("EXIT=0"), "\(screen)")
        let after = try String(contentsOfFile: dir + "/stty-after", encoding: .utf8)
        #expect(after == before, "\(before)\n\(after)")
        #expect(!screen.contains("? keys"))
        let synced = try home.timeline.run(["sync"])
        #expect(synced.output.contains("; sent 1 reply that waited.") || synced.output.contains("; sent 1 post that waited."), "\(synced.output)")
        #expect(try #require(try server.state()["status_ids"] as? [String]).count == published + 1)
    }

    @Test(.enabled(if: Tmux.isAvailable, "tmux is installed by `make deps`"))
    func withNoAccountFSaysWhyAndChangesNothing() throws {
        let scenario = Scenario()
        try scenario.importSample()
        #expect(try scenario.timeline.run(["show", "-n", "1"]).status == 0)
        let assignments = scenario.timeline.environment.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        let terminal = try Tmux(command: "env -i \(assignments) '\(TimelineProcess.executable)' browse; echo DONE; sleep 60",
                                columns: 100, rows: 30)
        _ = try terminal.waitForScreen(timeout: 30) { Tmux.statusLine($0).contains("timeline · 1/") }
        let screen = try terminal.press("f", until: "no account is logged in")
        #expect(!screen.contains("favourited"))
        try terminal.sendKeys("q")
        #expect(try terminal.waitForScreen(timeout: 30) { $0.contains("DONE") }.contains("DONE"))
    }
}
