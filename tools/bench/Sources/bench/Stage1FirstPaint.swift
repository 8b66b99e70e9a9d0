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

/// 1. First paint: `show --no-reconcile` and `show` (fresh snapshot) against `cat` of the same bytes.
func stageFirstPaint(_ config: Config, _ data: DataSets, _ report: Report) throws {
    report.begin("1. First paint on an \(Runner.columns)x\(Runner.rows) pty, \(config.small) messages, fresh snapshot (median of \(config.runs) runs after \(config.warmups) warm-ups)")
    let db = try data.workCopy(messages: config.small, name: "paint")
    let rendered = (db as NSString).deletingLastPathComponent + "/rendered.txt"
    let paintCommand = [config.timeline, "show", "--no-reconcile", "--db", db]
    let showCommand = [config.timeline, "show", "--db", db]
    let bytes = try captureRendered(paintCommand, into: rendered)
    let showBytes = try captureRendered(showCommand, into: rendered + ".show")
    let cat = ["/bin/cat", rendered]
    let floor = [config.floor]
    let results = Runner.measure([cat, paintCommand, showCommand, floor], runs: config.runs, warmups: config.warmups)
    let catTime = results[0].time, paint = results[1].time, show = results[2].time
    report.time("paint.floor", "bare static Swift process (prints 1 line)", results[3].time,
                note: "\(fmtRatio(results[3].time.median / catTime.median)) of cat")
    report.time("paint.cat", "cat of the same rendered bytes", catTime, note: "\(fmtBytes(bytes)) rendered")
    report.time("paint.no_reconcile", "show --no-reconcile (paint only)", paint,
                note: "\(fmtRatio(paint.median / catTime.median)) of cat")
    report.time("paint.show", "show (paint + reconcile, nothing changed)", show,
                note: "\(fmtRatio(show.median / catTime.median)) of cat; \(fmtBytes(showBytes)) written")
    let paintRatio = paint.median / catTime.median
    let showRatio = show.median / catTime.median
    report.ratio("paint.ratio_no_reconcile_over_cat", "ratio show --no-reconcile / cat", paintRatio)
    report.ratio("paint.ratio_show_over_cat", "ratio show / cat", showRatio)
    report.goal("first_paint_within_2x_cat", "first paint within 2x of cat", target: "<= 2.00x",
                measured: "\(fmtRatio(paintRatio)) (\(fmtMs(paint.median)) vs \(fmtMs(catTime.median)))", met: paintRatio <= 2)
    report.goal("show_within_3x_cat", "show when nothing changed within 3x of cat", target: "<= 3.00x",
                measured: "\(fmtRatio(showRatio)) (\(fmtMs(show.median)) vs \(fmtMs(catTime.median)))", met: showRatio <= 3)
    report.end()
}
