import CBenchSupport
import Foundation

struct RunResult {
    var wallMs: Double
    var maxRSSKiB: Int
    /// Minor page faults (`ru_minflt`), from `probed` runs; -1 otherwise.
    var minorFaults: Int = -1
    /// User and system CPU time in ms (`ru_utime`, `ru_stime`), from `probed` runs; -1 otherwise.
    var userMs: Double = -1
    var systemMs: Double = -1
    var status: Int32
    var bytes: Int
}

/// Runs a child process on a fresh 80x40 pseudo-terminal (or on /dev/null) through CBenchSupport.
enum Runner {
    static let columns: Int32 = 80
    static let rows: Int32 = 40

    /// The environment every child gets: a terminal that takes colour, nothing from ours.
    static func environment(home: String) -> [String] {
        ["TERM=xterm-256color", "HOME=\(home)", "PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8"]
    }

    nonisolated(unsafe) static var env: [String] = environment(home: NSTemporaryDirectory())

    static func pty(_ arguments: [String], capture: String? = nil) -> RunResult {
        var captureFD: Int32 = -1
        if let capture {
            captureFD = open(capture, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            precondition(captureFD >= 0, "cannot create \(capture)")
        }
        defer { if captureFD >= 0 { close(captureFD) } }
        return run(arguments) { argv, envp, result in
            bench_pty_run(argv, envp, columns, rows, captureFD, result)
        }
    }

    static func plain(_ arguments: [String]) -> RunResult {
        run(arguments) { argv, envp, result in bench_plain_run(argv, envp, result) }
    }

    private static func run(
        _ arguments: [String],
        _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>, UnsafePointer<UnsafeMutablePointer<CChar>?>, UnsafeMutablePointer<bench_run_result>) -> Int32
    ) -> RunResult {
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = env.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var result = bench_run_result()
        let rc = argv.withUnsafeBufferPointer { a in
            envp.withUnsafeBufferPointer { e in body(a.baseAddress!, e.baseAddress!, &result) }
        }
        if rc != 0 {
            fatalError("could not run \(arguments.joined(separator: " ")): \(String(cString: strerror(errno)))")
        }
        return RunResult(wallMs: Double(result.wall_ns) / 1e6, maxRSSKiB: result.maxrss_kib,
                         status: result.status, bytes: Int(result.bytes))
    }

    /// Measures several commands interleaved (A B C A B C …) so that drift hits them all alike.
    /// `before` runs (untimed) before each run of a command, e.g. to evict the page cache.
    static func measure(
        _ commands: [[String]], runs: Int, warmups: Int, pty usePTY: Bool = true,
        expectStatus: Int32 = 0, before: ((Int) -> Void)? = nil
    ) -> [(time: Summary, rss: Summary, bytes: Int)] {
        var times = Array(repeating: [Double](), count: commands.count)
        var rss = Array(repeating: [Double](), count: commands.count)
        var bytes = Array(repeating: 0, count: commands.count)
        for round in 0..<(warmups + runs) {
            for (index, command) in commands.enumerated() {
                before?(index)
                let result = usePTY ? pty(command) : plain(command)
                if result.status != expectStatus {
                    fatalError("\(command.joined(separator: " ")) exited with \(result.status)")
                }
                if round >= warmups {
                    times[index].append(result.wallMs)
                    rss[index].append(Double(result.maxRSSKiB))
                    bytes[index] = result.bytes
                }
            }
        }
        return (0..<commands.count).map { (Summary(times[$0]), Summary(rss[$0]), bytes[$0]) }
    }

    /// `rss-probe`, built beside this binary (see its main.c), and the file it reports into.
    static let probe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("rss-probe").path
    nonisolated(unsafe) static var probeReport = NSTemporaryDirectory() + "/bench-rss.txt"

    /// Runs a command through `rss-probe` (on the pty or on /dev/null): its wall time, status and
    /// its own peak RSS, which `posix_spawn`'s vfork would otherwise mix with the bench's.
    static func probed(_ arguments: [String], pty usePTY: Bool = false) -> RunResult {
        let command = [probe, probeReport] + arguments
        var result = usePTY ? pty(command) : plain(command)
        let text = (try? String(contentsOfFile: probeReport, encoding: .utf8)) ?? ""
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        result.maxRSSKiB = fields.first.flatMap { Int($0) } ?? -1
        result.minorFaults = fields.dropFirst().first.flatMap { Int($0) } ?? -1
        result.userMs = fields.dropFirst(2).first.flatMap { Double($0) }.map { $0 / 1000 } ?? -1
        result.systemMs = fields.dropFirst(3).first.flatMap { Double($0) }.map { $0 / 1000 } ?? -1
        try? FileManager.default.removeItem(atPath: probeReport)
        return result
    }

    /// Whole processes measured side by side through `rss-probe`, interleaved (A B A B …), each
    /// run preceded by `before(index, round)` (untimed: a fresh database, IDs to mark again).
    /// `accept` says which exit statuses are normal for a command (`search` exits 2 when nothing
    /// matched); any other fails the bench, as a figure of a failed run means nothing.
    static func sideBySide(
        _ commands: [[String]], runs: Int, warmups: Int,
        accept: (Int, Int32) -> Bool = { _, status in status == 0 },
        before: ((Int, Int) throws -> Void)? = nil
    ) throws -> [(time: Summary, rss: Summary)] {
        try sideBySideWithCPU(commands, runs: runs, warmups: warmups, accept: accept, before: before).map { ($0.time, $0.rss) }
    }

    /// `sideBySide`, with each command's system and user CPU time (ms, from `rss-probe`).
    static func sideBySideWithCPU(
        _ commands: [[String]], runs: Int, warmups: Int,
        accept: (Int, Int32) -> Bool = { _, status in status == 0 },
        before: ((Int, Int) throws -> Void)? = nil
    ) throws -> [(time: Summary, rss: Summary, system: Summary, user: Summary)] {
        var system = Array(repeating: [Double](), count: commands.count)
        var user = Array(repeating: [Double](), count: commands.count)
        let results = try sideBySide(count: commands.count, runs: runs, warmups: warmups, accept: accept,
                                     command: { index, round in
                                         try before?(index, round)
                                         return commands[index]
                                     },
                                     record: { index, result in
                                         system[index].append(result.systemMs)
                                         user[index].append(result.userMs)
                                     })
        return results.indices.map { (results[$0].time, results[$0].rss, Summary(system[$0]), Summary(user[$0])) }
    }

    /// `sideBySide` for commands that change from run to run (`command(index, round)`, called
    /// untimed just before each run: it may prepare what the run needs).
    static func sideBySide(
        count: Int, runs: Int, warmups: Int,
        accept: (Int, Int32) -> Bool = { _, status in status == 0 },
        command: (Int, Int) throws -> [String],
        record: (Int, RunResult) -> Void = { _, _ in }
    ) throws -> [(time: Summary, rss: Summary)] {
        var times = Array(repeating: [Double](), count: count)
        var rss = Array(repeating: [Double](), count: count)
        for round in 0..<(warmups + runs) {
            for index in 0..<count {
                let command = try command(index, round)
                let result = probed(command)
                guard accept(index, result.status) else {
                    throw BenchError("\(command.joined(separator: " ")) exited with \(result.status)")
                }
                if round >= warmups {
                    times[index].append(result.wallMs)
                    rss[index].append(Double(result.maxRSSKiB))
                    record(index, result)
                }
            }
        }
        return (0..<count).map { (Summary(times[$0]), Summary(rss[$0])) }
    }

    /// Runs a command once, untimed, with its standard output and error captured: for the
    /// cross-checks of what the measured commands found.
    static func capture(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.environment = Dictionary(uniqueKeysWithValues: env.map { entry in
            let parts = entry.split(separator: "=", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        })
        // Standard error into a file: only standard output needs draining while it runs.
        let errorsPath = NSTemporaryDirectory() + "/bench-capture-\(getpid()).err"
        _ = FileManager.default.createFile(atPath: errorsPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errorsPath) }
        let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errorsPath))
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try errors.close()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errorData = (try? Data(contentsOf: URL(fileURLWithPath: errorsPath))) ?? Data()
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }

    /// Drops a file's pages from the page cache; silently skips missing files.
    static func evict(_ paths: [String]) {
        for path in paths where bench_evict(path) < 0 {
            FileHandle.standardError.write("warning: cannot evict \(path): \(String(cString: strerror(errno)))\n".data(using: .utf8)!)
        }
    }

    static func residentFraction(_ path: String) -> Double { bench_resident_fraction(path) }
}
