import Foundation
import Testing
import TimelineKit

/// `post` (and `--reply-to`) with no text at a terminal opens `$EDITOR`, as `git commit` does
/// (issue 27): the built binary in a real terminal (tmux), a fake editor script that records
/// what it was given and writes the text.
@Suite(.serialized) struct DraftEditorCommandTests {
    /// Runs `timeline ARGUMENTS` in tmux with `scenario`'s environment, `EDITOR` set to a script
    /// that records the file's mode, its directory's mode, its path and its contents, then puts
    /// `written` above what was there (nothing when `nil`). Answers the screen once it ended.
    static func runInTerminal(_ scenario: Scenario, _ arguments: [String], writing written: String?,
                              editorVariable: String = "EDITOR") throws -> String {
        let dir = scenario.directory
        let editor = dir + "/editor.sh"
        var script = "#!/bin/sh\nstat -c %a \"$1\" > '\(dir)/file-mode'\nstat -c %a \"$(dirname \"$1\")\" > '\(dir)/dir-mode'\n"
            + "echo \"$1\" > '\(dir)/edited-path'\ncp \"$1\" '\(dir)/template'\n"
        if let written {
            try written.write(toFile: dir + "/written", atomically: true, encoding: .utf8)
            script += "cat '\(dir)/written' \"$1\" > '\(dir)/new' && cat '\(dir)/new' > \"$1\"\n"
        }
        try TestScript.write(script, to: editor)
        var environment = scenario.timeline.environment
        environment[editorVariable] = editor
        environment["TMPDIR"] = dir
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        let words = arguments.map { "'\($0)'" }.joined(separator: " ")
        let command = "env -i \(assignments) '\(TimelineProcess.executable)' \(words); echo EXIT=$?; echo DONE; sleep 60"
        let terminal = try Tmux(command: command, columns: 120, rows: 30)
        return try terminal.waitForScreen(timeout: 30) { $0.contains("DONE") }
    }

    @Test(.enabled(if: Tmux.isAvailable, "tmux is installed by `make deps`"))
    func aReplyWithNoTextOpensTheEditorOnAPrivateFileQuotingTheMessage() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        #expect(try home.timeline.run(["sync"]).status == 0)
        let (ref, id) = try MessageActionCommandTests.someoneElses(home, on: server)
        let serverID = String(id.split(separator: "/").last!)
        let repliedTo = try #require(try server.status(serverID))
        let author = try #require((repliedTo["account"] as? [String: Any])?["acct"] as? String)

        let screen = try Self.runInTerminal(home, ["post", "--reply-to", ref], writing: "Agreed, see you there.\n#swift too\n")
        #expect(screen.contains("EXIT=0"), "\(screen)")
        #expect(screen.contains("Posted "), "\(screen)")
        // The file was private, in a private directory, and is gone.
        let dir = home.directory
        #expect(try String(contentsOfFile: dir + "/file-mode", encoding: .utf8) == "600\n")
        #expect(try String(contentsOfFile: dir + "/dir-mode", encoding: .utf8) == "700\n")
        let path = try String(contentsOfFile: dir + "/edited-path", encoding: .utf8).trimmingCharacters(in: .newlines)
        #expect(path.hasPrefix(dir + "/timeline-"))
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: (path as NSString).deletingLastPathComponent))
        // The help quoted the message replied to.
        let template = try String(contentsOfFile: dir + "/template", encoding: .utf8)
        #expect(template.contains("# Replying to @\(author):"), "\(template)")
        #expect(template.contains("\n# > "), "\(template)")
        // What was posted: the text written, the help left out, a reply to the status.
        let newest = try #require(try server.state()["newest_status_id"] as? String)
        let posted = try #require(try server.status(newest))
        #expect(posted["content"] as? String == "<p>Agreed, see you there.\n#swift too</p>")
        #expect(posted["in_reply_to_id"] as? String == serverID)
    }

    @Test(.enabled(if: Tmux.isAvailable, "tmux is installed by `make deps`"))
    func anEditorLeftEmptyPostsNothingAndSaysSo() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        #expect(try home.timeline.run(["sync"]).status == 0)
        let before = try server.requests().count
        // $VISUAL comes before $EDITOR, as for git.
        let screen = try Self.runInTerminal(home, ["post"], writing: nil, editorVariable: "VISUAL")
        #expect(screen.contains("EXIT=1"), "\(screen)")
        #expect(screen.contains("the text is empty, so nothing was posted"), "\(screen)")
        #expect(FileManager.default.fileExists(atPath: home.directory + "/template"))
        #expect(try server.requests().count == before)
    }

    @Test(.enabled(if: Tmux.isAvailable, "tmux is installed by `make deps`"))
    func anEditorThatFailsPostsNothing() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        var scenario = home.timeline
        scenario.environment["EDITOR"] = "false"
        home.timeline = scenario
        let before = try server.requests().count
        let dir = home.directory
        let command = "env -i " + home.timeline.environment.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
            + " TMPDIR='\(dir)' '\(TimelineProcess.executable)' post; echo EXIT=$?; echo DONE; sleep 60"
        let terminal = try Tmux(command: command, columns: 120, rows: 30)
        let screen = try terminal.waitForScreen(timeout: 30) { $0.contains("DONE") }
        #expect(screen.contains("EXIT=1"), "\(screen)")
        #expect(screen.contains("the editor (false) ended with status 1, so nothing was posted"), "\(screen)")
        #expect(try server.requests().count == before)
        // Nothing is left in TMPDIR.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).allSatisfy { !$0.hasPrefix("timeline-") })
    }
}
