import Foundation

/// Import lines written by hand for the reliability tests: every string is escaped so that any
/// scalar (controls, C1, bidi, tags) travels through the JSON untouched.
enum ImportLine {
    static func user(id: String, handle: String, name: String) -> String {
        #"{"type":"user","id":\#(json(id)),"handle":\#(json(handle)),"name":\#(json(name))}"#
    }

    /// A message created `createdAt` milliseconds after the Unix epoch.
    static func message(id: String, author: String, text: String, createdAt: Int64, extra: String = "") -> String {
        #"{"type":"message","id":\#(json(id)),"author":\#(json(author)),"text":\#(json(text)),"created_at":\#(json(rfc3339(createdAt)))\#(extra)}"#
    }

    /// A JSON string: printable ASCII as it is, everything else as `\uXXXX` escapes (surrogate
    /// pairs above the BMP).
    static func json(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case " "..."~": out.unicodeScalars.append(scalar)
            default:
                for unit in String(scalar).utf16 { out += String(format: "\\u%04x", unit) }
            }
        }
        return out + "\""
    }

    static func rfc3339(_ milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    static func write(_ lines: [String], to path: String) throws {
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    }
}

extension TimelineProcess {
    /// Starts `timeline` with its output thrown away and returns the running process, for tests
    /// that kill it or run many at once.
    func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// `run` or `runInTerminal`, timed from just before the process starts until it has exited.
    func timed(_ arguments: [String], inTerminal: Bool) throws -> (result: Result, seconds: Double) {
        let started = ContinuousClock.now
        let result = inTerminal ? try runInTerminal(arguments) : try run(arguments)
        return (result, Self.seconds(ContinuousClock.now - started))
    }

    /// The CPU time (user and system) `timeline` spent running `arguments`, with its output thrown
    /// away or, `inTerminal`, painted on a pseudo-terminal of 80 by 24. CPU time, read from the
    /// child's own accounting when it is reaped (`wait4`), not the wall clock: a machine busy with
    /// the rest of the suite delays a process, and a wall clock counts that wait as its cost.
    func cpuTime(_ arguments: [String], inTerminal: Bool) throws -> (status: Int32, seconds: Double) {
        let terminal = inTerminal ? try PseudoTerminal(columns: 80, rows: 24) : nil
        let output = terminal.map { $0.secondary.fileDescriptor } ?? open("/dev/null", O_WRONLY)
        let nothing = open("/dev/null", O_RDWR)
        defer {
            if terminal == nil { close(output) }
            close(nothing)
        }
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, terminal == nil ? nothing : output, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, nothing, 2)

        let argv = ([Self.executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, Self.executable, &actions, nil, argv, envp)
        guard spawned == 0 else { throw ShellFailure(description: "posix_spawn \(Self.executable): error \(spawned)") }
        if let terminal {
            terminal.closeSecondary()
            _ = terminal.readUntilClosed()  // a full terminal would stop the paint
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw ShellFailure(description: "wait4: errno \(errno)") }
        }
        let seconds = [usage.ru_utime, usage.ru_stime].reduce(0.0) { $0 + Double($1.tv_sec) + Double($1.tv_usec) * 1e-6 }
        // The exit status, as the shell reports it: the code, or 128 + the signal that ended it.
        let exited = status & 0x7f == 0
        return (exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), seconds)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}

extension Scenario {
    /// `sqlite3 DB SQL` that reports a failure instead of stopping the test run.
    @discardableResult
    func query(_ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = ["-bail", databasePath, sql]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let errorData = ErrorCollector(errors.fileHandleForReading)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let problem = String(decoding: errorData.finish(), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw ShellFailure(description: "sqlite3 exited \(process.terminationStatus): \(problem)")
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Another process that holds the database exclusively (exclusive locking mode, so WAL
    /// readers must wait too) for `seconds`, then rolls back: it changes nothing.
    func holdExclusively(seconds: Double) throws -> Process {
        let ready = directory + "/holder-ready-" + UUID().uuidString
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        holder.arguments = [databasePath, "PRAGMA locking_mode=EXCLUSIVE;", "BEGIN EXCLUSIVE;",
                            "UPDATE messages SET like_count = like_count;", ".shell touch '\(ready)'", ".shell sleep \(seconds)", "ROLLBACK;"]
        holder.standardOutput = FileHandle.nullDevice
        holder.standardError = FileHandle.nullDevice
        try holder.run()
        // Returns once the lock is taken: the shell touches the file after its UPDATE.
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: ready), holder.isRunning, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.005)
        }
        guard FileManager.default.fileExists(atPath: ready) else {
            holder.terminate()
            throw ShellFailure(description: "the sqlite3 shell did not take the lock")
        }
        return holder
    }
}

struct ShellFailure: Error, CustomStringConvertible {
    let description: String
}

/// Results that threads fill in, one slot each.
private final class ResultSlots<T>: @unchecked Sendable {
    // @unchecked Sendable: each thread writes only its own slot, under `lock`, and the slots are
    // read only after every thread has left the dispatch group.
    var results: [Swift.Result<T, any Error>?]
    let lock = NSLock()
    init(_ count: Int) { results = Array(repeating: nil, count: count) }
}

/// Runs `body` for each index on its own thread, all at once, and returns the results in order.
func concurrently<T>(_ count: Int, _ body: @escaping @Sendable (Int) throws -> T) -> [Swift.Result<T, any Error>] {
    let slots = ResultSlots<T>(count)
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread.detachNewThread {
            let result = Swift.Result { try body(index) }
            slots.lock.lock()
            slots.results[index] = result
            slots.lock.unlock()
            group.leave()
        }
    }
    group.wait()
    return slots.results.map { $0! }
}

/// SplitMix64, as in TimelineKitTests/Support (a separate test target cannot share it): seeded,
/// so a failing run can be replayed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
