import CBenchSupport
import Foundation

/// 13. `timeline browse`'s first paint against `show`'s (issue 27: "opens as fast as show"), on the
/// same snapshot and the same 80x40 pty, measured alike: from `posix_spawn` to the moment the last
/// bytes of the paint arrive on the terminal (`bench_pty_until`). `browse` stays, so its run ends
/// with a `q` typed on the terminal once its paint has arrived; `show` exits by itself. The pty is
/// each child's controlling terminal, as in a terminal emulator, so that `browse` takes it (raw
/// keys, the alternate screen) rather than printing what `show` prints.
func stageBrowsePaint(_ config: Config, _ data: DataSets, _ report: Report) throws {
    report.begin("13. browse's first paint against show's, \(config.small) messages, fresh snapshot, \(Runner.columns)x\(Runner.rows) pty (median of \(config.runs) runs after \(config.warmups) warm-ups)")
    let db = try data.workCopy(messages: config.small, name: "browse")
    let show = [config.timeline, "show", "--db", db]
    let browse = [config.timeline, "browse", "--db", db]
    // show's paint ends with its last entry: the last bytes it writes (before any note). Taken
    // from a run through the same terminal, so that they are the bytes as the terminal sends them.
    let rendered = (db as NSString).deletingLastPathComponent + "/show-paint"
    _ = try captureRendered([config.timeline, "show", "--no-reconcile", "--db", db], into: rendered)
    let paint = try Data(contentsOf: URL(fileURLWithPath: rendered + ".raw"))
    let showMarker = Array(paint.suffix(48))
    // browse's paint is one write that ends with its status line.
    let browseMarker = Array("timeline · 1/".utf8)
    var times: [[Double]] = [[], []]
    var bytes = [0, 0]
    for round in 0..<(config.warmups + config.runs) {
        for (index, (command, marker)) in [(show, showMarker), (browse, browseMarker)].enumerated() {
            let result = untilMarker(command, marker: marker, quit: index == 1 ? Array("q".utf8) : [])
            guard result.status == 0 else {
                throw BenchError("\(command.joined(separator: " ")) did not paint (status \(result.status))")
            }
            if round >= config.warmups {
                times[index].append(result.wallMs)
                bytes[index] = result.bytes
            }
        }
    }
    let showTime = Summary(times[0]), browseTime = Summary(times[1])
    report.time("browse.show_first_paint", "show, spawn to its paint on the terminal", showTime, note: "\(fmtBytes(bytes[0])) painted")
    report.time("browse.first_paint", "browse, spawn to its first paint on the terminal", browseTime,
                note: "\(fmtBytes(bytes[1])) painted (alternate screen, raw keys, status line)")
    let ratio = browseTime.median / showTime.median
    report.ratio("browse.ratio_first_paint_over_show", "ratio browse first paint / show first paint", ratio)
    report.goal("browse_opens_as_fast_as_show", "browse's first paint as fast as show's (within 25%)", target: "<= 1.25x",
                measured: "\(fmtRatio(ratio)) (\(fmtMs(browseTime.median)) vs \(fmtMs(showTime.median)))", met: ratio <= 1.25)
    report.end()
}

/// One run through `bench_pty_until`: the time to `marker`, then `quit` typed.
func untilMarker(_ arguments: [String], marker: [UInt8], quit: [UInt8] = []) -> RunResult {
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = Runner.env.map { strdup($0) } + [nil]
    defer {
        argv.forEach { free($0) }
        envp.forEach { free($0) }
    }
    var result = bench_run_result()
    let rc = marker.withUnsafeBufferPointer { markerBytes in
        quit.withUnsafeBufferPointer { quitBytes in
            argv.withUnsafeBufferPointer { a in
                envp.withUnsafeBufferPointer { e in
                    markerBytes.withMemoryRebound(to: CChar.self) { m in
                        quitBytes.withMemoryRebound(to: CChar.self) { q in
                            bench_pty_until(a.baseAddress!, e.baseAddress!, Runner.columns, Runner.rows,
                                            m.baseAddress, m.count, q.baseAddress, q.count, &result)
                        }
                    }
                }
            }
        }
    }
    if rc != 0 { fatalError("could not run \(arguments.joined(separator: " ")): \(String(cString: strerror(errno)))") }
    return RunResult(wallMs: Double(result.wall_ns) / 1e6, maxRSSKiB: result.maxrss_kib, status: result.status, bytes: Int(result.bytes))
}
