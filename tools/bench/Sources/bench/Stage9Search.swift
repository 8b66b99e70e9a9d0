import Foundation
import GRDB
import TimelineKit

/// The search index's triggers (issue 8), dropped to measure ingest without it. The tables stay
/// (empty): TimelineKit's write transactions still run their end-of-transaction indexing
/// statements, on an empty list of pending messages.
private let dropSearchIndexSQL = """
    DROP TRIGGER messages_search_insert;
    DROP TRIGGER messages_search_update_removes;
    DROP TRIGGER messages_search_update;
    DROP TRIGGER messages_search_delete;
    """

/// What the search migration runs to build the index of an existing database, in one pass
/// (the view `messages_unspaced` holds the schema's test for the scripts the trigram index holds).
private let rebuildSearchIndexSQL = """
    INSERT INTO messages_search (messages_search) VALUES ('rebuild');
    INSERT INTO messages_search_unspaced (rowid, text)
        SELECT seq, text || char(10, 10) FROM messages_unspaced;
    """

/// 8. Search: ingest with the full-text index against without it (same messages, same run), the
/// one-pass index build of the search migration, and search latency in the large data set.
func stageSearch(_ config: Config, _ data: DataSets, _ report: Report) throws {
    try ShellPeer.checkInstalled()
    report.begin("9. Search (FTS5 word index + trigram index for CJK/Thai, kept by triggers)")
    let work = data.directory + "/work"
    let count = config.ingestCount
    let users = data.generator.users()
    let messages = TimelineGenerator(seed: data.seed &+ 3).messages(0..<count)

    // Ingest: the same messages into two empty databases, one without the search index.
    var rates: [Bool: Double] = [:]
    var sizes: [Bool: Int] = [:]
    var paths: [Bool: String] = [:]
    for indexed in [false, true] {
        let dir = try freshDirectory("\(work)/search-ingest-\(indexed ? "on" : "off")")
        let path = dir + "/timeline.sqlite"
        paths[indexed] = path
        // An empty write: TimelineKit creates a database at its first committed write.
        try TimelineStore(path: path, configuration: .init(writesSnapshot: false)).write { _ in }
        let queue = try DatabaseQueue(path: path, configuration: grdbConfiguration())
        if !indexed { try queue.write { db in try db.execute(sql: dropSearchIndexSQL) } }
        try queue.close()
        let store = try TimelineStore(path: path, configuration: .init(writesSnapshot: false))
        let seconds = try ingest(store, users: users, messages: messages)
        rates[indexed] = Double(count) / seconds
        let checkpoint = try DatabaseQueue(path: path, configuration: grdbConfiguration())
        try checkpoint.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try checkpoint.close()
        sizes[indexed] = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        report.value("search.ingest.index_\(indexed ? "on" : "off")",
                     "ingest \(fmtCount(Double(count))) into an empty db, search index \(indexed ? "on" : "off")",
                     "\(fmtCount(rates[indexed]!))/s", raw: rates[indexed]!, unit: "messages/s",
                     note: String(format: "%.2f s; db %@", seconds, fmtBytes(sizes[indexed]!)))
    }
    report.ratio("search.ingest.ratio", "ingest rate, index on / off", rates[true]! / rates[false]!,
                 note: "index adds \(fmtBytes(sizes[true]! - sizes[false]!)) (\(String(format: "%.0f%%", 100 * Double(sizes[true]! - sizes[false]!) / Double(sizes[false]!))))")

    // The migration's one-pass build, on the database ingested without the index.
    let queue = try DatabaseQueue(path: paths[false]!, configuration: grdbConfiguration())
    let buildStart = now()
    try queue.write { db in try db.execute(sql: rebuildSearchIndexSQL) }
    let buildSeconds = Double(now() - buildStart) / 1e9
    try queue.close()
    report.value("search.build_index", "build the index of \(fmtCount(Double(count))) messages in one pass (migration)",
                 String(format: "%.2f s", buildSeconds), raw: buildSeconds, unit: "s",
                 note: "\(fmtCount(Double(count) / buildSeconds))/s")

    // Latency in the large data set, newest 20 matches, in process, on the reader connection.
    let large = try data.ensure(messages: config.large)
    let store = try TimelineStore(path: large, configuration: .init(createIfMissing: false, writesSnapshot: false))
    let kinds = SearchKind.all(rareWord: SearchKind.rareWord(data.generator))
    var worst = 0.0
    for kind in kinds {
        var found: [String] = []
        let summary = try timeInProcess(iterations: config.smoke ? 3 : 15, warmup: 1) {
            found = try store.search(kind.query, limit: 20).results.map(\.message.id)
        }
        worst = max(worst, summary.median)
        // What the sqlite3 shell finds with the same statements: a fast search that found the
        // wrong messages (or none) would otherwise pass.
        let shell = ShellSearch(kind: kind, limit: 20)
        let expected = try shell.foundIDs(in: large, walking: try shell.walks(in: large))
        report.time("search.latency.\(kind.key)",
                    "\(fmtCount(Double(config.large))): search \(kind.name) (\(kind.query))", summary,
                    note: "\(found.count) shown" + (found == expected ? ", as the sqlite3 shell finds" : ""))
        if found != expected {
            report.fail("search \(kind.name) (\(kind.query)) in \(fmtCount(Double(config.large))): TimelineKit found \(found.count) messages, the sqlite3 shell \(expected.count) (first difference: \(zip(found, expected).first { $0 != $1 }.map { "\($0) vs \($1)" } ?? "in length"))")
        }
    }
    // Issue 28: the newest page of a common word, whole processes, at 100k and 1M side by side
    // (alternating): it should not grow with the timeline.
    let flatSizes = Array(config.sizes.suffix(2))
    let flatDatabases = try flatSizes.map { try data.ensure(messages: $0) }
    sync()
    var flatWorst = 0.0
    var flatMeasured: [String] = []
    for kind in kinds where kind.name == "common word" || kind.name == "two words" {
        let runs = try Runner.sideBySide(flatDatabases.map { [config.timeline, "search", "--db", $0, kind.query] },
                                         runs: config.smoke ? 3 : 15, warmups: 1)
        for (size, run) in zip(flatSizes, runs) {
            report.time("search.flat.\(kind.key).\(size)", "\(fmtCount(Double(size))): timeline search \(kind.query) (whole process)",
                        run.time, note: "peak RSS \(fmtKiB(run.rss.median))")
        }
        let ratio = runs[1].time.median / runs[0].time.median
        report.ratio("search.flat.\(kind.key).ratio", "search \(kind.query): \(fmtCount(Double(flatSizes[1]))) / \(fmtCount(Double(flatSizes[0])))", ratio)
        flatWorst = max(flatWorst, ratio)
        flatMeasured.append("\(kind.query): \(fmtMs(runs[0].time.median)) and \(fmtMs(runs[1].time.median)), \(fmtRatio(ratio))")
    }
    report.goal("search_newest_page_flat", "search's newest page of a common word at \(fmtCount(Double(flatSizes[1]))) within 1.5x of \(fmtCount(Double(flatSizes[0])))",
                target: "<= 1.50x (whole process, median)", measured: flatMeasured.joined(separator: "; "), met: flatWorst <= 1.5)
    report.goal("search_under_100ms", "search in \(fmtCount(Double(config.large))) messages under 100 ms, every query kind",
                target: "< 100 ms (median)", measured: "slowest median \(fmtMs(worst))", met: worst < 100)
    report.end()
}
