import Foundation
import Testing

/// The first day as the README tells it, run as a new user lives it: an empty home directory,
/// no `TIMELINE_DB` and no XDG variables, `timeline` found on PATH where `make install` put it,
/// the README's own first-day commands read from the README itself (so it cannot drift from
/// what works), the shell hook in real interactive bash, zsh and fish, and what comes after:
/// thread by the server's ID and by short reference, a post from standard input, a delete, a
/// revoked token seen in the next terminal, logout.
///
/// `make test` runs it twice: in the whole suite with the debug binary copied into a scratch
/// prefix, and then (`make first-day-check`) with the binary `make install` installed there,
/// named by `TIMELINE_FIRST_DAY_PREFIX`.
@Suite(.enabled(if: Tmux.isAvailable && ShellHome.shellsAreInstalled, "tmux, bash, zsh and fish are installed by `make test-deps`"))
struct FirstDayReadmeTests {
    /// The commands of the README's first-day block (`<!-- first-day -->` then a sh block),
    /// without their comments.
    static func readmeCommands() throws -> [String] {
        let readme = try String(contentsOfFile: Scenario.repositoryPath("README.md"), encoding: .utf8)
        let block = try #require(readme.components(separatedBy: "<!-- first-day -->\n```sh\n").dropFirst().first?
            .components(separatedBy: "\n```").first, "README.md has no first-day block")
        return block.split(separator: "\n").map { line in
            // A comment starts at `  #` (a `#` inside the command, as in `$(…)`, is not one).
            String(line.components(separatedBy: "  #").first ?? "").trimmingCharacters(in: .whitespaces)
        }
    }

    /// Where `timeline` is installed: `TIMELINE_FIRST_DAY_PREFIX`, or a scratch prefix holding a
    /// copy of the binary this test bundle was built with.
    static func installedPrefix() throws -> String {
        if let prefix = ProcessInfo.processInfo.environment["TIMELINE_FIRST_DAY_PREFIX"] { return prefix }
        let prefix = NSTemporaryDirectory() + "timeline-prefix-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TimelineProcess.executable, toPath: prefix + "/bin/timeline")
        return prefix
    }

    /// An interactive shell in a real terminal, with only the home's environment.
    static func terminal(_ shell: String, home: EmptyHome) throws -> Tmux {
        let variables = home.timeline.environment.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        return try Tmux(command: "env -i \(variables) ZDOTDIR='\(home.path)' /usr/bin/\(shell) -i", columns: 100, rows: 40)
    }

    static func waitForFile(_ path: String, seconds: Double = 20) -> Bool {
        FollowCommandTests.waitUntil(seconds: seconds) { FileManager.default.fileExists(atPath: path) }
    }

    @Test func theFirstDayAsTheReadmeTellsItWithAMastodonAccount() throws {
        let commands = try Self.readmeCommands()
        try #require(commands.count == 5, "\(commands)")
        #expect(commands[0].hasPrefix("make install"))
        #expect(commands[1] == #"echo 'source "${XDG_CACHE_HOME:-$HOME/.cache}/timeline/init.bash" 2>/dev/null || eval "$(timeline init bash)"' >> ~/.bashrc"#)
        #expect(commands[2] == "timeline login mastodon example.social")
        #expect(commands[3] == "timeline sync")
        #expect(commands[4] == "timeline")

        let prefix = try Self.installedPrefix()
        let server = try MastodonTestServer(statuses: 60)
        let home = EmptyHome()
        home.timeline.environment["PATH"] = prefix + "/bin:/usr/bin:/bin"
        let installed = prefix + "/bin/timeline"
        func run(_ line: String, input: Data? = nil) throws -> TimelineProcess.Result {
            var process = home.timeline
            process.launcher = ["/bin/bash", "-c", line.replacingOccurrences(of: "example.social", with: server.baseURL)]
            return try process.run([], input: input)
        }

        // The shell hook, as the README adds it for bash (and the user guide for zsh and fish).
        #expect(try run(commands[1]).status == 0)
        try FileManager.default.createDirectory(atPath: home.path + "/.config/fish", withIntermediateDirectories: true)
        #expect(try run(#"echo 'source "${XDG_CACHE_HOME:-$HOME/.cache}/timeline/init.zsh" 2>/dev/null || eval "$(timeline init zsh)"' >> ~/.zshrc"#).status == 0)
        #expect(try run(#"echo 'source (set -q XDG_CACHE_HOME[1]; and echo $XDG_CACHE_HOME; or echo ~/.cache)/timeline/init.fish 2>/dev/null; or timeline init fish | source' >> ~/.config/fish/config.fish"#).status == 0)

        // Login through the browser: the page is opened (here: read), the code typed back.
        let arguments = commands[2].replacingOccurrences(of: "example.social", with: server.baseURL).split(separator: " ").dropFirst().map(String.init)
        let login = try InteractiveLogin(executable: installed, environment: home.timeline.environment, arguments: arguments)
        let result = try login.finish(code: try AccountCommandTests.approve(try login.authorizationURL()))
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.hasSuffix(LoginNextStep.text))

        // The first terminal: the hook starts the first sync and says it is under way.
        do {
            try server.control("faults", ["path": "/api/v1/timelines/home", "delay": 2, "times": 1])
            let first = try Self.terminal("bash", home: home)
            let screen = try first.waitForScreen(timeout: 30) { $0.contains("first sync is under way") }
            #expect(screen.contains("first sync is under way"), "\(screen)")
        }
        #expect(Self.waitForFile(home.databasePath + ".last-sync"), "the background sync did not finish")
        let newest = try #require(try run("timeline show --format '{text}' -n 1").output.split(separator: "\n").first.map { String($0.prefix(30)) })
        // The next terminals show the timeline, in every shell.
        for shell in ["bash", "zsh", "fish"] {
            let next = try Self.terminal(shell, home: home)
            let screen = try next.waitForScreen(timeout: 30) { $0.contains(newest) }
            #expect(screen.contains(newest), "\(shell): \(screen)")
        }

        // The README's own next steps.
        let sync = try run(commands[3])
        #expect(sync.status == 0 && sync.output.hasPrefix("Synced "), "\(sync.errors)")
        let shown = try home.timeline.runInTerminal([], columns: 100, rows: 40)
        #expect(shown.status == 0)
        #expect(shown.output.contains(newest))

        // A message by the server's ID and by its short reference.
        let newestLine = try run("timeline show --format '{id} {ref}' -n 1").output.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")
        let serverID = String(newestLine[0].split(separator: "/").last!)
        #expect(try run("timeline thread \(serverID)").status == 0)
        #expect(try run("timeline thread \(newestLine[1])").status == 0)

        // A post from standard input, then deleted at the server.
        let posted = try run("echo 'written on the first day' | timeline post --json -")
        #expect(posted.status == 0, "\(posted.errors)")
        let postedID = try #require(posted.output.split(separator: "\"").dropFirst(3).first.map(String.init))
        let deleted = try run("timeline delete --yes \(postedID)")
        #expect(deleted.output == "Deleted 1 post at the server and here.\n", "\(deleted.errors)")

        // The token is revoked: the hook's next background sync fails, and the next terminal
        // says so with the command that fixes it.
        try server.control("faults", ["path": "/api/", "status": 401, "times": 1000])
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-600)], ofItemAtPath: home.databasePath + ".last-sync")
        #expect(try run("timeline sync --if-older 5m --background").status == 0)
        #expect(FollowCommandTests.waitUntil(seconds: 20) {
            ((try? String(contentsOfFile: home.databasePath + ".sync-status", encoding: .utf8)) ?? "").contains("\tcredentials\t")
        })
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-600)], ofItemAtPath: home.databasePath + ".sync-lock")
        let revoked = try Self.terminal("bash", home: home)
        let warning = try revoked.waitForScreen(timeout: 30) { $0.contains("log in again") }
        // (The terminal wraps the line at its width.)
        #expect(warning.replacingOccurrences(of: "\n", with: "").contains("log in again: timeline login mastodon \(server.baseURL)"), "\(warning)")

        // Logout forgets the account.
        try server.control("faults", ["clear": true])
        let name = "tester@127.0.0.1:\(server.port)"
        #expect(try run("timeline logout \(name)").status == 0)
        #expect(try run("timeline accounts").output.hasPrefix("No accounts."))
    }

    @Test func theFirstDayWithABlueskyAccount() throws {
        let prefix = try Self.installedPrefix()
        let server = try BlueskyTestServer.start()
        let home = EmptyHome()
        home.timeline.environment["PATH"] = prefix + "/bin:/usr/bin:/bin"
        var timeline = home.timeline
        timeline.launcher = [prefix + "/bin/timeline"]
        let login = try timeline.run(["login", "bluesky", BlueskyTestServer.handle, "--service", server.baseURL, "--app-password-stdin"],
                                     input: Data((BlueskyTestServer.password + "\n").utf8))
        #expect(login.status == 0, "\(login.errors)")
        #expect(try timeline.run(["sync"]).status == 0)
        let shown = try timeline.run(["show", "-n", "3", "--format", "{ref} {text}"])
        #expect(shown.status == 0 && shown.output.split(separator: "\n").count == 3, "\(shown.errors)")
        let reference = String(shown.output.split(separator: " ")[0])
        #expect(try timeline.run(["thread", reference]).status == 0)
        #expect(try timeline.run(["logout", BlueskyTestServer.handle]).status == 0)
    }
}
