import Foundation
import TimelineKit

/// 3. The whole `show` when another process added 10 messages since the snapshot.
func stageShowAfterChanges(_ config: Config, _ data: DataSets, _ report: Report) throws {
    report.begin("3. Whole show after 10 messages were added by another process (stale snapshot, \(config.small) messages)")
    let db = try data.workCopy(messages: config.small, name: "stale")
    let rendered = (db as NSString).deletingLastPathComponent + "/rendered.txt"
    _ = try captureRendered([config.timeline, "show", "--no-reconcile", "--db", db], into: rendered)
    // The other process: a TimelineKit writer that leaves the snapshot alone.
    let writer = try TimelineStore(path: db, configuration: .init(writesSnapshot: false))
    var next = config.small
    let gen = data.generator
    func addTen() {
        let batch = gen.messages(next..<next + 10)
        next += 10
        do { try writer.upsert(messages: batch) } catch { fatalError("cannot add messages: \(error)") }
    }
    let show = [config.timeline, "show", "--db", db]
    let cat = ["/bin/cat", rendered]
    let results = Runner.measure([show, show, cat], runs: config.runs, warmups: config.warmups) { index in
        if index == 0 { addTen() }
    }
    // Check that the run really found the changes and refreshed the snapshot.
    addTen()
    let stale = try writer.snapshotStatus()
    _ = Runner.pty(show)
    let fresh = try writer.snapshotStatus()
    let cat0 = results[2].time.median
    report.time("changes.cat", "cat of a rendered timeline", results[2].time)
    report.time("changes.show_unchanged", "show, nothing changed", results[1].time,
                note: "\(fmtRatio(results[1].time.median / cat0)) of cat")
    report.time("changes.show_10_added", "show, 10 messages added since the snapshot", results[0].time,
                note: "\(fmtRatio(results[0].time.median / cat0)) of cat; repaint + snapshot rewrite; \(fmtBytes(results[0].bytes)) on the pty")
    report.note("before a run the snapshot was \(stale.isFresh ? "FRESH (bug in the bench)" : "stale"); after it, \(fresh.isFresh ? "fresh" : "STILL STALE")")
    report.end()
}
