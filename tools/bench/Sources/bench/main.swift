import Foundation
import TimelineKit

/// `bench [--smoke] --timeline PATH --floor PATH --data DIR --out FILE [--only 1,2,…] [--baseline-timeline PATH]`
/// Runs the stages of issue 5 in order, printing each stage's rows as soon as it is done.
struct Config {
    var smoke = false
    var timeline = ""
    var floor = ""
    var dataDirectory = ""
    var output = "bench-results.json"
    var seed: UInt64 = 42
    var only: Set<Int> = []
    /// The release binary of an earlier commit, for stage 12's before/after (`run --baseline REV`).
    var baseline: String?

    var runs: Int { smoke ? 3 : 25 }
    var warmups: Int { smoke ? 1 : 3 }
    /// The data-set sizes of stage 2 (10k, 100k, 1M; tiny in smoke runs).
    var sizes: [Int] { smoke ? [1_000, 3_000] : [10_000, 100_000, 1_000_000] }
    var small: Int { sizes[0] }
    var large: Int { sizes[sizes.count - 1] }
    /// In-process iterations for the coder benchmarks.
    var iterations: Int { smoke ? 20 : 300 }
    /// Messages ingested in the write benchmarks.
    var ingestCount: Int { smoke ? 3_000 : 100_000 }
    var ingestIntoLargeCount: Int { smoke ? 2_000 : 50_000 }
    /// The larger Mastodon timeline of stage 10: 100,000 statuses make a 130 MB file, the size
    /// of a real collection of pages; a million (1.3 GB) would take the run past its 10 minutes
    /// and past the 256 MiB that `import` reads of a Mastodon file.
    var mastodonLarge: Int { smoke ? 3_000 : 100_000 }
}

/// The stages, numbered as `--only` takes them and as docs/benchmarks.md and tools/bench/README.md name them.
let stageCount = 16

var parsed = Config()
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--smoke": parsed.smoke = true
    case "--timeline": parsed.timeline = arguments.popFirst() ?? ""
    case "--floor": parsed.floor = arguments.popFirst() ?? ""
    case "--data": parsed.dataDirectory = arguments.popFirst() ?? ""
    case "--out": parsed.output = arguments.popFirst() ?? ""
    case "--baseline-timeline": parsed.baseline = arguments.popFirst()
    case "--seed": parsed.seed = UInt64(arguments.popFirst() ?? "") ?? 42
    case "--only":
        let list = (arguments.popFirst() ?? "").split(separator: ",")
        let stages = list.compactMap { Int($0) }.filter { (1...stageCount).contains($0) }
        // A stage that does not exist would run nothing and still print "done".
        guard !list.isEmpty, stages.count == list.count else {
            FileHandle.standardError.write(Data("bench: --only takes stage numbers from 1 to \(stageCount), separated by commas\n".utf8))
            exit(64)
        }
        parsed.only = Set(stages)
    default:
        FileHandle.standardError.write(Data("bench: unknown argument \(argument)\n".utf8))
        exit(64)
    }
}
let config = parsed
guard FileManager.default.isExecutableFile(atPath: config.timeline), !config.dataDirectory.isEmpty else {
    FileHandle.standardError.write(Data("usage: bench [--smoke] --timeline PATH --floor PATH --data DIR --out FILE [--only 1,2]\n".utf8))
    exit(64)
}
try FileManager.default.createDirectory(atPath: config.dataDirectory, withIntermediateDirectories: true)
// A fresh home each run: what an earlier bench left there (an account logged in to a loopback
// server long gone) would make every `mark-read` try to reach that server.
let home = config.dataDirectory + "/home"
try? FileManager.default.removeItem(atPath: home)
try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
Runner.env = Runner.environment(home: home)
Runner.probeReport = home + "/rss.txt"

let report = Report(outputPath: config.output, smoke: config.smoke, meta: [
    "smoke": config.smoke, "seed": config.seed, "runs": config.runs, "warmups": config.warmups,
    "sizes": config.sizes, "pty": "\(Runner.columns)x\(Runner.rows)", "timeline": config.timeline,
    "cores": ProcessInfo.processInfo.activeProcessorCount,
    "kernel": ProcessInfo.processInfo.operatingSystemVersionString,
])
let data = DataSets(directory: config.dataDirectory, seed: config.seed)
let started = now()

let only = config.only
func shouldRun(_ stage: Int) -> Bool { only.isEmpty || only.contains(stage) }

do {
    if shouldRun(1) { try stageFirstPaint(config, data, report) }
    if shouldRun(2) { try stageSnapshotAgainstDatabase(config, data, report) }
    if shouldRun(3) { try stageShowAfterChanges(config, data, report) }
    if shouldRun(4) { try stageCoders(config, data, report) }
    if shouldRun(5) { try stageWrites(config, data, report) }
    if shouldRun(6) { try stageMemory(config, data, report) }
    if shouldRun(7) { try stageGRDB(config, data, report) }
    if shouldRun(8) { try stageFollow(config, data, report) }
    if shouldRun(9) { try stageSearch(config, data, report) }
    if shouldRun(10) { try stageDataInAndOut(config, data, report) }
    if shouldRun(11) { try stageEverydayCommands(config, data, report) }
    if shouldRun(12) { try stageSync(config, data, report) }
    if shouldRun(13) { try stageBrowsePaint(config, data, report) }
    if shouldRun(14) { try stageShellStart(config, data, report) }
    if shouldRun(15) { try stageMute(config, data, report) }
    if shouldRun(16) { try stageMutedWords(config, data, report) }
} catch {
    report.save()
    FileHandle.standardError.write(Data("bench: failed: \(error)\n".utf8))
    exit(1)
}
report.printGoals()
report.save()
print(String(format: "\nbench: done in %.1f s; results in %@", Double(now() - started) / 1e9, config.output))
if !report.failures.isEmpty {
    print("bench: \(report.failures.count) cross-check\(report.failures.count == 1 ? "" : "s") FAILED")
    exit(1)
}
