import Foundation
import Testing
import TimelineKit

/// `browse`'s `r` with pictures (issue 36): `image: PATH` and `alt: TEXT` lines at the end of the
/// draft, written by a fake editor, posted as `post --image --alt` posts them, against the
/// loopback servers; the built binary in a real terminal (tmux) started in the test's directory.
@Suite(.serialized) struct BrowsePictureReplyCommandTests {
    /// A PNG header of 4 × 3 pixels: all a picture's check reads.
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        + [0, 0, 0, 4, 0, 0, 0, 3, 8, 6, 0, 0, 0]

    /// `browse` in tmux, started in `scenario`'s directory with `HOME` its `home/`, `EDITOR` the
    /// script `editor.sh` there (written by ``writeEditor(_:writing:)``); once the view is up.
    static func browse(_ scenario: Scenario) throws -> Tmux {
        let dir = scenario.directory
        try FileManager.default.createDirectory(atPath: dir + "/home", withIntermediateDirectories: true)
        var environment = scenario.timeline.environment
        environment["EDITOR"] = dir + "/editor.sh"
        environment["TMPDIR"] = dir
        environment["HOME"] = dir + "/home"
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        // Wide, so that a refusal naming a file and a line fits on the status line.
        let terminal = try Tmux(command: "cd '\(dir)' && env -i \(assignments) '\(TimelineProcess.executable)' browse; echo EXIT=$?; echo DONE; sleep 60",
                                columns: 230, rows: 30)
        _ = try terminal.waitForScreen(timeout: 30) { Tmux.statusLine($0).contains("timeline · 1/") }
        return terminal
    }

    /// Makes the editor put `written` above the file's help lines, and keep a copy of the file
    /// it was given as `template`.
    static func writeEditor(_ scenario: Scenario, writing written: String) throws {
        let dir = scenario.directory
        try written.write(toFile: dir + "/written", atomically: true, encoding: .utf8)
        try TestScript.write("#!/bin/sh\ncp \"$1\" '\(dir)/template'\ncat '\(dir)/written' \"$1\" > '\(dir)/new' && cat '\(dir)/new' > \"$1\"\n",
                             to: dir + "/editor.sh")
    }

    static func quit(_ terminal: Tmux) throws {
        try terminal.sendKeys("q")
        let screen = try terminal.waitForScreen(timeout: 30) { $0.contains("DONE") }
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }

    @Test(.enabled(if: Tmux.isAvailable, "tmux is installed by `make deps`"))
    func aMastodonReplyUploadsEachPictureWithItsAltTextAndNamesThemInOrder() async throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        #expect(try await home.timeline.runOffThePool(["sync"]).status == 0)
        let dir = home.directory
        try FileManager.default.createDirectory(atPath: dir + "/pictures", withIntermediateDirectories: true)
        try Data(Self.png).write(to: URL(fileURLWithPath: dir + "/pictures/cat.png"))
        try FileManager.default.createDirectory(atPath: dir + "/home", withIntermediateDirectories: true)
        try Data(Self.png).write(to: URL(fileURLWithPath: dir + "/home/dog.png"))
        // A relative path (from where browse started) and one under ~, the alt texts byte for byte.
        let alt = #"@home;type=text/plain "quoted" 🐕"#
        try Self.writeEditor(home, writing: "Two of them\n\nimage: pictures/cat.png\nalt: A cat asleep on a keyboard\nimage: ~/dog.png\nalt: \(alt)\n")
        let terminal = try Self.browse(home)

        try terminal.press("r", until: "replied: posted")
        #expect(Tmux.statusLine(try terminal.screen()).contains("with 2 pictures"))
        let template = try String(contentsOfFile: dir + "/template", encoding: .utf8)
        #expect(template.contains("# Pictures (up to 4): at the end, a line image: PATH"), "\(template)")
        let uploads = try EditAndVoteCommandTests.sent(server, "POST", "/api/v2/media")
        let descriptions = uploads.map { upload in
            (upload["parts"] as? [[String: Any]] ?? []).first { $0["name"] as? String == "description" }?["value"] as? String
        }
        #expect(descriptions == ["A cat asleep on a keyboard", alt], "\(uploads)")
        #expect(uploads.allSatisfy { upload in
            (upload["parts"] as? [[String: Any]] ?? []).contains { $0["name"] as? String == "file" && $0["length"] as? Int == Self.png.count }
        }, "\(uploads)")
        let status = try #require(try EditAndVoteCommandTests.sent(server, "POST", "/api/v1/statuses").last?["json"] as? [String: Any])
        #expect(status["media_ids"] as? [String] == ["7001", "7002"], "\(status)")
        #expect(status["status"] as? String == "Two of them", "\(status)")
        #expect(status["in_reply_to_id"] as? String != nil)

        // Only text, with image: in the middle of it: text, no upload.
        try Self.writeEditor(home, writing: "A plain reply\nimage: is a word here\nand the end.\n")
        try terminal.press("r", until: "replied: posted", changing: true)
        let plain = try #require(try EditAndVoteCommandTests.sent(server, "POST", "/api/v1/statuses").last?["json"] as? [String: Any])
        #expect(plain["status"] as? String == "A plain reply\nimage: is a word here\nand the end.", "\(plain)")
        #expect(plain["media_ids"] == nil, "\(plain)")
        #expect(try EditAndVoteCommandTests.sent(server, "POST", "/api/v2/media").count == 2)
        try Self.quit(terminal)
    }

    @Test(.enabled(if: Tmux.isAvailable, "tmux is installed by `make deps`"))
    func aMissingPictureOrAltTextIsRefusedByItsLineNothingIsPostedAndROpensItAgain() async throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        #expect(try await home.timeline.runOffThePool(["sync"]).status == 0)
        let dir = home.directory
        try Data(Self.png).write(to: URL(fileURLWithPath: dir + "/cat.png"))
        let statuses = try EditAndVoteCommandTests.sent(server, "POST", "/api/v1/statuses").count
        try Self.writeEditor(home, writing: "With a picture\n\nimage: gone.png\nalt: Not there\n")
        let terminal = try Self.browse(home)

        var screen = try terminal.press("r", until: "the reply was not posted (r opens it again): line 3: The picture \"gone.png\" cannot be read")
        #expect(try EditAndVoteCommandTests.sent(server, "POST", "/api/v1/statuses").count == statuses, "\(screen)")
        #expect(try EditAndVoteCommandTests.sent(server, "POST", "/api/v2/media").isEmpty)
        // r opens the same text again, with the reason among the help lines; no alt text this time.
        try TestScript.write("#!/bin/sh\ncp \"$1\" '\(dir)/template'\nprintf 'With a picture\\n\\nimage: cat.png\\n' > \"$1\"\n", to: dir + "/editor.sh")
        screen = try terminal.press("r", until: "line 3: the picture \"cat.png\" has no alt text; add a line alt: TEXT under it", changing: true)
        let template = try String(contentsOfFile: dir + "/template", encoding: .utf8)
        #expect(template.hasPrefix("With a picture\n\nimage: gone.png\nalt: Not there\n\n# Write the reply above this line."), "\(template)")
        #expect(template.contains("\n# Not posted: line 3: The picture \"gone.png\" cannot be read"), "\(template)")
        #expect(try EditAndVoteCommandTests.sent(server, "POST", "/api/v1/statuses").count == statuses, "\(screen)")
        #expect(try EditAndVoteCommandTests.sent(server, "POST", "/api/v2/media").isEmpty)
        try Self.quit(terminal)
    }

    @Test(.enabled(if: Tmux.isAvailable, "tmux is installed by `make deps`"))
    func aBlueskyReplyUploadsABlobAndEmbedsItWithItsAltText() async throws {
        let server = try BlueskyTestServer.start(posts: 10)
        let scenario = try BlueskyCommandTests.loggedIn(to: server)
        #expect(try await scenario.timeline.runOffThePool(["sync"]).status == 0)
        try Data(Self.png).write(to: URL(fileURLWithPath: scenario.directory + "/cat.png"))
        try Self.writeEditor(scenario, writing: "A cat for you\n\nimage: cat.png\nalt: A cat asleep on a keyboard\n")
        let terminal = try Self.browse(scenario)

        try terminal.press("r", until: "replied: posted")
        let uploads = try OfflineActionCommandTests.calls(server, "com.atproto.repo.uploadBlob")
        #expect(uploads.count == 1)
        #expect(uploads.first?["content_type"] as? String == "image/png" && uploads.first?["body_length"] as? Int == Self.png.count, "\(uploads)")
        let blob = try #require((try server.state()["blobs"] as? [[String: Any]])?.first)
        let created = try #require((try server.state()["created"] as? [[String: Any]])?.last?["record"] as? [String: Any])
        #expect(created["text"] as? String == "A cat for you")
        #expect(created["reply"] != nil, "\(created)")
        let embed = try #require(created["embed"] as? [String: Any])
        #expect(embed["$type"] as? String == "app.bsky.embed.images", "\(embed)")
        let image = try #require((embed["images"] as? [[String: Any]])?.first)
        #expect(image["alt"] as? String == "A cat asleep on a keyboard")
        #expect(((image["image"] as? [String: Any])?["ref"] as? [String: Any])?["$link"] as? String == blob["cid"] as? String, "\(image) \(blob)")
        #expect(image["aspectRatio"] as? [String: Int] == ["width": 4, "height": 3], "\(image)")
        // The official SDK takes the record as Bluesky's servers would.
        let verdicts = try #require(try AtprotoSDKRecords.verdicts([created]))
        #expect(verdicts.first is NSNull, "\(verdicts)")
        try Self.quit(terminal)
    }
}
