import Foundation
import TimelineKit

/// 8. `show --follow`: what it costs to sit idle, and how soon a commit by another process is on
/// the screen. The follower runs on an 80x40 pty (drained as a terminal would); the bench is the
/// other process, writing through TimelineKit.
func stageFollow(_ config: Config, _ data: DataSets, _ report: Report) throws {
    let idleSeconds = config.smoke ? 3.0 : 60.0
    let commits = config.smoke ? 5 : 25
    report.begin("8. show --follow: idle cost over \(Int(idleSeconds)) s and commit-to-screen latency (\(config.small) messages)")
    let db = try data.workCopy(messages: config.small, name: "follow")
    _ = Runner.pty([config.timeline, "show", "--db", db])  // a fresh snapshot, as in daily use

    let follower = try PTYChild([config.timeline, "show", "--follow", "--db", db])
    defer { follower.kill(SIGKILL) }
    // The first paint, then a moment for the loop to settle in.
    guard follower.readUntil(timeout: 10, { $0.count > 200 }) else { throw BenchFailure("follow painted nothing") }
    follower.drain(for: 1)

    // Idle: CPU time (on-CPU nanoseconds from /proc/PID/schedstat) and wake-ups over the period.
    let before = follower.cpu()
    follower.drain(for: idleSeconds)
    let after = follower.cpu()
    let cpuMs = Double(after.runNanoseconds - before.runNanoseconds) / 1e6
    let wakeups = Double(after.voluntarySwitches - before.voluntarySwitches) / idleSeconds
    let share = cpuMs / (idleSeconds * 1000) * 100
    report.value("follow.idle_cpu", "idle CPU time over \(Int(idleSeconds)) s", fmtMs(cpuMs), raw: cpuMs, unit: "ms",
                 note: String(format: "%.4f%% of one core; utime+stime %d ticks", share, after.ticks - before.ticks))
    report.value("follow.idle_wakeups", "idle wake-ups per second", String(format: "%.1f", wakeups), raw: wakeups, unit: "1/s",
                 note: "voluntary context switches (1/s with inotify, 10/s polling)")

    // Latency: commit returned in the bench -> the message's text read from the pty. Spacing the
    // commits by an odd number of milliseconds moves them across the follower's 100 ms tick.
    let writer = try TimelineStore(path: db, configuration: .init(writesSnapshot: false))
    let gen = data.generator
    var next = config.small
    var latencies: [Double] = []
    for index in 0..<commits {
        follower.drain(for: 0.137 + Double(index % 5) * 0.031)
        let marker = "bench-follow-\(index)-\(UInt32.random(in: 0 ... .max))"
        var message = gen.messages(next..<next + 1)[0]
        next += 1
        // Plain text that shows as it is: a generated repost would show the original's text,
        // a content warning would fold it.
        message.text = marker
        message.createdAt = Date()
        message.repostOfID = nil
        message.quoteOfID = nil
        message.contentWarning = nil
        try writer.upsert(messages: [message])
        let committed = now()
        guard follower.readUntil(timeout: 10, { $0.range(of: Data(marker.utf8)) != nil }) else {
            throw BenchFailure("follow never showed commit \(index)")
        }
        latencies.append(Double(follower.lastReadAt - committed) / 1e6)
    }
    let latency = Summary(latencies)
    report.time("follow.latency", "commit by another process -> on the screen", latency,
                note: "\(commits) commits by a TimelineKit writer")

    follower.kill(SIGTERM)
    let status = follower.wait()
    let fresh = try writer.snapshotStatus().isFresh
    report.note("SIGTERM: ended by signal \(status.signal.map(String.init) ?? "none (exit \(status.exit))"); snapshot afterwards \(fresh ? "fresh" : "STALE")")
    report.goal("follow.latency", "follow: commit to screen (max)", target: "≤ 200 ms", measured: fmtMs(latency.max),
                met: latency.max <= 200)
    report.goal("follow.idle_cpu", "follow: idle CPU", target: "≤ 0.05% of a core", measured: String(format: "%.4f%%", share),
                met: share <= 0.05)
    report.end()
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A child on a new 80x40 pseudo-terminal that keeps running while the bench reads its output.
final class PTYChild {
    let pid: pid_t
    private let primary: Int32
    private(set) var output = Data()
    /// When the last read that grew `output` returned (CLOCK_MONOTONIC ns).
    private(set) var lastReadAt: UInt64 = 0

    init(_ arguments: [String]) throws {
        // /dev/ptmx, unlocked (TIOCSPTLCK) and numbered (TIOCGPTN): posix_openpt's work.
        primary = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard primary >= 0, ioctl(primary, 0x4004_5431, &unlock) == 0, ioctl(primary, 0x8004_5430, &number) == 0 else {
            throw BenchFailure("cannot open a pty")
        }
        var size = winsize(ws_row: UInt16(Runner.rows), ws_col: UInt16(Runner.columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(primary, UInt(TIOCSWINSZ), &size)
        let secondaryPath = "/dev/pts/\(number)"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in 0...2 {
            posix_spawn_file_actions_addopen(&actions, fd, secondaryPath, O_RDWR, 0)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A session of its own (POSIX_SPAWN_SETSID), so the pty is its controlling terminal.
        posix_spawnattr_setflags(&attributes, Int16(0x80))
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = Runner.env.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        guard posix_spawn(&child, arguments[0], &actions, &attributes, argv, envp) == 0 else {
            throw BenchFailure("cannot start \(arguments[0])")
        }
        pid = child
    }

    deinit { close(primary) }

    /// Reads what the child writes until `condition` holds on everything read (true) or `timeout`
    /// seconds pass (false).
    func readUntil(timeout: Double, _ condition: (Data) -> Bool) -> Bool {
        let deadline = now() + UInt64(timeout * 1e9)
        while !condition(output) {
            let left = deadline > now() ? deadline - now() : 0
            if left == 0 { return false }
            readOnce(waitingMilliseconds: Int32(min(left / 1_000_000 + 1, 1000)))
        }
        return true
    }

    /// Keeps draining the terminal for `seconds`, as a terminal emulator would.
    func drain(for seconds: Double) {
        let deadline = now() + UInt64(seconds * 1e9)
        while now() < deadline {
            readOnce(waitingMilliseconds: Int32(min((deadline - now()) / 1_000_000 + 1, 1000)))
        }
    }

    private func readOnce(waitingMilliseconds: Int32) {
        var descriptor = pollfd(fd: primary, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, waitingMilliseconds) > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = read(primary, &buffer, buffer.count)
        if count > 0 {
            lastReadAt = now()
            output.append(contentsOf: buffer[..<count])
        } else {
            Thread.sleep(forTimeInterval: 0.01)  // EIO: the child is gone; do not spin
        }
    }

    struct CPU {
        var runNanoseconds: UInt64
        var ticks: Int
        var voluntarySwitches: Int
    }

    /// The child's CPU time so far, precise (`schedstat`) and in clock ticks (`stat`).
    func cpu() -> CPU {
        let schedstat = (try? String(contentsOfFile: "/proc/\(pid)/schedstat", encoding: .utf8)) ?? "0"
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        // Fields after the command name in parentheses: utime and stime are the 12th and 13th.
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        let ticks = fields.count > 12 ? (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0) : 0
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let switches = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches") }
            .flatMap { Int($0.split(separator: "\t").last ?? "") } ?? 0
        return CPU(runNanoseconds: UInt64(schedstat.split(separator: " ").first ?? "0") ?? 0,
                   ticks: ticks, voluntarySwitches: switches)
    }

    private var reaped = false

    func kill(_ signal: Int32) {
        if !reaped { _ = Glibc.kill(pid, signal) }
    }

    /// Waits for the child to end, draining the terminal meanwhile.
    func wait() -> (exit: Int32, signal: Int32?) {
        var status: Int32 = 0
        while true {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid {
                reaped = true
                break
            }
            if done < 0 { return (-1, nil) }
            readOnce(waitingMilliseconds: 50)
        }
        let signal = status & 0x7f
        return signal == 0 ? ((status >> 8) & 0xff, nil) : (0, signal)
    }
}
