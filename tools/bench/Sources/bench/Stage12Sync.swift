import Foundation
import TimelineKit

/// 12. Sync (issue 14): `timeline sync` of 1,000 new statuses (25 pages of 40) from the loopback
/// Mastodon server as a whole process: wall time, requests, and the time from the answer of the
/// last home page to the fresh snapshot on disk; a sync with nothing new and one with 5 new, on
/// Mastodon and Bluesky (issue 28: body bytes per timeline, entries decoded, instructions);
/// then what the sync code costs `show`'s launch:
/// instructions (callgrind), peak RSS and minor page faults of this binary beside the baseline
/// binary (`tools/bench/run --baseline REV`, the commit before the sync work) in the same run.
func stageSync(_ config: Config, _ data: DataSets, _ report: Report) throws {
    report.begin("12. Sync from the loopback Mastodon and Bluesky servers, and show's launch beside the baseline binary")
    try syncOfAThousandStatuses(config, data, report)
    try syncOfNineHundredBlueskyPosts(config, data, report)
    try syncsWithLittleNew(config, data, report, network: "mastodon")
    try syncsWithLittleNew(config, data, report, network: "bluesky")
    try showLaunchBesideBaseline(config, data, report)
    report.end()
}

/// The repository's root, found from the bench's own path (tools/bench/.build/…/bench).
func repositoryRoot() -> String {
    var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    while url.path != "/" {
        url.deleteLastPathComponent()
        if FileManager.default.fileExists(atPath: url.path + "/tools/mastodon-test-server/server.py") { return url.path }
    }
    return FileManager.default.currentDirectoryPath
}

/// The loopback server, started for one measurement and killed after it.
final class LoopbackServer {
    let process = Process()
    let port: Int

    init(statuses: Int, script: String = "tools/mastodon-test-server/server.py") throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repositoryRoot() + "/" + script,
                             "--port", "0", "--statuses", String(statuses), "--idle-timeout", "300"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(0x0A) {
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { throw BenchError("the loopback server did not start") }
            line += more
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else { throw BenchError("the server said \(text)") }
        self.port = port
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// A control call, through curl (the bench links no HTTP client).
    @discardableResult
    func control(_ name: String, _ body: String? = nil) throws -> [String: Any] {
        var arguments = ["/usr/bin/curl", "-s", "--max-time", "30"]
        if let body { arguments += ["-X", "POST", "-H", "Content-Type: application/json", "-d", body] }
        let result = try Runner.capture(arguments + [baseURL + "/_control/" + name])
        guard result.status == 0 else { throw BenchError("control \(name): curl exited \(result.status)") }
        return (try JSONSerialization.jsonObject(with: Data(result.output.utf8))) as? [String: Any] ?? [:]
    }

    /// Every request the server has seen, in order.
    func requests() throws -> [[String: Any]] {
        let result = try Runner.capture(["/usr/bin/curl", "-s", "--max-time", "30", baseURL + "/_control/requests"])
        return ((try JSONSerialization.jsonObject(with: Data(result.output.utf8))) as? [[String: Any]]) ?? []
    }
}

/// Runs `body` with extra environment entries for every child the Runner starts.
func withEnvironment<T>(_ extra: [String], _ body: () throws -> T) rethrows -> T {
    let saved = Runner.env
    Runner.env = saved + extra
    defer { Runner.env = saved }
    return try body()
}

/// The modification time of `path` in wall-clock seconds, to the nanosecond.
private func modificationTime(_ path: String) -> Double? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
}

private func syncOfAThousandStatuses(_ config: Config, _ data: DataSets, _ report: Report) throws {
    let runs = config.smoke ? 1 : 5
    let newStatuses = 1_000
    var walls: [Double] = [], rss: [Double] = [], tails: [Double] = [], requests: [Double] = []
    for run in 0 ..< runs {
        let server = try LoopbackServer(statuses: 200)
        let work = try freshDirectory(data.directory + "/work/sync-\(run)")
        let database = work + "/timeline.sqlite"
        try withEnvironment(["XDG_CONFIG_HOME=\(work)/config", "TIMELINE_DB=\(database)"]) {
            let login = try Runner.capture(["/bin/sh", "-c", "printf '%s\\n' loopback-test-token-0123456789abcdef | \"$0\" login mastodon \"$1\" --token-stdin",
                                            config.timeline, server.baseURL])
            guard login.status == 0 else { throw BenchError("login failed: \(login.errors)") }
            // The first sync (the newest 200), then a week away: 1,000 new statuses.
            let first = try Runner.capture([config.timeline, "sync"])
            guard first.status == 0 else { throw BenchError("first sync failed: \(first.errors)") }
            try server.control("statuses", "{\"count\": \(newStatuses)}")
            let before = try server.requests().count
            let result = Runner.probed([config.timeline, "sync"])
            guard result.status == 0 else { throw BenchError("sync exited with \(result.status)") }
            let sent = try server.requests().dropFirst(before)
            guard let lastPage = sent.last(where: { $0["path"] as? String == "/api/v1/timelines/home" })?["answered_at"] as? Double,
                  let written = modificationTime(work + "/timeline.snapshot") else {
                throw BenchError("no home page answered, or no snapshot after the sync")
            }
            walls.append(result.wallMs)
            rss.append(Double(result.maxRSSKiB))
            tails.append((written - lastPage) * 1000)
            requests.append(Double(sent.count))
            // Every new status is stored, in the account's home timeline.
            let stored = try Runner.capture(["/usr/bin/sqlite3", database, "SELECT count(*) FROM synced_entries WHERE timeline = 'home'"])
            if stored.output.trimmingCharacters(in: .whitespacesAndNewlines) != String(200 + newStatuses) {
                report.fail("sync: the home timeline holds \(stored.output.trimmingCharacters(in: .whitespacesAndNewlines)) entries, not \(200 + newStatuses)")
            }
        }
    }
    let wall = Summary(walls)
    report.time("sync.thousand", "sync of 1,000 new statuses (25 pages of 40), whole process", wall,
                note: String(format: "%.0f requests; peak RSS %@", Summary(requests).median, fmtBytes(Int(Summary(rss).median * 1024))))
    report.value("sync.requests", "requests of that sync (home pages, notifications, markers)", String(format: "%.0f", Summary(requests).median),
                 raw: Summary(requests).median, unit: "requests")
    report.time("sync.last_page_to_snapshot", "from the last home page's answer to the fresh snapshot on disk", Summary(tails),
                note: "storing that page, notifications and marker (their requests included), the snapshot rewrite")
}

/// `timeline sync` of a Bluesky account after 900 new posts (nine pages of 100, and the page
/// that meets what is stored) from the loopback Bluesky server, as a whole process.
private func syncOfNineHundredBlueskyPosts(_ config: Config, _ data: DataSets, _ report: Report) throws {
    let runs = config.smoke ? 1 : 5
    let newPosts = 900
    var walls: [Double] = [], rss: [Double] = [], requests: [Double] = []
    for run in 0 ..< runs {
        let server = try LoopbackServer(statuses: 200, script: "tools/bluesky-test-server/server.py")
        let work = try freshDirectory(data.directory + "/work/bluesky-sync-\(run)")
        let database = work + "/timeline.sqlite"
        try withEnvironment(["XDG_CONFIG_HOME=\(work)/config", "TIMELINE_DB=\(database)"]) {
            let login = try Runner.capture(["/bin/sh", "-c", "printf '%s\\n' loop-back-app-pass | \"$0\" login bluesky me.loopback.test --service \"$1\" --app-password-stdin",
                                            config.timeline, server.baseURL])
            guard login.status == 0 else { throw BenchError("bluesky login failed: \(login.errors)") }
            let first = try Runner.capture([config.timeline, "sync"])
            guard first.status == 0 else { throw BenchError("first bluesky sync failed: \(first.errors)") }
            try server.control("posts", "{\"count\": \(newPosts)}")
            let before = try server.requests().count
            let result = Runner.probed([config.timeline, "sync"])
            guard result.status == 0 else { throw BenchError("bluesky sync exited with \(result.status)") }
            walls.append(result.wallMs)
            rss.append(Double(result.maxRSSKiB))
            requests.append(Double(try server.requests().count - before))
            let stored = try Runner.capture(["/usr/bin/sqlite3", database, "SELECT count(*) FROM synced_entries WHERE timeline = 'home'"])
            if stored.output.trimmingCharacters(in: .whitespacesAndNewlines) != String(200 + newPosts) {
                report.fail("bluesky sync: the home timeline holds \(stored.output.trimmingCharacters(in: .whitespacesAndNewlines)) entries, not \(200 + newPosts)")
            }
        }
    }
    report.time("sync.bluesky_nine_hundred", "Bluesky: sync of 900 new posts (a probe of 1, a page of 10, then pages of 100), whole process", Summary(walls),
                note: String(format: "%.0f requests; peak RSS %@", Summary(requests).median, fmtBytes(Int(Summary(rss).median * 1024))))
}

/// What one account's `sync --json` line says it received: body bytes and entries decoded of
/// each timeline, and the bytes of the whole sync.
private struct Received {
    var bytes = 0
    var home = (bytes: 0, entries: 0)
    var notifications = (bytes: 0, entries: 0)

    init(json output: String) throws {
        guard let line = output.split(separator: "\n").first,
              let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let received = object["received"] as? [String: Any] else { throw BenchError("sync --json said no \"received\": \(output)") }
        func timeline(_ name: String) -> (bytes: Int, entries: Int) {
            let traffic = received[name] as? [String: Any]
            return (traffic?["bytes"] as? Int ?? -1, traffic?["entries"] as? Int ?? -1)
        }
        bytes = received["bytes"] as? Int ?? -1
        home = timeline("home")
        notifications = timeline("notifications")
    }
}

/// Issue 28, finding 2: a sync with nothing new, then one with 5 new statuses (and 5
/// notifications), of an account that synced before (200 statuses, 30 notifications): body
/// bytes received per timeline and entries decoded, from `sync --json`, and the instructions of
/// the nothing-new sync (callgrind, the `timeline` process alone, not curl's).
private func syncsWithLittleNew(_ config: Config, _ data: DataSets, _ report: Report, network: String) throws {
    let bluesky = network == "bluesky"
    let name = bluesky ? "Bluesky" : "Mastodon"
    let server = try LoopbackServer(statuses: 200, script: bluesky ? "tools/bluesky-test-server/server.py" : "tools/mastodon-test-server/server.py")
    let work = try freshDirectory(data.directory + "/work/little-new-\(network)")
    let database = work + "/timeline.sqlite"
    try withEnvironment(["XDG_CONFIG_HOME=\(work)/config", "TIMELINE_DB=\(database)"]) {
        let login = bluesky
            ? try Runner.capture(["/bin/sh", "-c", "printf '%s\\n' loop-back-app-pass | \"$0\" login bluesky me.loopback.test --service \"$1\" --app-password-stdin",
                                  config.timeline, server.baseURL])
            : try Runner.capture(["/bin/sh", "-c", "printf '%s\\n' loopback-test-token-0123456789abcdef | \"$0\" login mastodon \"$1\" --token-stdin",
                                  config.timeline, server.baseURL])
        guard login.status == 0 else { throw BenchError("\(network) login failed: \(login.errors)") }
        if !bluesky { try server.control("notifications", "{\"count\": 30}") }
        let first = try Runner.capture([config.timeline, "sync"])
        guard first.status == 0 else { throw BenchError("first \(network) sync failed: \(first.errors)") }
        let nothing = try Runner.capture([config.timeline, "sync", "--json"])
        guard nothing.status == 0 else { throw BenchError("\(network) sync exited \(nothing.status): \(nothing.errors)") }
        let idle = try Received(json: nothing.output)
        // The same sync again under callgrind: still nothing new.
        let counted = try instructions([config.timeline, "sync", "--json"])
        try server.control(bluesky ? "posts" : "statuses", "{\"count\": 5}")
        if !bluesky { try server.control("notifications", "{\"count\": 5}") }
        let fiveRun = try Runner.capture([config.timeline, "sync", "--json"])
        guard fiveRun.status == 0 else { throw BenchError("\(network) sync exited \(fiveRun.status): \(fiveRun.errors)") }
        let five = try Received(json: fiveRun.output)
        let key = "sync.little_new_\(network)"
        report.value(key + ".nothing_home_bytes", "\(name): nothing new, home timeline body bytes", "\(idle.home.bytes) B",
                     raw: idle.home.bytes, unit: "bytes", note: "\(idle.home.entries) entries decoded")
        report.value(key + ".nothing_notification_bytes", "\(name): nothing new, notifications body bytes", "\(idle.notifications.bytes) B",
                     raw: idle.notifications.bytes, unit: "bytes", note: "\(idle.notifications.entries) entries decoded")
        report.value(key + ".nothing_bytes", "\(name): nothing new, body bytes of the whole sync", "\(idle.bytes) B",
                     raw: idle.bytes, unit: "bytes", note: bluesky ? "" : "the two pages and the read marker")
        report.value(key + ".nothing_instructions", "\(name): nothing new, instructions of the timeline process (callgrind)",
                     counted.map { fmtCount($0) } ?? "no valgrind", raw: counted ?? -1, unit: "instructions")
        report.value(key + ".five_home", "\(name): 5 new, home timeline: entries decoded", "\(five.home.entries)",
                     raw: five.home.entries, unit: "entries", note: "\(five.home.bytes) B of body")
        report.value(key + ".five_notifications", "\(name): 5 new notifications: entries decoded", "\(five.notifications.entries)",
                     raw: five.notifications.entries, unit: "entries", note: "\(five.notifications.bytes) B of body")
        let perTimeline = max(idle.home.bytes, idle.notifications.bytes)
        report.goal(key + ".nothing_under_2kb", "\(name): a nothing-new sync receives under 2 KB of body per timeline", target: "< 2048 B",
                    measured: "\(idle.home.bytes) B home, \(idle.notifications.bytes) B notifications",
                    met: perTimeline >= 0 && perTimeline < 2048)
        // Mastodon is asked for what is above the stored top, so 5 new are 5 decoded; Bluesky
        // cannot be: it fetches a probe of one and a page of ten, and decodes that page down to
        // the first entry it holds (issue 28; it decoded 11 before).
        report.goal(key + ".five_decode_five", "\(name): 5 new statuses decode 5, not a page", target: "== 5",
                    measured: "\(five.home.entries)", met: five.home.entries == 5)
    }
}

/// `valgrind --tool=callgrind` instructions of one run of `command`, or `nil` without valgrind.
func instructions(_ command: [String]) throws -> Double? {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/valgrind") else { return nil }
    // Swift seeds its hashing at random in each process, which moves a count by ±10k (a Set's
    // probes); a fixed seed makes the same work count the same, so small differences are real.
    let result = try Runner.capture(["/usr/bin/env", "SWIFT_DETERMINISTIC_HASHING=1",
                                     "/usr/bin/valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + command)
    guard result.status == 0 else { throw BenchError("callgrind of \(command) exited \(result.status): \(result.errors.suffix(300))") }
    guard let line = result.errors.split(separator: "\n").first(where: { $0.contains("Collected :") }),
          let value = line.split(separator: ":").last.flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }) else {
        throw BenchError("no instruction count from callgrind")
    }
    return value
}

private func showLaunchBesideBaseline(_ config: Config, _ data: DataSets, _ report: Report) throws {
    var binaries = [("after", config.timeline)]
    if let baseline = config.baseline { binaries.insert(("before", baseline), at: 0) }
    let sample = repositoryRoot() + "/Fixtures/sample-timeline.jsonl"
    var figures: [String: (instructions: Double?, rss: Double, faults: Double)] = [:]
    let runs = config.smoke ? 3 : 15
    // Each binary gets a database of its own schema from the same file, and a fresh snapshot.
    var commands: [[String]] = []
    for (name, binary) in binaries {
        let work = try freshDirectory(data.directory + "/work/launch-\(name)")
        let database = work + "/timeline.sqlite"
        let imported = try Runner.capture([binary, "import", "--db", database, sample])
        guard imported.status == 0 else { throw BenchError("\(name): import failed: \(imported.errors)") }
        _ = try Runner.capture([binary, "show", "--db", database])
        commands.append([binary, "show", "--db", database])
    }
    var rss = Array(repeating: [Double](), count: commands.count)
    var faults = Array(repeating: [Double](), count: commands.count)
    for round in 0 ..< runs + 1 {
        for (index, command) in commands.enumerated() {
            let result = Runner.probed(command, pty: true)
            guard result.status == 0 else { throw BenchError("\(command) exited with \(result.status)") }
            if round > 0 {
                rss[index].append(Double(result.maxRSSKiB))
                faults[index].append(Double(result.minorFaults))
            }
        }
    }
    for (index, (name, _)) in binaries.enumerated() {
        // Three callgrind runs each, the median: the count moves by a few hundred between runs.
        let counts = try (0 ..< 3).compactMap { _ in try instructions(commands[index]) }
        figures[name] = (counts.isEmpty ? nil : Summary(counts).median, Summary(rss[index]).median, Summary(faults[index]).median)
        let figure = figures[name]!
        let label = name == "after" ? "this binary" : "baseline binary"
        report.value("sync.show_instructions_\(name)", "show (fresh snapshot, sample timeline), instructions: \(label)",
                     figure.instructions.map { fmtCount($0) } ?? "no valgrind", raw: figure.instructions ?? -1, unit: "instructions")
        report.value("sync.show_rss_\(name)", "show peak RSS: \(label)", fmtBytes(Int(figure.rss * 1024)), raw: figure.rss, unit: "KiB")
        report.value("sync.show_minor_faults_\(name)", "show minor page faults: \(label)", String(format: "%.0f", figure.faults),
                     raw: figure.faults, unit: "faults")
    }
    guard let before = figures["before"], let after = figures["after"] else {
        report.note("no baseline binary (tools/bench/run --baseline REV): before/after not compared")
        return
    }
    // "Must not grow": within the noise of the measure (callgrind moves by ~0.2% between
    // builds, RSS by a page or two, faults by a few).
    if let a = after.instructions, let b = before.instructions {
        report.goal("show_instructions_not_grown_by_sync", "show's instructions not grown by the sync code", target: "<= +0.5%",
                    measured: String(format: "%+.2f%% (%@ vs %@)", (a / b - 1) * 100, fmtCount(a), fmtCount(b)), met: a <= b * 1.005)
    }
    report.goal("show_rss_not_grown_by_sync", "show's peak RSS not grown by the sync code", target: "<= +1%",
                measured: String(format: "%+.2f%% (%@ vs %@)", (after.rss / before.rss - 1) * 100,
                                 fmtBytes(Int(after.rss * 1024)), fmtBytes(Int(before.rss * 1024))), met: after.rss <= before.rss * 1.01)
    report.goal("show_faults_not_grown_by_sync", "show's minor page faults not grown by the sync code", target: "<= +2%",
                measured: String(format: "%+.1f%% (%.0f vs %.0f)", (after.faults / before.faults - 1) * 100, after.faults, before.faults),
                met: after.faults <= before.faults * 1.02)
}
