import Foundation
import TimelineKit

/// 2. The snapshot path against `--from-db`, warm and cold, as the database grows.
func stageSnapshotAgainstDatabase(_ config: Config, _ data: DataSets, _ report: Report) throws {
    var paintCold: [Int: Double] = [:]
    var fromDBCold: [Int: Double] = [:]
    for size in config.sizes { _ = try data.ensure(messages: size) }
    // A data set just generated leaves hundreds of MB for the kernel to write back; timings taken
    // meanwhile were a third slower, on whichever size ran then.
    sync()
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

    // Flatness compares two sizes, so they are measured side by side, alternating run by run:
    // whatever else the machine does then falls on both alike.
    let smallDB = try data.ensure(messages: small), largeDB = try data.ensure(messages: large)
    let pair = [[config.timeline, "show", "--no-reconcile", "--db", smallDB],
                [config.timeline, "show", "--no-reconcile", "--db", largeDB]]
    let (ls, ll) = (fmtCount(Double(small)), fmtCount(Double(large)))
    let warmPair = Runner.measure(pair, runs: config.runs, warmups: config.warmups)
    let pairFiles = [DataSets.files(of: smallDB), DataSets.files(of: largeDB)]
    let coldPair = Runner.measure(pair, runs: config.runs, warmups: 1) { index in Runner.evict(pairFiles[index]) }
    report.time("snapshot.flat.warm.\(small)", "side by side, warm: show --no-reconcile at \(ls)", warmPair[0].time)
    report.time("snapshot.flat.warm.\(large)", "side by side, warm: show --no-reconcile at \(ll)", warmPair[1].time)
    report.time("snapshot.flat.cold.\(small)", "side by side, cold: show --no-reconcile at \(ls)", coldPair[0].time)
    report.time("snapshot.flat.cold.\(large)", "side by side, cold: show --no-reconcile at \(ll)", coldPair[1].time)
    let (warmSmall, warmLarge) = (warmPair[0].time.median, warmPair[1].time.median)
    let (coldSmall, coldLarge) = (coldPair[0].time.median, coldPair[1].time.median)
    let flatWarm = warmLarge / warmSmall - 1
    let flatCold = coldLarge / coldSmall - 1
    report.goal("snapshot_flat_warm", "snapshot path flat from \(ls) to \(ll), warm",
                target: "within 10%", measured: String(format: "%+.1f%% (%@ -> %@, side by side)", flatWarm * 100, fmtMs(warmSmall), fmtMs(warmLarge)),
                met: abs(flatWarm) <= 0.10)
    report.goal("snapshot_flat_cold", "snapshot path flat from \(ls) to \(ll), cold",
                target: "within 10%", measured: String(format: "%+.1f%% (%@ -> %@, side by side)", flatCold * 100, fmtMs(coldSmall), fmtMs(coldLarge)),
                met: abs(flatCold) <= 0.10)
    report.end()
}
