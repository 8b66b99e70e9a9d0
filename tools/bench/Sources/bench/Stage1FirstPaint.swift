import Foundation
import TimelineKit

/// The bytes a program wrote to the terminal, with the terminal's \n -> \r\n output processing
/// undone, so that `cat` of the file writes exactly the same bytes to the same kind of terminal.
func untranslate(_ captured: Data) -> Data {
    var out = Data()
    out.reserveCapacity(captured.count)
    var previousCR = false
    for byte in captured {
        if previousCR {
            if byte != 0x0A { out.append(0x0D) }
            previousCR = false
        }
        if byte == 0x0D { previousCR = true; continue }
        out.append(byte)
    }
    if previousCR { out.append(0x0D) }
    return out
}

/// Captures what `command` paints on the pseudo-terminal into `file` (ready for `cat`).
func captureRendered(_ command: [String], into file: String) throws -> Int {
    let raw = file + ".raw"
    let result = Runner.pty(command, capture: raw)
    guard result.status == 0 else { throw BenchError("\(command) exited with \(result.status)") }
    let rendered = untranslate(try Data(contentsOf: URL(fileURLWithPath: raw)))
    try rendered.write(to: URL(fileURLWithPath: file))
    return rendered.count
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// 1. First paint and whole `show` against `cat` of the same bytes (issue 38), at the smallest and
/// the largest data set, side by side in one run (interleaved: cat, paint only, nothing changed,
/// 10 new, then the first paints), on an 80x40 pty:
/// - `show --no-reconcile`: the paint alone, as a whole process;
/// - `show` when nothing changed: the snapshot's stamp holds, no SQLite connection (checked before
///   the runs: a `show` creates no `-shm`);
/// - `show` after 10 new messages: the sqlite3 shell inserts 10 before each run (untimed), on a
///   database of its own, so that the reconcile finds 10 new every time;
/// - first paint: from `posix_spawn` to the last bytes of `show`'s paint on the terminal
///   (`bench_pty_until`), against `cat`'s whole run (its paint is all it does).
func stageFirstPaint(_ config: Config, _ data: DataSets, _ report: Report) throws {
    for size in Array(Set([config.small, config.large])).sorted() {
        try firstPaint(config, data, report, messages: size)
    }
}

private func firstPaint(_ config: Config, _ data: DataSets, _ report: Report, messages: Int) throws {
    report.begin("1. First paint and whole show on an \(Runner.columns)x\(Runner.rows) pty, \(messages) messages (median of \(config.runs) runs after \(config.warmups) warm-ups)")
    let db = try data.workCopy(messages: messages, name: "paint-\(messages)")
    let changing = try data.workCopy(messages: messages, name: "paint-new-\(messages)")
    let folder = (db as NSString).deletingLastPathComponent
    let rendered = folder + "/rendered.txt"
    let paintCommand = [config.timeline, "show", "--no-reconcile", "--db", db]
    let showCommand = [config.timeline, "show", "--db", db]
    let newCommand = [config.timeline, "show", "--db", changing]
    let bytes = try captureRendered(paintCommand, into: rendered)
    let marker = Array(try Data(contentsOf: URL(fileURLWithPath: rendered + ".raw")).suffix(48))
    let cat = ["/bin/cat", rendered]
    try settleStamp(showCommand, database: db)
    // `--baseline REV`: that binary's `show` of the same unchanged data, on a copy of its own (as
    // root, every open moves the -wal's status-change time, which would void this one's stamp).
    // A baseline older than the data set's schema refuses to read it (exit 78, newer schema):
    // it is then given the same timeline through this binary's `export` and its own `import`
    // (export and import copy a timeline exactly, read flags included), and shows that. Only when
    // that fails too is there no side by side, and the run says so instead of stopping.
    let baselineCommand = try config.baseline.flatMap { baseline -> [String]? in
        var command = [baseline, "show", "--db", try data.workCopy(messages: messages, name: "paint-baseline-\(messages)")]
        var tried = try Runner.capture(command)
        if tried.status == 78 {
            let database = try data.importedCopy(messages: messages, name: "paint-baseline-imported-\(URL(fileURLWithPath: baseline).deletingLastPathComponent().lastPathComponent)-\(messages)",
                                                 exporter: config.timeline, importer: baseline)
            command = [baseline, "show", "--db", database]
            tried = try Runner.capture(command)
        }
        guard tried.status == 0 else {
            FileHandle.standardError.write(Data("bench: the baseline cannot show this data set (status \(tried.status)): \(tried.errors.prefix(160))\n".utf8))
            return nil
        }
        return command
    }
    var inserted = 0
    let commands = [cat, paintCommand, showCommand, newCommand, [config.floor]] + (baselineCommand.map { [$0] } ?? [])
    let results = Runner.measure(commands, runs: config.runs, warmups: config.warmups) { index in
        guard index == 3 else { return }
        inserted += 10
        insertNewMessages(10, into: changing, numbered: inserted)
    }
    // The shortcut must still hold after the runs: otherwise "nothing changed" measured an open.
    let heldAfter = try opensNothing(showCommand, database: db)
    // With a baseline, its first paint too, in the same rounds: before and after side by side.
    let paintCommands = [cat, showCommand] + (baselineCommand.map { [$0] } ?? [])
    var paintTimes: [[Double]] = paintCommands.map { _ in [] }
    for round in 0..<(config.warmups + config.runs) {
        for (index, command) in paintCommands.enumerated() {
            let result = untilMarker(command, marker: marker)
            guard result.status == 0 else { throw BenchError("\(command.joined(separator: " ")) did not paint (status \(result.status))") }
            if round >= config.warmups { paintTimes[index].append(result.wallMs) }
        }
    }
    let catTime = results[0].time, paint = results[1].time, unchanged = results[2].time, new = results[3].time
    let catPaint = Summary(paintTimes[0]), showPaint = Summary(paintTimes[1])
    let key = "paint.\(messages)"
    report.time("\(key).floor", "bare static Swift process (prints 1 line)", results[4].time,
                note: "\(fmtRatio(results[4].time.median / catTime.median)) of cat")
    report.time("\(key).cat", "cat of the same rendered bytes", catTime, note: "\(fmtBytes(bytes)) rendered")
    report.time("\(key).no_reconcile", "show --no-reconcile (paint only)", paint, note: "\(fmtRatio(paint.median / catTime.median)) of cat")
    report.time("\(key).show", "show, nothing changed (no connection)", unchanged,
                note: "\(fmtRatio(unchanged.median / catTime.median)) of cat" + (heldAfter ? "" : "; THE STAMP DID NOT HOLD"))
    report.time("\(key).show_10_new", "show after 10 new messages", new, note: "\(fmtRatio(new.median / catTime.median)) of cat")
    if baselineCommand != nil {
        let before = results[5].time
        report.time("\(key).baseline_show", "the baseline's show, nothing changed", before,
                    note: "\(fmtRatio(before.median / catTime.median)) of cat")
    }
    report.time("\(key).cat_first_paint", "cat, spawn to its bytes on the terminal", catPaint)
    report.time("\(key).show_first_paint", "show, spawn to its paint on the terminal", showPaint,
                note: "\(fmtRatio(showPaint.median / catPaint.median)) of cat")
    if baselineCommand != nil {
        let before = Summary(paintTimes[2])
        report.time("\(key).baseline_first_paint", "the baseline's show, spawn to its paint on the terminal", before,
                    note: "\(fmtRatio(before.median / catPaint.median)) of cat")
    }
    let paintRatio = showPaint.median / catPaint.median
    let showRatio = unchanged.median / catTime.median
    let newRatio = new.median / catTime.median
    report.ratio("\(key).ratio_first_paint_over_cat", "ratio show first paint / cat", paintRatio)
    report.ratio("\(key).ratio_show_over_cat", "ratio show (nothing changed) / cat", showRatio)
    report.ratio("\(key).ratio_show_10_new_over_cat", "ratio show (10 new) / cat", newRatio)
    report.goal("\(key).first_paint_within_1.25x_cat", "first paint within 1.25x of cat (\(messages))", target: "<= 1.25x",
                measured: "\(fmtRatio(paintRatio)) (\(fmtMs(showPaint.median)) vs \(fmtMs(catPaint.median)))", met: paintRatio <= 1.25)
    report.goal("\(key).show_within_1.5x_cat", "whole show, nothing changed, within 1.5x of cat (\(messages))", target: "<= 1.50x",
                measured: "\(fmtRatio(showRatio)) (\(fmtMs(unchanged.median)) vs \(fmtMs(catTime.median)))", met: showRatio <= 1.5 && heldAfter)
    report.end()
}

/// Runs `show` until one opens nothing (the one before it stamped the database once its files'
/// times had settled), so that "nothing changed" is measured as a terminal start finds it.
private func settleStamp(_ show: [String], database: String) throws {
    for _ in 0..<200 {
        if try opensNothing(show, database: database) { return }
        usleep(20_000)
    }
    throw BenchError("no show of \(database) ran without opening it: the stamp never held")
}

/// Whether a run of `show` opens no SQLite connection: it creates no `-shm` where there was none.
private func opensNothing(_ show: [String], database: String) throws -> Bool {
    _ = Runner.pty(show)
    try? FileManager.default.removeItem(atPath: database + "-shm")
    _ = Runner.pty(show)
    return !FileManager.default.fileExists(atPath: database + "-shm")
}

/// Inserts `count` messages newer than any, by an existing author, with the sqlite3 shell (as a
/// sync or another program would; the triggers move the generation).
private func insertNewMessages(_ count: Int, into database: String, numbered first: Int) {
    let rows = (first ..< first + count).map { n in
        "('bench-new-\(n)', (SELECT id FROM users LIMIT 1), 'new message \(n)', 4102444800000 + \(n))"
    }.joined(separator: ", ")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [database, "INSERT INTO messages (id, author_id, text, created_at) VALUES \(rows)"]
    try? process.run()
    process.waitUntilExit()
}
