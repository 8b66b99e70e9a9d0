import Foundation
import TimelineKit

/// 6. Peak RSS of `show` against the bare static Swift process.
func stageMemory(_ config: Config, _ data: DataSets, _ report: Report) throws {
    report.begin("6. Peak RSS (wait4 ru_maxrss) on the pty, median of \(config.runs) runs")
    let small = try data.ensure(messages: config.small)
    let large = try data.ensure(messages: config.large)
    let commands: [(String, String, [String])] = [
        ("floor", "bare static Swift process (prints 1 line)", [config.floor]),
        ("cat", "cat of a one-line file", ["/bin/cat", config.dataDirectory + "/home/one-line.txt"]),
        ("show_small", "show, \(fmtCount(Double(config.small))), fresh snapshot", [config.timeline, "show", "--db", small]),
        ("show_large", "show, \(fmtCount(Double(config.large))), fresh snapshot", [config.timeline, "show", "--db", large]),
        ("paint_large", "show --no-reconcile, \(fmtCount(Double(config.large)))", [config.timeline, "show", "--no-reconcile", "--db", large]),
        ("from_db_large", "show --from-db, \(fmtCount(Double(config.large)))", [config.timeline, "show", "--from-db", "--db", large]),
    ]
    try Data("hello\n".utf8).write(to: URL(fileURLWithPath: config.dataDirectory + "/home/one-line.txt"))
    // Through rss-probe (fork + exec from a tiny process), beside this binary.
    var samples = Array(repeating: [Double](), count: commands.count)
    for round in 0..<(config.runs + config.warmups) {
        for (index, command) in commands.enumerated() {
            let result = Runner.probed(command.2, pty: true)
            guard result.status == 0, result.maxRSSKiB >= 0 else { throw BenchError("\(command.2) exited with \(result.status)") }
            if round >= config.warmups { samples[index].append(Double(result.maxRSSKiB)) }
        }
    }
    let floor = Summary(samples[0]).median
    var peak: [String: Double] = [:]
    for (index, command) in commands.enumerated() {
        let rss = Summary(samples[index])
        peak[command.0] = rss.median
        report.value("memory.\(command.0)", command.1, fmtBytes(Int(rss.median * 1024)), raw: rss.median, unit: "KiB",
                     note: index == 0 ? "" : String(format: "%+.1f MiB over the floor (max %@)", (rss.median - floor) / 1024, fmtBytes(Int(rss.max * 1024))))
    }
    let worst = max(peak["show_small"]!, peak["show_large"]!)
    let over = (worst - floor) / 1024
    report.goal("show_rss_within_4mib", "show peak RSS within 4 MiB of the bare Swift process", target: "<= 4.0 MiB over",
                measured: String(format: "%+.1f MiB (%@ vs %@)", over, fmtBytes(Int(worst * 1024)), fmtBytes(Int(floor * 1024))),
                met: over <= 4)
    report.end()
}
