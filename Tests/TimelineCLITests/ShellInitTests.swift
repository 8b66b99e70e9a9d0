import Foundation
import Testing
@testable import timeline

/// `timeline init bash|zsh|fish`, run by the real shells as a person's start-up file would.
@Suite(.enabled(if: ShellHome.shellsAreInstalled, "bash, zsh and fish are installed by `make test-deps`"))
struct ShellInitTests {
    /// Editors and IDE helpers run `SHELL -ic 'printenv PATH'` and read every line it prints.
    @Test(arguments: ShellHome.Shell.allCases)
    func anInteractiveShellThatRunsACommandPrintsOnlyThatCommandsOutput(shell: ShellHome.Shell) throws {
        let home = try ShellHome()
        let result = try home.run(shell, ["-i", "-c", "printenv PATH"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output == home.path + "\n")
    }

    @Test(arguments: ShellHome.Shell.allCases)
    func aNonInteractiveShellPrintsNothingOfTheTimeline(shell: ShellHome.Shell) throws {
        let home = try ShellHome()
        let script = shell == .fish ? "source \(home.startupFile(shell)); echo done" : ". \(home.startupFile(shell)); echo done"
        let result = try home.run(shell, ["-c", script])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output == "done\n")
    }

    @Test(.enabled(if: Tmux.isAvailable), arguments: ShellHome.Shell.allCases)
    func aNewTerminalShowsTheTimelineBeforeTheFirstPrompt(shell: ShellHome.Shell) throws {
        let home = try ShellHome()
        let terminal = try Tmux(command: home.interactiveCommand(shell), columns: 100, rows: 40)
        let screen = try terminal.waitForScreen(timeout: 30) { $0.contains(ShellHome.newestText) }
        #expect(screen.contains(ShellHome.newestText))
        // The shell is usable afterwards, and the timeline is shown once, not at every prompt.
        try terminal.sendKeys("printf %s-%s\\\\n MARK 42", "Enter")
        let after = try terminal.waitForScreen(timeout: 30) { $0.contains("MARK-42") }
        #expect(after.contains("MARK-42"))
        try terminal.sendKeys("printf %s-%s\\\\n AGAIN 42", "Enter")
        _ = try terminal.waitForScreen(timeout: 30) { $0.contains("AGAIN-42") }
        let everything = try terminal.screenWithHistory()
        #expect(everything.components(separatedBy: ShellHome.newestText).count == 2)
    }

    /// `init SHELL --count N`: each new terminal shows N messages, not a window's worth
    /// (issue 23, item 10).
    @Test(.enabled(if: Tmux.isAvailable), arguments: ShellHome.Shell.allCases)
    func initWithACountShowsThatManyMessagesInANewTerminal(shell: ShellHome.Shell) throws {
        let home = try ShellHome(initArguments: ["--count", "2"])
        let texts = try home.scenario.timeline.run(["show", "--format", "{text}", "-n", "4"]).output.split(separator: "\n").map(String.init)
        let terminal = try Tmux(command: home.interactiveCommand(shell), columns: 100, rows: 40)
        try terminal.sendKeys("printf %s-%s\\\\n SHOWN 42", "Enter")
        let screen = try terminal.waitForScreen(timeout: 30) { $0.contains("SHOWN-42") }
        #expect(screen.contains(String(texts[0].prefix(20))) && screen.contains(String(texts[1].prefix(20))), "\(screen)")
        #expect(!screen.contains(String(texts[2].prefix(20))) && !screen.contains(String(texts[3].prefix(20))), "\(screen)")
    }

    @Test func initRefusesACountOfNone() throws {
        let result = try Scenario().timeline.run(["init", "bash", "--count", "0"])
        #expect(result.status == 64)
        #expect(result.errors.contains("--count"))
    }

    /// A start-up file that sources a saved copy of the snippet keeps working after `timeline`
    /// is uninstalled: no error, no output, a prompt.
    @Test(.enabled(if: Tmux.isAvailable), arguments: ShellHome.Shell.allCases)
    func aShellStartsCleanlyWhenTimelineIsGone(shell: ShellHome.Shell) throws {
        let home = try ShellHome(savedSnippet: true)
        try FileManager.default.removeItem(atPath: home.directory + "/bin/timeline")
        let terminal = try Tmux(command: home.interactiveCommand(shell), columns: 100, rows: 40)
        try terminal.sendKeys("printf %s-%s\\\\n READY 42", "Enter")
        let screen = try terminal.waitForScreen(timeout: 30) { $0.contains("READY-42") }
        #expect(screen.contains("READY-42"))
        #expect(!screen.lowercased().contains("not found"))
        #expect(!screen.lowercased().contains("unknown command"))
        #expect(!screen.contains(ShellHome.newestText))
    }

    /// The start-up line of `timeline init --help` (issue 28): the first terminal runs `init`
    /// (no cached copy yet) and `show`; every later one runs `show` alone, the one `timeline`
    /// process in the foreground, which starts any sync itself (no `sync --background` run).
    @Test(.enabled(if: Tmux.isAvailable), arguments: ShellHome.Shell.allCases)
    func aNewTerminalRunsOneTimelineProcessOnceTheHookIsCached(shell: ShellHome.Shell) throws {
        let home = try ShellHome(logsRuns: true)
        do {
            let terminal = try Tmux(command: home.interactiveCommand(shell), columns: 100, rows: 40)
            _ = try terminal.waitForScreen(timeout: 30) { $0.contains(ShellHome.newestText) }
        }
        #expect(try home.takeRuns() == ["init \(shell.rawValue)", "show --sync-if-older 5m"])
        #expect(FileManager.default.fileExists(atPath: home.cachedCopy(shell)))
        let terminal = try Tmux(command: home.interactiveCommand(shell), columns: 100, rows: 40)
        let screen = try terminal.waitForScreen(timeout: 30) { $0.contains(ShellHome.newestText) }
        #expect(screen.contains(ShellHome.newestText))
        try terminal.sendKeys("printf %s-%s\\\\n READY 42", "Enter")
        _ = try terminal.waitForScreen(timeout: 30) { $0.contains("READY-42") }
        #expect(try home.takeRuns() == ["show --sync-if-older 5m"])
    }

    /// A cached copy older than the binary (an upgrade), or naming a binary that is gone (moved
    /// elsewhere on PATH), is taken again from `timeline init`, and the terminal shows the timeline.
    @Test(.enabled(if: Tmux.isAvailable), arguments: ShellHome.Shell.allCases)
    func aStaleCachedCopyIsTakenAgainFromInit(shell: ShellHome.Shell) throws {
        let home = try ShellHome(logsRuns: true)
        let copy = home.cachedCopy(shell)
        #expect(try home.run(.bash, ["-c", "timeline init \(shell.rawValue) >/dev/null"]).status == 0)
        let written = try String(contentsOfFile: copy, encoding: .utf8)
        let binary = URL(fileURLWithPath: TimelineProcess.executable).resolvingSymlinksInPath().path
        #expect(written.contains(binary), "\(written)")

        // Older than the binary (as after an upgrade).
        let old = Date().addingTimeInterval(-86_400 * 800)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: copy)
        _ = try home.takeRuns()
        do {
            let terminal = try Tmux(command: home.interactiveCommand(shell), columns: 100, rows: 40)
            let screen = try terminal.waitForScreen(timeout: 30) { $0.contains(ShellHome.newestText) }
            #expect(screen.contains(ShellHome.newestText))
        }
        #expect(try home.takeRuns() == ["init \(shell.rawValue)", "show --sync-if-older 5m"])
        let renewed = try #require(try FileManager.default.attributesOfItem(atPath: copy)[.modificationDate] as? Date)
        #expect(renewed > old)

        // Naming a binary that is no longer there.
        try written.replacingOccurrences(of: binary, with: home.directory + "/gone/timeline").write(toFile: copy, atomically: true, encoding: .utf8)
        do {
            let terminal = try Tmux(command: home.interactiveCommand(shell), columns: 100, rows: 40)
            let screen = try terminal.waitForScreen(timeout: 30) { $0.contains(ShellHome.newestText) }
            #expect(screen.contains(ShellHome.newestText))
        }
        #expect(try home.takeRuns() == ["init \(shell.rawValue)", "show --sync-if-older 5m"])
        #expect(try String(contentsOfFile: copy, encoding: .utf8) == written)
    }

    /// The start-up line with its cached copy, once `timeline` is uninstalled: a clean start.
    @Test(.enabled(if: Tmux.isAvailable), arguments: ShellHome.Shell.allCases)
    func aCachedHookStartsCleanlyWhenTimelineIsGone(shell: ShellHome.Shell) throws {
        let home = try ShellHome()
        #expect(try home.run(.bash, ["-c", "timeline init \(shell.rawValue) >/dev/null"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: home.cachedCopy(shell)))
        try FileManager.default.removeItem(atPath: home.directory + "/bin/timeline")
        let terminal = try Tmux(command: home.interactiveCommand(shell), columns: 100, rows: 40)
        try terminal.sendKeys("printf %s-%s\\\\n READY 42", "Enter")
        let screen = try terminal.waitForScreen(timeout: 30) { $0.contains("READY-42") }
        #expect(!screen.lowercased().contains("not found"), "\(screen)")
        #expect(!screen.lowercased().contains("error"), "\(screen)")
        #expect(!screen.contains(ShellHome.newestText))
    }

    @Test func anUnknownShellIsAUsageError() throws {
        let scenario = Scenario()
        let result = try scenario.timeline.run(["init", "tcsh"])
        #expect(result.status == 64)
        #expect(result.errors.contains("bash"))
    }
}

/// A home directory for one shell test: `timeline` on its PATH, a demo timeline, and each
/// shell's start-up file holding the line docs/user-guide.md (The shell hook) gives.
struct ShellHome {
    enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    static var shellsAreInstalled: Bool {
        Shell.allCases.allSatisfy { FileManager.default.isExecutableFile(atPath: "/usr/bin/\($0.rawValue)") }
    }

    /// The text of the sample timeline's newest message, which a painted screen shows.
    static let newestText = "Okay, closing the laptop."

    let scenario = Scenario()
    var directory: String { scenario.directory }
    /// The PATH the shells get: our `bin` (holding `timeline`) before the system's.
    var path: String { directory + "/bin:/usr/bin:/bin" }

    /// How the start-up file takes the hook: the line `timeline init --help` gives (the cached
    /// copy, else `init`), the older `eval "$(timeline init bash)"`, or a copy saved by hand.
    enum Line {
        case startup, eval, savedSnippet
    }

    /// Where every `timeline` the shells start from PATH is logged (one line of arguments each),
    /// when `logsRuns` puts a wrapper script there instead of a link to the binary.
    var runLog: String { directory + "/timeline-runs.log" }

    init(_ line: Line = .startup, savedSnippet: Bool = false, initArguments: [String] = [], logsRuns: Bool = false) throws {
        let line = savedSnippet ? .savedSnippet : line
        try scenario.importSample()
        let manager = FileManager.default
        try manager.createDirectory(atPath: directory + "/bin", withIntermediateDirectories: true)
        if logsRuns {
            // The shells run this by its PATH name; the background sync `show` starts runs the
            // binary itself (/proc/self/exe), so only what the shell starts is logged.
            let wrapper = "#!/bin/sh\necho \"$*\" >> '\(runLog)'\nexec '\(TimelineProcess.executable)' \"$@\"\n"
            try TestScript.write(wrapper, to: directory + "/bin/timeline")
        } else {
            try manager.createSymbolicLink(atPath: directory + "/bin/timeline", withDestinationPath: TimelineProcess.executable)
        }
        try manager.createDirectory(atPath: directory + "/.config/fish", withIntermediateDirectories: true)
        let count = initArguments.count == 2 && initArguments[0] == "--count" ? Int(initArguments[1]) : nil
        for shell in Shell.allCases {
            let text: String
            switch line {
            case .savedSnippet:
                let saved = directory + "/timeline.\(shell.rawValue)"
                let snippet = try scenario.timeline.run(["init", shell.rawValue])
                try snippet.output.write(toFile: saved, atomically: true, encoding: .utf8)
                text = shell == .fish ? "source \(saved)" : ". \(saved)"
            case .eval:
                let command = (["timeline", "init", shell.rawValue] + initArguments).joined(separator: " ")
                text = shell == .fish ? "\(command) | source" : "eval \"$(\(command))\""
            case .startup:
                text = ShellSetup(rawValue: shell.rawValue)!.startupLine(count: count)
            }
            try (text + "\n").write(toFile: startupFile(shell), atomically: true, encoding: .utf8)
        }
    }

    /// The cached copy of the hook the start-up line sources.
    func cachedCopy(_ shell: Shell, count: Int? = nil) -> String {
        directory + "/.cache/timeline/" + ShellSetup.cacheFileName(shell: ShellSetup(rawValue: shell.rawValue)!, count: count)
    }

    /// The lines of `runLog`, emptied.
    func takeRuns() throws -> [String] {
        let text = (try? String(contentsOfFile: runLog, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: runLog)
        return text.split(separator: "\n").map(String.init)
    }

    func startupFile(_ shell: Shell) -> String {
        switch shell {
        case .bash: directory + "/.bashrc"
        case .zsh: directory + "/.zshrc"
        case .fish: directory + "/.config/fish/config.fish"
        }
    }

    var environment: [String: String] {
        ["HOME": directory, "ZDOTDIR": directory, "XDG_CONFIG_HOME": directory + "/.config",
         "XDG_DATA_HOME": directory + "/.local/share", "TIMELINE_DB": scenario.databasePath,
         "PATH": path, "TERM": "xterm-256color"]
    }

    /// The command line tmux runs: the shell, interactive, with only this home's environment.
    func interactiveCommand(_ shell: Shell) -> String {
        let variables = environment.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        return "env -i \(variables) /usr/bin/\(shell.rawValue) -i"
    }

    /// Runs the shell with pipes for its standard streams (not a terminal).
    func run(_ shell: Shell, _ arguments: [String]) throws -> TimelineProcess.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/\(shell.rawValue)")
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let errorData = ErrorCollector(errors.fileHandleForReading)
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return TimelineProcess.Result(status: process.terminationStatus,
                                      output: String(decoding: outputData, as: UTF8.self),
                                      errors: String(decoding: errorData.finish(), as: UTF8.self))
    }
}
