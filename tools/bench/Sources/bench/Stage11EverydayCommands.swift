import Foundation
import GRDB
import TimelineKit

/// 11. The everyday commands as a user runs them: whole processes of the release binary, each
/// beside the sqlite3 shell doing the same work on the same database in the same run,
/// alternating, with peak RSS. Writes (`mark-read`, `post`, `delete`) run on a copy of the data
/// set, reads (`search`, `stats`, `doctor --quick`, `prune --dry-run`) on the data set itself.
func stageEverydayCommands(_ config: Config, _ data: DataSets, _ report: Report) throws {
    try ShellPeer.checkInstalled()
    report.begin("11. Everyday commands, whole processes, against the sqlite3 shell doing the same work (median; peak RSS of each process)")
    let work = try freshDirectory(data.directory + "/work/everyday")
    let timeline = config.timeline
    var goals: [String: RatioGoal] = [:]
    func goal(_ key: String, _ command: String, _ kind: ShellComparison.Kind) -> RatioGoal {
        goals[key] ?? RatioGoal(key: "\(key)_within_\(kind == .write ? "1_5x" : "1_2x")_sqlite3",
                                name: "\(command) within \(fmtRatio(kind.limit)) of the sqlite3 shell", kind: kind)
    }
    func compare(_ key: String, _ command: String, _ kind: ShellComparison.Kind, size: Int,
                 _ results: [(time: Summary, rss: Summary)], label: String? = nil, note: String = "") {
        let comparison = ShellComparison(command: command, kind: kind, timeline: results[0], shell: results[1])
        comparison.report(report, key: "commands.\(size).\(key)", size: size, note: note)
        var entry = goal(key, label ?? command, kind)
        entry.add(size: fmtCount(Double(size)), command, comparison.ratio)
        goals[key] = entry
    }
    var markReadLarge = Double.nan
    let kinds = SearchKind.all(rareWord: SearchKind.rareWord(data.generator))
    let order = ["mark_read", "mark_all_read", "post", "delete", "search", "stats", "doctor_quick", "prune_dry_run"]

    for size in [config.small, config.large] {
        let label = fmtCount(Double(size))
        let isLarge = size == config.large && !config.smoke
        let quickRuns = config.smoke ? 3 : 15
        let slowRuns = config.smoke ? 2 : (isLarge ? 3 : 9)
        let source = try data.ensure(messages: size)
        let copy = try data.workCopy(messages: size, name: "everyday-\(size)")
        let counts = try DatabaseProbe.counts(of: source)
        sync()
        var rng = SplitMix64(seed: data.seed ^ 0x1D5 ^ UInt64(size))

        // mark-read --ids-file: 10,000 random IDs, each run finding them all unread again.
        let idCount = min(10_000, size / 2)
        var picked = Set<Int>()
        var ids: [String] = []
        while ids.count < idCount {
            let index = rng.below(size)
            if picked.insert(index).inserted { ids.append(data.generator.messageID(index)) }
        }
        let idsFile = work + "/ids-\(size).txt"
        try (ids.joined(separator: "\n") + "\n").write(toFile: idsFile, atomically: true, encoding: .utf8)
        let markShell = try ShellPeer.prepare(ShellPeer.markRead(idsFile: idsFile), at: work + "/mark-read.sql", database: copy)
        var restored: [Int] = []
        let marked = try Runner.sideBySide([[timeline, "mark-read", "--db", copy, "--ids-file", idsFile], markShell],
                                           runs: config.smoke ? 3 : 9, warmups: 1,
                                           before: { _, _ in restored.append(try markUnread(copy, ids)) })
        // The peer's unknown-ID check ran and found every ID (it prints the unknown ones).
        let peerCheck = try Runner.capture(markShell)
        if peerCheck.status != 0 || !peerCheck.output.isEmpty {
            report.fail("\(label): the sqlite3 shell's mark-read found unknown IDs or failed (\(peerCheck.status)): \(peerCheck.output.prefix(200))\(peerCheck.errors.prefix(200))")
        }
        restored.append(try markUnread(copy, ids))
        if restored.dropFirst().contains(where: { $0 != idCount }) {
            report.fail("\(label): mark-read --ids-file: a run did not mark all \(idCount) IDs read (found again unread: \(restored.dropFirst()))")
        }
        compare("mark_read", "mark-read --ids-file (\(idCount) IDs)", .write, size: size, marked,
                label: "mark-read --ids-file (10,000 IDs)", note: "the snapshot rewritten after it")
        if size == config.large { markReadLarge = marked[0].time.median }

        // mark-read --all, each run finding the same messages unread.
        let unread = try unreadIDs(copy)
        var restoredAll: [Int] = []
        let allMarked = try Runner.sideBySide(
            [[timeline, "mark-read", "--db", copy, "--all"],
             try ShellPeer.prepare(ShellPeer.markAllRead, at: work + "/mark-all-read.sql", database: copy)],
            runs: slowRuns, warmups: 1,
            before: { _, _ in restoredAll.append(try markUnread(copy, unread)) })
        restoredAll.append(try markUnread(copy, unread))
        if restoredAll.dropFirst().contains(where: { $0 != unread.count }) {
            report.fail("\(label): mark-read --all: a run did not mark all \(unread.count) unread messages read")
        }
        compare("mark_all_read", "mark-read --all", .write, size: size, allMarked, note: "\(unread.count) unread before each run")

        // post, as a user whose handle names one user.
        let author = data.generator.users().first { !$0.handle.contains("@") }!
        let text = "Shipping the new release today 🚀 #release"
        let before = try DatabaseProbe.counts(of: copy).messages
        let posted = try Runner.sideBySide(
            [[timeline, "post", "--db", copy, "--as", author.handle, text],
             try ShellPeer.prepare(ShellPeer.post(handle: author.handle, text: text), at: work + "/post.sql", database: copy)],
            runs: quickRuns, warmups: 1)
        let afterPosts = try DatabaseProbe.counts(of: copy).messages
        if afterPosts - before != 2 * (quickRuns + 1) {
            report.fail("\(label): post: \(afterPosts - before) messages added by \(2 * (quickRuns + 1)) posts")
        }
        compare("post", "post", .write, size: size, posted)

        // delete, a different stored message each run.
        let deleted = try Runner.sideBySide(count: 2, runs: quickRuns, warmups: 1) { index, _ in
            var id: String
            repeat {
                let index = rng.below(size)
                id = data.generator.messageID(index)
                if picked.insert(index).inserted { break }
            } while true
            if index == 0 { return [timeline, "delete", "--db", copy, id] }
            return try ShellPeer.prepare(ShellPeer.delete(id: id), at: work + "/delete.sql", database: copy)
        }
        let afterDeletes = try DatabaseProbe.counts(of: copy).messages
        if afterPosts - afterDeletes != 2 * (quickRuns + 1) {
            report.fail("\(label): delete: \(afterPosts - afterDeletes) messages removed by \(2 * (quickRuns + 1)) deletes")
        }
        compare("delete", "delete ID", .write, size: size, deleted)

        // search, every kind of stage 9, checked against what the shell finds.
        for kind in kinds {
            let shell = ShellSearch(kind: kind, limit: 20)
            let walking = try shell.walks(in: source)
            let results = try Runner.sideBySide(
                [[timeline, "search", "--db", source, "-n", "20", "--", kind.query],
                 try ShellPeer.prepare(shell.script(walking: walking), at: work + "/search.sql", database: source)],
                runs: quickRuns, warmups: 1, accept: { index, status in status == 0 || (index == 0 && status == 2) })
            let found = try searchIDs(timeline, source, kind.query)
            let expected = try shell.foundIDs(in: source, walking: walking)
            if found != expected {
                report.fail("\(label): timeline search \(kind.query) found \(found.count) messages, the sqlite3 shell \(expected.count) with the same statements")
            }
            compare("search", "search \(kind.name) (\(kind.query))", .read, size: size, results,
                    label: "search (every query kind)", note: "\(found.count) found" + (walking ? "; walks the timeline" : ""))
        }

        // stats.
        let stats = try Runner.sideBySide(
            [[timeline, "stats", "--db", source],
             try ShellPeer.prepare(ShellPeer.stats, at: work + "/stats.sql", database: source)],
            runs: quickRuns, warmups: 1)
        let shown = try Runner.capture([timeline, "stats", "--json", "--db", source]).output
        for (field, value) in [("messages", counts.messages), ("unread", counts.unread), ("users", counts.users)]
        where !shown.contains("\"\(field)\":\(value)") {
            report.fail("\(label): timeline stats --json does not say \(field) \(value): \(shown)")
        }
        compare("stats", "stats", .read, size: size, stats)

        // doctor --quick.
        let doctor = try Runner.sideBySide(
            [[timeline, "doctor", "--quick", "--db", source],
             try ShellPeer.prepare(ShellPeer.doctorQuick, at: work + "/doctor.sql", database: source)],
            runs: slowRuns, warmups: 1)
        compare("doctor_quick", "doctor --quick", .read, size: size, doctor, note: "quick_check reads every page")

        // prune --dry-run, at a cutoff that removes about half of the messages.
        let middle = TimelineGenerator.epoch.addingTimeInterval(Double(size / 2) * 30)
        let days = max(1, Int(Date().timeIntervalSince(middle) / 86400))
        let pruneCommand = [timeline, "prune", "--db", source, "--older-than", "\(days)d", "--dry-run"]
        let pruneScript = work + "/prune.sql"
        let pruned = try Runner.sideBySide(count: 2, runs: slowRuns, warmups: 1) { index, _ in
            if index == 0 { return pruneCommand }
            return try ShellPeer.prepare(ShellPeer.pruneDryRun(cutoff: cutoff(days: days)), at: pruneScript, database: source)
        }
        try checkPruneCounts(pruneCommand, days: days, source: source, script: pruneScript, report, label: label)
        compare("prune_dry_run", "prune --older-than \(days)d --dry-run", .read, size: size, pruned,
                label: "prune --dry-run", note: "about half of the messages")
    }
    for key in order { goals[key]?.report(report) }
    report.goal("mark_read_process_60ms", "mark-read --ids-file with 10,000 IDs at \(fmtCount(Double(config.large))), whole process",
                target: "<= 60 ms", measured: fmtMs(markReadLarge) + " (the library call alone: stage 5)", met: markReadLarge <= 60)
    report.note("sync, from the loopback Mastodon server: stage 12")
    report.end()
}

/// Marks these messages unread again (untimed, between runs); returns how many were read.
private func markUnread(_ database: String, _ ids: [String]) throws -> Int {
    let store = try TimelineStore(path: database, configuration: .init(createIfMissing: false, writesSnapshot: false))
    return try store.markRead(ids: ids, read: false)
}

private func unreadIDs(_ database: String) throws -> [String] {
    let queue = try DatabaseQueue(path: database, configuration: grdbConfiguration(readonly: true))
    defer { try? queue.close() }
    return try queue.read { db in
        try String.fetchAll(db, sql: "SELECT id FROM messages WHERE seq IN (SELECT seq FROM unread_messages)")
    }
}

/// The IDs `timeline search` prints with `--json`, in order.
private func searchIDs(_ timeline: String, _ database: String, _ query: String) throws -> [String] {
    let result = try Runner.capture([timeline, "search", "--db", database, "-n", "20", "--json", "--", query])
    guard result.status == 0 || result.status == 2 else { throw BenchError("timeline search \(query): \(result.errors)") }
    return try result.output.split(separator: "\n").map { line in
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return object?["id"] as? String ?? ""
    }
}

/// The cutoff `prune --older-than Nd` computes now, in milliseconds.
private func cutoff(days: Int) -> Int64 {
    Int64((Date().timeIntervalSince1970 - Double(days) * 86400) * 1000)
}

/// `prune --dry-run` says the counts the shell's statements give (run at the same moment: the
/// cutoff moves with the clock, so one message may cross it in between).
private func checkPruneCounts(_ command: [String], days: Int, source: String, script: String,
                              _ report: Report, label: String) throws {
    let said = try Runner.capture(command).output
    let fresh = try ShellPeer.prepare(ShellPeer.pruneDryRun(cutoff: cutoff(days: days)), at: script, database: source)
    let counted = try Runner.capture(fresh).output.split(separator: "\n").map(String.init)
    // Counts are written grouped ("1,000").
    let words = said.replacingOccurrences(of: ",", with: "").split(separator: " ")
    guard words.count > 4, let messages = Int(words[2]), let users = Int(words[5]),
          counted.count >= 2, let shellMessages = Int(counted[0]), let shellUsers = Int(counted[1]) else {
        report.fail("\(label): prune --dry-run said \(said.debugDescription); the shell counted \(counted)")
        return
    }
    if abs(messages - shellMessages) > 1 || abs(users - shellUsers) > 1 {
        report.fail("\(label): prune --dry-run would remove \(messages) messages and \(users) users; the shell's statements count \(shellMessages) and \(shellUsers)")
    }
}
