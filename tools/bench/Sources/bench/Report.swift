import Foundation

/// The table printed stage by stage and the machine-readable results (`bench-results.json`).
final class Report {
    struct Row {
        var name: String
        var median: String
        var min: String
        var max: String
        var note: String
    }
    struct Goal {
        var name: String
        var target: String
        var measured: String
        var met: Bool
    }

    private(set) var goals: [Goal] = []
    /// Cross-checks that did not hold (a coder's round trip, two libraries' pages, a search's
    /// results against the sqlite3 shell's): each fails the run, since a figure measured on a
    /// wrong answer says nothing.
    private(set) var failures: [String] = []
    private var json: [String: Any] = [:]
    private var sectionRows: [Row] = []
    private var sectionTitle = ""
    let outputPath: String
    /// A smoke run's sizes and run counts are not the ones the goals are about: its goal rows
    /// say "smoke" and carry no verdict.
    let smoke: Bool

    init(outputPath: String, smoke: Bool, meta: [String: Any]) {
        self.outputPath = outputPath
        self.smoke = smoke
        json["meta"] = meta
        json["results"] = [String: Any]()
        json["goals"] = [[String: Any]]()
        json["failures"] = [String]()
    }

    func begin(_ title: String) {
        sectionTitle = title
        sectionRows = []
    }

    /// A timing row (milliseconds).
    func time(_ key: String, _ name: String, _ s: Summary, note: String = "", extra: [String: Any] = [:]) {
        sectionRows.append(Row(name: name, median: fmtMs(s.median), min: fmtMs(s.min), max: fmtMs(s.max), note: note))
        var entry = s.json
        entry["unit"] = "ms"
        entry["label"] = name
        for (k, v) in extra { entry[k] = v }
        record(key, entry)
    }

    /// A row with one figure.
    func value(_ key: String, _ name: String, _ shown: String, raw: Any, unit: String, note: String = "", extra: [String: Any] = [:]) {
        sectionRows.append(Row(name: name, median: shown, min: "", max: "", note: note))
        var entry: [String: Any] = ["value": raw, "unit": unit, "label": name]
        for (k, v) in extra { entry[k] = v }
        record(key, entry)
    }

    func ratio(_ key: String, _ name: String, _ r: Double, note: String = "") {
        sectionRows.append(Row(name: name, median: fmtRatio(r), min: "", max: "", note: note))
        record(key, ["value": r.isNaN ? NSNull() : r, "unit": "ratio", "label": name])
    }

    func goal(_ key: String, _ name: String, target: String, measured: String, met: Bool) {
        goals.append(Goal(name: name, target: target, measured: measured, met: met))
        sectionRows.append(Row(name: "GOAL " + name, median: verdict(met), min: "", max: "", note: "\(measured) (goal: \(target))"))
        var list = json["goals"] as! [[String: Any]]
        list.append(["key": key, "goal": name, "target": target, "measured": measured, "met": smoke ? NSNull() : met,
                     "verdict": verdict(met)])
        json["goals"] = list
    }

    private func verdict(_ met: Bool) -> String { smoke ? "smoke" : met ? "MET" : "NOT MET" }

    /// Records a cross-check that failed: shown in the table at once, listed at the end, and
    /// the run exits non-zero.
    func fail(_ what: String) {
        failures.append(what)
        sectionRows.append(Row(name: "FAILED: " + what, median: "", min: "", max: "", note: ""))
        json["failures"] = failures
        FileHandle.standardError.write(Data("bench: FAILED: \(what)\n".utf8))
    }

    func note(_ text: String) {
        sectionRows.append(Row(name: "  " + text, median: "", min: "", max: "", note: ""))
    }

    private func record(_ key: String, _ entry: [String: Any]) {
        var results = json["results"] as! [String: Any]
        results[key] = entry
        json["results"] = results
    }

    /// Prints the current section and saves the JSON so far.
    func end() {
        let header = Row(name: "measurement", median: "median", min: "min", max: "max", note: "ratio / note")
        let rows = [header] + sectionRows
        let w0 = max(44, rows.map { $0.name.count }.max() ?? 0)
        let w1 = max(9, rows.map { $0.median.count }.max() ?? 0)
        let w2 = max(9, rows.map { $0.min.count }.max() ?? 0)
        let w3 = max(9, rows.map { $0.max.count }.max() ?? 0)
        func pad(_ s: String, _ w: Int) -> String { s + String(repeating: " ", count: max(0, w - s.count)) }
        func lpad(_ s: String, _ w: Int) -> String { String(repeating: " ", count: max(0, w - s.count)) + s }
        print("\n== \(sectionTitle)")
        for (i, r) in rows.enumerated() {
            print("\(pad(r.name, w0))  \(lpad(r.median, w1))  \(lpad(r.min, w2))  \(lpad(r.max, w3))  \(r.note)")
            if i == 0 { print(String(repeating: "-", count: w0 + w1 + w2 + w3 + 20)) }
        }
        fflush(nil)
        save()
    }

    func save() {
        json["generated_at"] = ISO8601DateFormatter().string(from: Date())
        if let data = try? JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys]) {
            _ = FileManager.default.createFile(atPath: outputPath, contents: data)
        }
    }

    func printGoals() {
        if smoke {
            print("\n== Goals (smoke run: the sizes and run counts are too small for a verdict, so none is given)")
        } else {
            print("\n== Goals")
        }
        for g in goals {
            let shown = verdict(g.met)
            print("\(shown + String(repeating: " ", count: max(0, 7 - shown.count)))  \(g.name): \(g.measured) (goal: \(g.target))")
        }
        if !smoke { print("\(goals.filter(\.met).count) of \(goals.count) goals met") }
        if !failures.isEmpty {
            print("\n== Cross-checks that FAILED (the run fails)")
            for failure in failures { print("FAILED  \(failure)") }
        }
        fflush(nil)
    }
}
