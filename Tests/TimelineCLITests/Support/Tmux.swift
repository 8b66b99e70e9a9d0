import Foundation
import Testing

/// A real terminal: a tmux server of our own (its own socket), one window of a fixed size.
final class Tmux {
    private let socket = "timeline-test-" + UUID().uuidString.prefix(8)

    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") }

    /// Starts `command` (run by /bin/sh) in a new window of `columns` × `rows`.
    init(command: String, columns: Int, rows: Int) throws {
        // The server this starts lives on: it must not inherit a pipe we would wait to see closed.
        try run(["new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "-s", "main", command], capturingOutput: false)
    }

    deinit { _ = try? run(["kill-server"], capturingOutput: false) }

    /// What the window shows now, one string per row (trailing blanks trimmed by tmux).
    func screen() throws -> String {
        try run(["capture-pane", "-p", "-t", "main"])
    }

    /// Everything the window has shown: the scrollback above the screen, then the screen.
    func screenWithHistory() throws -> String {
        try run(["capture-pane", "-p", "-S", "-", "-t", "main"])
    }

    /// Types keys into the window, in tmux's key names (`C-c` is Ctrl-C).
    func sendKeys(_ keys: String...) throws {
        try run(["send-keys", "-t", "main"] + keys, capturingOutput: false)
    }

    /// Resizes the window (the program in it gets SIGWINCH).
    func resizeWindow(columns: Int, rows: Int) throws {
        try run(["resize-window", "-t", "main", "-x", "\(columns)", "-y", "\(rows)"], capturingOutput: false)
    }

    /// The terminal device of the window (`/dev/pts/N`), to inspect its settings.
    func paneTTY() throws -> String {
        try run(["display-message", "-p", "-t", "main", "#{pane_tty}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls the screen until `condition` holds or `timeout` passes; returns the last screen.
    func waitForScreen(timeout: TimeInterval, until condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = try screen()
        while !condition(last), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            last = try screen()
        }
        return last
    }

    /// Runs the tmux client with posix_spawn and waitpid. Foundation's `Process` cannot be used:
    /// it learns that a child ended when a descriptor the child inherited is closed, and the tmux
    /// server forked by `new-session` keeps that descriptor open for its whole life.
    @discardableResult
    private func run(_ arguments: [String], capturingOutput: Bool = true) throws -> String {
        let outputPath = NSTemporaryDirectory() + "tmux-output-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let outputTarget = capturingOutput ? outputPath : "/dev/null"
        posix_spawn_file_actions_addopen(&actions, 1, outputTarget, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // The server outlives this call: it must not inherit the test runner's own pipes, or
        // `swift test` waits for the server to end before it can finish. (glibc's closefrom
        // action is not visible to Swift, so the open descriptors are listed and closed.)
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.compactMap { Int32($0) } ?? []
        for fd in open where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
        let argv: [String] = ["/usr/bin/tmux", "-L", socket, "-f", "/dev/null"] + arguments
        let environment: [String] = ["PATH=/usr/bin:/bin", "TERM=xterm-256color"]
        let cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        let cEnvironment: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { (cArguments + cEnvironment).forEach { free($0) } }
        // The test runner's threads block most signals, and a spawned child inherits the mask:
        // a server (and the programs in its window) with SIGHUP and SIGTERM blocked outlives
        // `kill-server`. It starts with nothing blocked, as from a shell.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/usr/bin/tmux", &actions, &attributes, cArguments, cEnvironment) == 0 else {
            throw CocoaError(.fileNoSuchFile)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard capturingOutput else { return "" }
        return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }
}

/// What the tests of `timeline browse` do with a window: read its status line, press keys and
/// wait for the status line to say what they did.
extension Tmux {
    /// The last line of `screen` with something on it: `browse`'s status line.
    static func statusLine(_ screen: String) -> String {
        screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).last { !$0.isEmpty } ?? ""
    }

    /// Presses `keys` and waits until the status line holds `expected` (and, when `changing`,
    /// differs from what it was before); returns the screen.
    @discardableResult
    func press(_ keys: [String], until expected: String, changing: Bool = false,
               sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let before = Self.statusLine(try screen())
        for key in keys { try sendKeys(key) }
        let screen = try waitForScreen(timeout: 30) {
            (!changing || Self.statusLine($0) != before) && Self.statusLine($0).contains(expected)
        }
        #expect(Self.statusLine(screen).contains(expected), "\(keys) → \(screen)", sourceLocation: sourceLocation)
        return screen
    }

    @discardableResult
    func press(_ keys: String..., until expected: String, changing: Bool = false,
               sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try press(keys, until: expected, changing: changing, sourceLocation: sourceLocation)
    }
}
