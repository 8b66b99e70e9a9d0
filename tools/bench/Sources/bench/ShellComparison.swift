import Foundation
import TimelineKit

/// One command measured beside the sqlite3 shell doing the same work (stages 10 and 11): the
/// rows it prints and the ratio the goals read.
struct ShellComparison {
    /// Writes are held to 1.5 times the shell's time, reads to 1.2 times (issue 16).
    enum Kind {
        case write, read
        var limit: Double { self == .write ? 1.5 : 1.2 }
    }

    let command: String
    let kind: Kind
    let timeline: (time: Summary, rss: Summary)
    let shell: (time: Summary, rss: Summary)?

    /// `timeline`'s median time over the shell's (nil without a shell peer).
    var ratio: Double? { shell.map { timeline.time.median / $0.time.median } }

    /// Prints the rows: `timeline`'s time and peak RSS, the shell's, and the ratio.
    func report(_ report: Report, key: String, size: Int, note: String = "") {
        let label = fmtCount(Double(size))
        report.time("\(key).timeline", "\(label): timeline \(command)", timeline.time,
                    note: "peak RSS \(fmtKiB(timeline.rss.median))" + (note.isEmpty ? "" : "; " + note),
                    extra: ["peak_rss_kib": timeline.rss.median])
        guard let shell, let ratio else { return }
        report.time("\(key).sqlite3", "\(label): sqlite3 shell, same work", shell.time,
                    note: "peak RSS \(fmtKiB(shell.rss.median))", extra: ["peak_rss_kib": shell.rss.median])
        report.ratio("\(key).ratio", "\(label): \(command) / sqlite3 shell", ratio,
                     note: "goal <= \(fmtRatio(kind.limit)) (\(kind == .write ? "write" : "read"))")
    }
}

/// Ratios gathered over sizes (and query kinds) for one goal: met when every one is within.
struct RatioGoal {
    let key: String
    let name: String
    let limit: Double
    /// Per size, in order: the ratios and what each measured (a query kind, or the command).
    private var measured: [(size: String, ratios: [(what: String, ratio: Double)])] = []

    init(key: String, name: String, kind: ShellComparison.Kind) {
        self.key = key
        self.name = name
        limit = kind.limit
    }

    mutating func add(size: String, _ what: String, _ ratio: Double?) {
        guard let ratio else { return }
        if let index = measured.firstIndex(where: { $0.size == size }) {
            measured[index].ratios.append((what, ratio))
        } else {
            measured.append((size, [(what, ratio)]))
        }
    }

    /// One figure per size; the worst, and how many are over, when a size has several.
    func report(_ report: Report) {
        guard !measured.isEmpty else { return }
        let all = measured.flatMap { $0.ratios.map(\.ratio) }
        let shown = measured.map { size, ratios in
            if ratios.count == 1 { return "\(fmtRatio(ratios[0].ratio)) at \(size)" }
            let worst = ratios.max { $0.ratio < $1.ratio }!
            let over = ratios.filter { $0.ratio > limit }.count
            return "at \(size) worst \(fmtRatio(worst.ratio)) (\(worst.what)), \(over) of \(ratios.count) over"
        }
        report.goal(key, name, target: "<= \(fmtRatio(limit)) the sqlite3 shell's time (medians)",
                    measured: shown.joined(separator: "; "), met: all.allSatisfy { $0 <= limit })
    }
}

func fmtKiB(_ kib: Double) -> String { fmtBytes(Int(kib * 1024)) }

/// Removes a database and everything beside it, then has TimelineKit create it empty (schema,
/// triggers, indexes), as both `timeline import` and the sqlite3 shell find it.
func emptyDatabase(_ path: String) throws {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    let snapshot = SnapshotFile.path(forDatabaseAt: path)
    for file in [snapshot, snapshot + ".lock"] { try? FileManager.default.removeItem(atPath: file) }
    // The store creates its file on the first write that commits: an empty one will do.
    try TimelineStore(path: path, configuration: .init(writesSnapshot: false)).write { _ in }
}
