import Foundation
import Testing

/// What `timeline` says to a person on the first day and after: the next step by the state they
/// are in, and a failing sync said where they look (issue 23, items 2, 3, 5 and 11).
@Suite struct NextStepTests {
    static func loggedIn(_ server: MastodonTestServer) throws -> EmptyHome {
        let home = EmptyHome()
        let login = try home.timeline.run(["login", "mastodon", server.baseURL, "--token-stdin"],
                                          input: Data((MastodonTestServer.token + "\n").utf8))
        precondition(login.status == 0, "login: \(login.errors)")
        return home
    }

    @Test func withNoAccountTheEmptyTimelineSaysHowToLogInToEachNetworkAndImportLast() throws {
        let home = EmptyHome()
        let show = try home.timeline.run([])
        #expect(show.status == 0)
        let lines = show.errors.split(separator: "\n")
        #expect(lines.contains { $0.contains("timeline login mastodon ") }, "\(show.errors)")
        #expect(lines.contains { $0.contains("timeline login bluesky ") }, "\(show.errors)")
        #expect(lines.last?.contains("timeline import FILE") == true, "\(show.errors)")
        #expect(!home.exists(".local"))
    }

    @Test func loginSaysTheNextStep() throws {
        let server = try MastodonTestServer()
        let home = EmptyHome()
        let login = try home.timeline.run(["login", "mastodon", server.baseURL, "--token-stdin"],
                                          input: Data((MastodonTestServer.token + "\n").utf8))
        #expect(login.output.hasSuffix(LoginNextStep.text), "\(login.output)")
    }

    @Test func afterLoginAndBeforeAnySyncTheEmptyTimelineSaysToSyncNotToImport() throws {
        let server = try MastodonTestServer()
        let home = try Self.loggedIn(server)
        let show = try home.timeline.run(["show"])
        #expect(show.errors.contains("run `timeline sync`"), "\(show.errors)")
        #expect(!show.errors.contains("import"), "\(show.errors)")
    }

    /// The first terminal after login: the hook's background sync is running while `show` paints.
    @Test func theFirstTerminalAfterLoginSaysTheFirstSyncIsUnderWay() throws {
        let server = try MastodonTestServer()
        let home = try Self.loggedIn(server)
        try server.control("faults", ["path": "/api/v1/timelines/home", "delay": 3, "times": 1])
        let started = try home.timeline.run(["sync", "--if-older", "5m", "--background"])
        #expect(started.status == 0)
        let show = try home.timeline.runInTerminal(["show"])
        #expect(show.errors.contains("your first sync is under way"), "\(show.errors)")
        #expect(!show.errors.contains("snapshot"), "a new user has no snapshot to hear about: \(show.errors)")
        #expect(show.errors.contains("timeline sync"))
    }

    @Test func aRefusedTokenIsSaidByTheNextTerminalsShowWithTheLoginCommandAndByDoctorAndAccounts() throws {
        let server = try MastodonTestServer()
        let home = try Self.loggedIn(server)
        #expect(try home.timeline.run(["sync"]).status == 0)
        let quiet = try home.timeline.runInTerminal(["show"])
        #expect(!quiet.errors.contains("log in again"), "\(quiet.errors)")

        // The token is revoked: every request is refused from now on.
        try server.control("faults", ["path": "/api/", "status": 401, "times": 1000])
        let background = try home.timeline.run(["sync"])
        #expect(background.status == 77, "\(background.errors)")
        let relogin = "timeline login mastodon \(server.baseURL)"

        let terminal = try home.timeline.runInTerminal(["show"])
        #expect(terminal.status == 0)
        let notice = terminal.errors.split(separator: "\n").filter { $0.contains("log in again") }
        #expect(notice.count == 1, "\(terminal.errors)")
        #expect(notice.first?.hasSuffix(relogin) == true, "\(terminal.errors)")

        // Programs get messages only.
        let json = try home.timeline.run(["show", "--json"])
        #expect(json.status == 0 && json.errors.isEmpty, "\(json.errors)")
        let piped = try home.timeline.run(["show", "--format", "{id}"])
        #expect(piped.errors.isEmpty && !piped.output.contains("log in"))

        let doctor = try home.timeline.run(["doctor"])
        #expect(doctor.status == 77, "\(doctor.output)")
        #expect(doctor.output.contains(relogin) && !doctor.output.contains("Healthy."), "\(doctor.output)")
        let accounts = try home.timeline.run(["accounts"])
        #expect(accounts.output.contains("needs attention") && accounts.output.contains(relogin), "\(accounts.output)")
        let listed = try home.timeline.run(["accounts", "--json"])
        #expect(listed.output.contains("\"sync_problem\":\"credentials\""), "\(listed.output)")
        #expect(listed.output.contains(relogin))

        // Logging in again and a sync that works end it.
        try server.control("faults", ["clear": true])
        _ = try home.timeline.run(["login", "mastodon", server.baseURL, "--token-stdin"], input: Data((MastodonTestServer.token + "\n").utf8))
        #expect(try home.timeline.run(["sync"]).status == 0)
        #expect(!(try home.timeline.runInTerminal(["show"])).errors.contains("log in again"))
        #expect(try home.timeline.run(["doctor"]).status == 0)
    }

    /// A server gone for a while is said once it has failed for over an hour; an hour of a
    /// laptop offline is not news.
    @Test func aServerGoneForLongerThanAnHourIsSaidNotSoonerAndNamesTheSyncCommand() throws {
        let server = try MastodonTestServer()
        let home = try Self.loggedIn(server)
        #expect(try home.timeline.run(["sync"]).status == 0)
        try server.control("faults", ["path": "/api/", "status": 503, "times": 1000])
        #expect(try home.timeline.run(["sync"]).status != 0)
        #expect(!(try home.timeline.runInTerminal(["show"])).errors.contains("syncs have failed"))

        // Two hours later (the status file's times moved back, as a clock moving on would).
        let statusPath = home.databasePath + ".sync-status"
        let text = try String(contentsOfFile: statusPath, encoding: .utf8)
        let shifted = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            var fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 7 else { return String(line) }
            for index in [2, 3, 5] { if let seconds = Int(fields[index]) { fields[index] = String(seconds - 7_200) } }
            return fields.joined(separator: "\t")
        }.joined(separator: "\n")
        try shifted.write(toFile: statusPath, atomically: true, encoding: .utf8)
        let show = try home.timeline.runInTerminal(["show"])
        let notice = show.errors.split(separator: "\n").filter { $0.contains("syncs have failed since 2 hours ago") }
        #expect(notice.count == 1, "\(show.errors)")
        #expect(notice.first?.hasSuffix("run timeline sync") == true)
        #expect(try home.timeline.run(["doctor"]).status == 69)

        // Issue 33: a server's 200 characters made the notice 381 columns, five rows at 80. It
        // is one line that fits the terminal, the server's words cut with a mark.
        let wordy = shifted.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            var fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 7 else { return String(line) }
            fields[6] = String(repeating: "Service Unavailable ", count: 10)
            return fields.joined(separator: "\t")
        }.joined(separator: "\n")
        try wordy.write(toFile: statusPath, atomically: true, encoding: .utf8)
        for columns in [80, 120] {
            let narrow = try home.timeline.runInTerminal(["show"], columns: columns)
            let line = try #require(narrow.errors.split(separator: "\n").first { $0.contains("syncs have") }, "\(narrow.errors)")
            #expect(line.count <= columns && line.contains("…"), "\(columns): \(line)")
            #expect(line.hasSuffix("; run timeline sync"), "\(line)")
            // Beside the loopback server's long account name, 120 columns leave room for some of the server's words.
            #expect(columns == 80 || line.contains("(Service Unavailable"), "\(line)")
        }
    }
}
