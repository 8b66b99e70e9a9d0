import Foundation
import TimelineKit

/// The largest import of the goal on memory: peak RSS bounded whatever the file's size.
private let importRSSLimitKiB = 64_000_000.0 / 1024

/// 10. `import` (JSON Lines, and a Mastodon timeline) and `export` as a user runs them: whole
/// processes of the release binary, each beside the sqlite3 shell doing the same work on the same
/// data in the same run, alternating, with peak RSS.
func stageDataInAndOut(_ config: Config, _ data: DataSets, _ report: Report) throws {
    try ShellPeer.checkInstalled()
    report.begin("10. import and export, whole processes, against the sqlite3 shell doing the same work (median; peak RSS of each process)")
    let work = try freshDirectory(data.directory + "/work/data-in-and-out")
    var importGoal = RatioGoal(key: "import_within_1_5x_sqlite3", name: "import (JSON Lines) within 1.5x of the sqlite3 shell", kind: .write)
    var exportGoal = RatioGoal(key: "export_within_1_2x_sqlite3", name: "export within 1.2x of the sqlite3 shell", kind: .read)
    var importRSS: [(String, Double)] = []
    var largeRate = 0.0
    var jsonLinesSmallMedian = 0.0

    // Issue 28: "import no slower than the sqlite3 shell doing the same work, and with no more
    // system time", at 100k and 1M (the two smoke sizes in a smoke run).
    var parity: [(label: String, ratio: Double, system: Double, shellSystem: Double)] = []
    let paritySizes = Array(config.sizes.suffix(2))

    for size in config.sizes {
        let label = fmtCount(Double(size))
        let isLarge = size == config.large && !config.smoke
        let isMiddle = size != config.small && size != config.large
        let source = try data.ensure(messages: size)
        let jsonLines = try data.jsonLinesFile(messages: size, timeline: config.timeline)
        let counts = try DatabaseProbe.counts(of: source)
        // Generating or exporting a data set leaves hundreds of MB for the kernel to write back,
        // which every fsync below would wait for.
        sync()

        // Import: each run into a database TimelineKit just created empty.
        let ours = work + "/import-timeline.sqlite", theirs = work + "/import-sqlite3.sqlite"
        let shellImport = try ShellPeer.prepare(ShellPeer.importJSONLines(jsonLines), at: work + "/import.sql", database: theirs)
        let withCPU = try Runner.sideBySideWithCPU(
            [[config.timeline, "import", "--db", ours, jsonLines], shellImport],
            runs: isLarge ? 1 : (config.smoke ? 2 : (isMiddle ? 3 : 5)), warmups: isLarge || isMiddle ? 0 : 1,
            before: { index, _ in
                try emptyDatabase(index == 0 ? ours : theirs)
                sync()
            })
        let imported: [(time: Summary, rss: Summary)] = withCPU.map { (time: $0.time, rss: $0.rss) }
        let importComparison = ShellComparison(command: "import FILE.jsonl", kind: .write, timeline: imported[0], shell: imported[1])
        let rate = Double(counts.messages) / (imported[0].time.median / 1000)
        let system = withCPU[0].system.median, shellSystem = withCPU[1].system.median
        importComparison.report(report, key: "commands.\(size).import_jsonl", size: size,
                                note: "\(fmtCount(rate)) messages/s; file \(fmtBytes(fileSize(jsonLines))); system CPU "
                                    + "\(fmtMs(system)) vs the shell's \(fmtMs(shellSystem)), user \(fmtMs(withCPU[0].user.median)) vs \(fmtMs(withCPU[1].user.median))")
        report.time("commands.\(size).import_jsonl.system", "\(label): import, system CPU of timeline", withCPU[0].system)
        report.time("commands.\(size).import_jsonl.shell_system", "\(label): import, system CPU of the sqlite3 shell", withCPU[1].system)
        if paritySizes.contains(size) {
            parity.append((label, importComparison.ratio ?? .nan, system, shellSystem))
        }
        importGoal.add(size: label, "import", importComparison.ratio)
        importRSS.append(("JSON Lines \(label)", imported[0].rss.max))
        if size == config.large { largeRate = rate }
        if size == config.small { jsonLinesSmallMedian = imported[0].time.median }
        try checkSameContents(ours, theirs, jsonLines: size == config.small ? jsonLines : nil, work: work, config, report, label: label)

        // Export: both read the data set itself (at the small and large sizes).
        if isMiddle { continue }
        let exported = work + "/export-timeline.jsonl", shellExported = work + "/export-sqlite3.json"
        let shellExport = try ShellPeer.prepare(ShellPeer.export(to: shellExported), at: work + "/export.sql", database: source)
        let exports = try Runner.sideBySide(
            [[config.timeline, "export", "--db", source, exported], shellExport],
            runs: isLarge ? 3 : (config.smoke ? 2 : 9), warmups: 1)
        let exportComparison = ShellComparison(command: "export FILE", kind: .read, timeline: exports[0], shell: exports[1])
        exportComparison.report(report, key: "commands.\(size).export", size: size, note: "the shell in its -json mode")
        exportGoal.add(size: label, "export", exportComparison.ratio)
        if try Data(contentsOf: URL(fileURLWithPath: exported)) != Data(contentsOf: URL(fileURLWithPath: jsonLines)) {
            report.fail("\(label): timeline export wrote other bytes than the same export before")
        }
        let shellRows = try String(contentsOfFile: shellExported, encoding: .utf8).split(separator: "\n").count
        if shellRows != counts.users + counts.messages {
            report.fail("\(label): the sqlite3 shell's export holds \(shellRows) rows, not \(counts.users + counts.messages)")
        }
    }

    // A Mastodon timeline: no shell peer (the shell cannot turn HTML into text); its figure
    // beside the JSON Lines import of the same messages says what the format costs.
    for size in [config.small, config.mastodonLarge] {
        let label = fmtCount(Double(size))
        let file = try data.mastodonFile(messages: size)
        let database = work + "/import-mastodon.sqlite"
        sync()
        let isLarge = size == config.mastodonLarge && !config.smoke
        let runs = try Runner.sideBySide([[config.timeline, "import", "--db", database, file]],
                                         runs: isLarge ? 1 : (config.smoke ? 2 : 3), warmups: isLarge ? 0 : 1,
                                         before: { _, _ in
                                             try emptyDatabase(database)
                                             sync()
                                         })
        let stored = try DatabaseProbe.counts(of: database)
        if stored.messages != size {
            report.fail("\(label): the Mastodon import stored \(stored.messages) messages, not \(size)")
        }
        var note = "\(fmtCount(Double(size) / (runs[0].time.median / 1000))) messages/s; file \(fmtBytes(fileSize(file)))"
        if size == config.small {
            note += "; \(fmtRatio(runs[0].time.median / jsonLinesSmallMedian)) of the JSON Lines import of the same messages"
        }
        ShellComparison(command: "import FILE.json (Mastodon)", kind: .write, timeline: runs[0], shell: nil)
            .report(report, key: "commands.\(size).import_mastodon", size: size, note: note + "; no shell peer")
        importRSS.append(("Mastodon \(label)", runs[0].rss.max))
    }

    importGoal.report(report)
    exportGoal.report(report)
    report.goal("import_no_slower_than_sqlite3", "import no slower than the sqlite3 shell doing the same work, and with no more system time",
                target: "ratio <= 1.00, system CPU <= the shell's, at \(parity.map(\.label).joined(separator: " and "))",
                measured: parity.map { "\($0.label): \(fmtRatio($0.ratio)), system \(fmtMs($0.system)) vs \(fmtMs($0.shellSystem))" }
                    .joined(separator: "; "),
                met: !parity.isEmpty && parity.allSatisfy { $0.ratio <= 1.0 && $0.system <= $0.shellSystem })
    report.goal("import_1m_50k_per_second", "import of \(fmtCount(Double(config.large))) JSON Lines messages, whole process, search index current",
                target: ">= 50.0 k messages/s", measured: "\(fmtCount(largeRate))/s", met: largeRate >= 50_000)
    let worstRSS = importRSS.map(\.1).max() ?? 0
    report.goal("import_rss_64mb", "import peak RSS bounded whatever the file's size", target: "<= 64 MB (\(fmtKiB(importRSSLimitKiB)))",
                measured: importRSS.map { "\(fmtKiB($0.1)) \($0.0)" }.joined(separator: ", "), met: worstRSS <= importRSSLimitKiB)
    report.note("sync, from the loopback Mastodon server: stage 12")
    report.end()
}

/// The two imported databases hold the same messages, counts and search index; at the small
/// size, `timeline export` of the shell's database gives back the very file imported.
private func checkSameContents(_ ours: String, _ theirs: String, jsonLines: String?, work: String,
                               _ config: Config, _ report: Report, label: String) throws {
    let expected = try DatabaseProbe.fingerprint(of: ours)
    let shell = try DatabaseProbe.fingerprint(of: theirs)
    if shell != expected {
        report.fail("\(label): the sqlite3 shell's import does not hold what timeline's holds (\(shell) vs \(expected))")
    }
    guard let jsonLines else { return }
    let roundTrip = work + "/round-trip.jsonl"
    let result = Runner.plain([config.timeline, "export", "--db", theirs, roundTrip])
    if result.status != 0 {
        report.fail("\(label): timeline export of the shell's import exited with \(result.status)")
    } else if try Data(contentsOf: URL(fileURLWithPath: roundTrip)) != Data(contentsOf: URL(fileURLWithPath: jsonLines)) {
        report.fail("\(label): timeline export of the sqlite3 shell's import differs from the file imported: the shell's SQL does other work")
    }
}
