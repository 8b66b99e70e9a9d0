import Foundation
import Testing
import TimelineKit

/// `browse`'s `M`, `B` and `R` (issue 34) as a person meets them: the built binary in a real
/// terminal (tmux) on a database synced from the loopback Mastodon server. Each key asks on the
/// status line first; `n` sends nothing; `y` mutes or blocks the selected post's author at the
/// server and their posts leave the open view at once; `R` reports the post with the reason
/// typed as the answer. Offline, a mute is kept for the next sync and the posts leave anyway; a
/// report is not sent, and says so.
@Suite(.serialized) struct BrowseModerationCommandTests {
    private typealias Moderation = ModerationCommandTests

    /// A synced account on the loopback Mastodon server, `browse` running in tmux with a post of
    /// a user of that server selected, and that user's `acct` (`user4`), as the question `M` asks
    /// names it.
    private func browsing(_ server: MastodonTestServer) throws -> (home: Scenario, terminal: Tmux, author: String) {
        // The first generated post, by an account the server knows (user1, user2, …): the
        // sample's newest are by accounts of other servers, which a loopback lookup does not find.
        try browsing(SyncCommandTests.loggedIn(to: server), search: "Generated")
    }

    /// `browse` on `home`'s synced timeline, the first match of `search` selected (else the
    /// newest entry), and its author's handle as the question `M` asks names it.
    private func browsing(_ home: Scenario, search: String?) throws -> (home: Scenario, terminal: Tmux, author: String) {
        #expect(try home.timeline.run(["sync"]).status == 0)
        var environment = home.timeline.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        let terminal = try Tmux(command: "env -i \(assignments) '\(TimelineProcess.executable)' browse; echo EXIT=$?; sleep 60",
                                columns: 160, rows: 40)
        _ = try terminal.waitForScreen(timeout: 30) { Tmux.statusLine($0).contains("timeline · 1/") }
        if let search {
            try terminal.sendKeys("/" + search, "Enter")
            _ = try terminal.waitForScreen(timeout: 30) { Tmux.statusLine($0).contains("n: next match") }
        }
        // The author of the selected post, from the question `M` asks (answered no here).
        let asked = try terminal.press("M", until: "y/n")
        let question = Tmux.statusLine(asked)
        let author = try #require(question.range(of: #"mute @([^@ ?]+)"#, options: .regularExpression).map {
            String(question[$0].dropFirst("mute @".count))
        }, "\(question)")
        return (home, terminal, author)
    }

    /// How many lines of the screen above the status line name `acct` (`@user4 · …`).
    private func linesBy(_ acct: String, in screen: String) -> Int {
        let status = Tmux.statusLine(screen)
        return screen.split(separator: "\n").filter { $0 != status && $0.contains("@\(acct) ") }.count
    }

    private func quit(_ terminal: Tmux) throws {
        // After a search, the first q ends it (issue 37) and the second quits.
        try terminal.sendKeys("q")
        var screen = try terminal.waitForScreen(timeout: 30) { $0.contains("EXIT=") || Tmux.statusLine($0).contains("search ended") }
        if !screen.contains("EXIT=") {
            try terminal.sendKeys("q")
            screen = try terminal.waitForScreen(timeout: 30) { $0.contains("EXIT=") }
        }
        #expect(screen.contains("EXIT=0"), "\(screen)")
    }

    @Test(.enabled(if: Tmux.isAvailable, "tmux is installed by `make deps`"))
    func capitalMAsksThenMutesTheAuthorAtTheServerAndTheirPostsLeaveTheView() throws {
        let server = try MastodonTestServer()
        let (home, terminal, author) = try browsing(server)
        // n: nothing is sent, the posts stay.
        var screen = try terminal.press("n", until: "not muted: nothing was sent")
        #expect(linesBy(author, in: screen) > 0, "the author's post is on the screen: \(screen)")
        #expect(try server.requests().allSatisfy { ($0["path"] as? String)?.hasSuffix("/mute") != true })
        // M, y: muted at the server; the view is read again without their posts.
        try terminal.press("M", until: "y/n")
        screen = try terminal.press("y", until: "muted @\(author)")
        let mutes = try #require(Moderation.moderation(server)["mutes"] as? [[String: Any]])
        #expect(mutes.map { $0["acct"] as? String } == [author], "\(mutes)")
        #expect(linesBy(author, in: screen) == 0, "\(screen)")
        #expect(!(try home.timeline.run(["show", "-n", "200", "--json"]).output.contains("\"handle\":\"\(author)\"")))

        // Offline: the mute of the next author is kept for the next sync, their posts leave anyway.
        let next = try terminal.press("M", until: "y/n")
        let question = Tmux.statusLine(next)
        let second = try #require(question.range(of: #"mute @([^@ ?]+)"#, options: .regularExpression).map {
            String(question[$0].dropFirst("mute @".count))
        })
        #expect(second != author && linesBy(second, in: next) > 0)
        try server.control("faults", ["path": "/api/v1/accounts", "status": 503, "times": 2])
        screen = try terminal.press("y", until: "muted here; the mute of @\(second) ")
        #expect(Tmux.statusLine(screen).contains("is sent by the next sync"), "\(screen)")
        #expect(linesBy(second, in: screen) == 0, "\(screen)")
        try quit(terminal)
        let synced = try home.timeline.run(["sync"])
        #expect(synced.output.contains("sent 1 mute that waited"), "\(synced.output)\(synced.errors)")
        #expect(try #require(Moderation.moderation(server)["mutes"] as? [[String: Any]]).count == 2)
    }

    @Test(.enabled(if: Tmux.isAvailable, "tmux is installed by `make deps`"))
    func capitalBAsksThenBlocksTheAuthorAtTheServerAndTheirPostsLeaveTheView() throws {
        let server = try MastodonTestServer()
        let (home, terminal, author) = try browsing(server)
        defer { withExtendedLifetime(home) {} }
        _ = try terminal.press("n", until: "not muted")
        try terminal.press("B", until: "block @\(author)?")
        var screen = try terminal.press("n", until: "not blocked: nothing was sent")
        #expect(linesBy(author, in: screen) > 0, "\(screen)")
        #expect(try server.requests().allSatisfy { ($0["path"] as? String)?.hasSuffix("/block") != true })
        try terminal.press("B", until: "y/n")
        screen = try terminal.press("y", until: "blocked @\(author)")
        #expect(try Moderation.moderation(server)["blocks"] as? [String] == [author])
        #expect(linesBy(author, in: screen) == 0, "\(screen)")
        try quit(terminal)
    }

    @Test(.enabled(if: Tmux.isAvailable, "tmux is installed by `make deps`"))
    func capitalRAsksWhyThenReportsThePostAndOfflineSaysNothingWasKept() throws {
        let server = try MastodonTestServer()
        let (home, terminal, author) = try browsing(server)
        defer { withExtendedLifetime(home) {} }
        _ = try terminal.press("n", until: "not muted")
        try terminal.press("R", until: "s spam · v violation · y other · n no")
        try terminal.press("n", until: "not reported: nothing was sent")
        #expect((try Moderation.moderation(server)["reports"] as? [Any])?.isEmpty == true)
        try terminal.press("R", until: "n no")
        let screen = try terminal.press("s", until: "reported ")
        #expect(Tmux.statusLine(screen).contains("(spam) to the moderators of"), "\(screen)")
        let reports = try #require(Moderation.moderation(server)["reports"] as? [[String: Any]])
        #expect(reports.count == 1)
        let report = try #require(reports.first?["report"] as? [String: Any])
        #expect(report["category"] as? String == "spam")
        #expect((report["target_account"] as? [String: Any])?["acct"] as? String == author)
        #expect((report["status_ids"] as? [String])?.count == 1)
        // A report is not kept for later: the line says so.
        try server.control("faults", ["path": "/api/v1/reports", "status": 503, "times": 2])
        try terminal.press("R", until: "n no")
        try terminal.press("y", until: "a report needs the server")
        #expect(try #require(Moderation.moderation(server)["reports"] as? [Any]).count == 1)
        try quit(terminal)
    }

    @Test(.enabled(if: Tmux.isAvailable, "tmux is installed by `make deps`"))
    func onBlueskyCapitalBWritesTheBlockRecordAndThePostsLeaveTheView() throws {
        let server = try BlueskyTestServer.start(posts: 10)
        let (home, terminal, author) = try browsing(BlueskyCommandTests.loggedIn(to: server), search: nil)
        defer { withExtendedLifetime(home) {} }
        var screen = try terminal.press("n", until: "not muted")
        #expect(linesBy(author, in: screen) > 0, "\(screen)")
        try terminal.press("B", until: "block @\(author)?")
        screen = try terminal.press("y", until: "blocked @\(author)")
        let blocks = try #require(Moderation.moderation(server)["blocks"] as? [[String: Any]])
        #expect(blocks.count == 1, "\(blocks)")
        let put = try #require(try OfflineActionCommandTests.calls(server, "com.atproto.repo.putRecord").last?["body"] as? [String: Any])
        #expect(put["collection"] as? String == "app.bsky.graph.block" && put["rkey"] is String, "\(put)")
        #expect(linesBy(author, in: screen) == 0, "\(screen)")
        try quit(terminal)
    }
}
