import CBenchSupport
import Foundation

struct RunResult {
    var wallMs: Double
    var maxRSSKiB: Int
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

    /// Drops a file's pages from the page cache; silently skips missing files.
    static func evict(_ paths: [String]) {
        for path in paths where bench_evict(path) < 0 {
            FileHandle.standardError.write("warning: cannot evict \(path): \(String(cString: strerror(errno)))\n".data(using: .utf8)!)
        }
    }

    static func residentFraction(_ path: String) -> Double { bench_resident_fraction(path) }
}
