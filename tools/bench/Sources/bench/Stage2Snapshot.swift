import Foundation
import TimelineKit

/// 2. The snapshot path against `--from-db`, warm and cold, as the database grows.
func stageSnapshotAgainstDatabase(_ config: Config, _ data: DataSets, _ report: Report) throws {
    var paintWarm: [Int: Double] = [:], paintCold: [Int: Double] = [:]
    var fromDBCold: [Int: Double] = [:]
    for size in config.sizes { _ = try data.ensure(messages: size) }
    report.begin("2. Snapshot path against --from-db, warm and cold (pty \(Runner.columns)x\(Runner.rows), median of \(config.runs))")
    for size in config.sizes {
        let db = try data.ensure(messages: size)
        let paint = [config.timeline, "show", "--no-reconcile", "--db", db]
        let show = [config.timeline, "show", "--db", db]
        let fromDB = [config.timeline, "show", "--from-db", "--db", db]
        let label = fmtCount(Double(size))
        let dbBytes = (try? FileManager.default.attributesOfItem(atPath: db)[.size] as? Int) ?? 0

        let warm = Runner.measure([paint, show, fromDB], runs: config.runs, warmups: config.warmups)
        report.time("snapshot.\(size).warm.no_reconcile", "\(label) warm: show --no-reconcile", warm[0].time,
                    note: "database \(fmtBytes(dbBytes))")
        report.time("snapshot.\(size).warm.show", "\(label) warm: show (paint + reconcile)", warm[1].time)
        report.time("snapshot.\(size).warm.from_db", "\(label) warm: show --from-db", warm[2].time,
                    note: "\(fmtRatio(warm[2].time.median / warm[0].time.median)) of the snapshot path")
        paintWarm[size] = warm[0].time.median

        let files = DataSets.files(of: db)
        var residency: [Double] = []
        let cold = Runner.measure([paint, show, fromDB], runs: config.runs, warmups: 1) { _ in
            Runner.evict(files)
            if residency.count < 3 { residency.append(Runner.residentFraction(db)) }
        }
        let resident = residency.max() ?? .nan
        report.time("snapshot.\(size).cold.no_reconcile", "\(label) cold: show --no-reconcile", cold[0].time,
                    note: String(format: "db pages cached after eviction: %.0f%%", resident * 100))
        report.time("snapshot.\(size).cold.show", "\(label) cold: show (paint + reconcile)", cold[1].time)
        report.time("snapshot.\(size).cold.from_db", "\(label) cold: show --from-db", cold[2].time,
                    note: "\(fmtRatio(cold[2].time.median / cold[0].time.median)) of the snapshot path")
        report.ratio("snapshot.\(size).ratio_cold", "\(label) cold: --from-db / snapshot path", cold[2].time.median / cold[0].time.median)
        paintCold[size] = cold[0].time.median
        fromDBCold[size] = cold[2].time.median
    }
    let small = config.small, large = config.large
    let coldRatio = fromDBCold[large]! / paintCold[large]!
    report.goal("cold_snapshot_5x_faster_than_db", "at \(fmtCount(Double(large))), cold, snapshot path >= 5x faster than --from-db",
                target: ">= 5.00x", measured: "\(fmtRatio(coldRatio)) (\(fmtMs(paintCold[large]!)) vs \(fmtMs(fromDBCold[large]!)))",
                met: coldRatio >= 5)
    let flatWarm = paintWarm[large]! / paintWarm[small]! - 1
    let flatCold = paintCold[large]! / paintCold[small]! - 1
    report.goal("snapshot_flat_warm", "snapshot path flat from \(fmtCount(Double(small))) to \(fmtCount(Double(large))), warm",
                target: "within 10%", measured: String(format: "%+.1f%% (%@ -> %@)", flatWarm * 100, fmtMs(paintWarm[small]!), fmtMs(paintWarm[large]!)),
                met: abs(flatWarm) <= 0.10)
    report.goal("snapshot_flat_cold", "snapshot path flat from \(fmtCount(Double(small))) to \(fmtCount(Double(large))), cold",
                target: "within 10%", measured: String(format: "%+.1f%% (%@ -> %@)", flatCold * 100, fmtMs(paintCold[small]!), fmtMs(paintCold[large]!)),
                met: abs(flatCold) <= 0.10)
    report.end()
}
