import Foundation

/// The built `timeline` binary, run as a process the way a shell runs it.
struct TimelineProcess {
    struct Result {
        let status: Int32
        let output: String
        let errors: String
    }

    /// The `timeline` executable SwiftPM built beside this test bundle.
    static let executable: String = {
        var directory = Bundle.main.bundleURL
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("timeline").path
            if FileManager.default.isExecutableFile(atPath: candidate), !candidate.hasSuffix(".xctest") { return candidate }
            directory.deleteLastPathComponent()
        }
        preconditionFailure("the timeline binary was not found next to \(Bundle.main.bundleURL.path)")
    }()

    /// An environment with only what a test chooses: no colour or terminal settings leak in from
    /// the machine running the tests.
    var environment: [String: String]

    /// A command line that runs `timeline` (the arguments follow it), e.g. `setpriv` running
    /// it as another user; empty to run `executable` directly.
    var launcher: [String] = []

    init(databasePath: String, extra: [String: String] = [:]) {
        environment = ["TIMELINE_DB": databasePath, "HOME": "/nonexistent", "PATH": "/usr/bin:/bin", "TERM": "xterm-256color"]
        environment.merge(extra) { _, new in new }
    }

    /// Runs `timeline` with its output on pipes (not a terminal).
    func run(_ arguments: [String], input: Data? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: launcher.first ?? Self.executable)
        process.arguments = launcher.isEmpty ? arguments : launcher.dropFirst() + arguments
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = stdin
        try process.run()
        if let input { PipeInput.write(input, to: stdin.fileHandleForWriting) }
        try stdin.fileHandleForWriting.close()
        // Read both pipes concurrently so neither fills up and blocks the child.
        let errorData = ErrorCollector(errors.fileHandleForReading)
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      output: String(decoding: outputData, as: UTF8.self),
                      errors: String(decoding: errorData.finish(), as: UTF8.self))
    }

    /// Runs `timeline` with a pseudo-terminal of the given size as its standard input and output
    /// (standard error stays a pipe), and returns every byte it wrote to the terminal (with the
    /// echo of what was typed). `typing` is typed at the terminal once the process has started:
    /// the terminal keeps it until the process reads (`\n` ends a line, `\u{4}` is Ctrl-D).
    func runInTerminal(_ arguments: [String], columns: Int = 80, rows: Int = 24, typing: String? = nil) throws -> Result {
        let terminal = try PseudoTerminal(columns: columns, rows: rows)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = arguments
        process.environment = environment
        let errors = Pipe()
        process.standardInput = terminal.secondary
        process.standardOutput = terminal.secondary
        process.standardError = errors
        try process.run()
        terminal.closeSecondary()
        if let typing { terminal.type(typing) }
        let errorData = ErrorCollector(errors.fileHandleForReading)
        let bytes = terminal.readUntilClosed()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: bytes, as: UTF8.self),
                      errors: String(decoding: errorData.finish(), as: UTF8.self))
    }
}

/// Reads a pipe to its end on another thread.
final class ErrorCollector: @unchecked Sendable {
    // @unchecked Sendable: `data` is written by the reading thread before `done` is signalled and
    // read only after `finish()` has waited for that signal.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func finish() -> Data {
        done.wait()
        return data
    }
}

/// A pseudo-terminal pair: the primary side stays with the test, the secondary side becomes the
/// child's terminal.
final class PseudoTerminal {
    let primary: Int32
    private(set) var secondary: FileHandle

    struct Failure: Error { let step: String }

    init(columns: Int, rows: Int) throws {
        // posix_openpt and friends are not visible to Swift on glibc; these are the Linux ioctls
        // they wrap: unlock the secondary (TIOCSPTLCK) and ask its number (TIOCGPTN).
        primary = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard primary >= 0, ioctl(primary, 0x4004_5431, &unlock) == 0, ioctl(primary, 0x8004_5430, &number) == 0 else {
            throw Failure(step: "open /dev/ptmx")
        }
        let name = "/dev/pts/\(number)"
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        guard ioctl(primary, UInt(TIOCSWINSZ), &size) == 0 else { throw Failure(step: "TIOCSWINSZ") }
        let fd = open(name, O_RDWR | O_NOCTTY)
        guard fd >= 0 else { throw Failure(step: "open secondary") }
        // Raw output: the terminal driver must not turn \n into \r\n, so tests see what was written.
        var settings = termios()
        tcgetattr(fd, &settings)
        settings.c_oflag &= ~tcflag_t(OPOST)
        tcsetattr(fd, TCSANOW, &settings)
        secondary = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    /// Closes the test's copy of the secondary side, so reading sees the end once the child exits.
    func closeSecondary() {
        try? secondary.close()
    }

    /// Writes to the primary side: to the child, keys typed at its terminal.
    func type(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { write(primary, $0.baseAddress, $0.count) }
    }

    func readUntilClosed() -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let got = buffer.withUnsafeMutableBytes { read(primary, $0.baseAddress, $0.count) }
            if got > 0 {
                bytes += buffer[..<got]
            } else if got < 0 && errno == EINTR {
                continue
            } else {
                return bytes  // EIO: every secondary descriptor is closed
            }
        }
    }

    deinit { close(primary) }
}
