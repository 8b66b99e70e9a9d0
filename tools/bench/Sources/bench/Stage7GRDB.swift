import Foundation
import GRDB
import TimelineKit

/// The message row as a GRDB developer would write it: a Codable record, camelCase properties,
/// snake_case columns, attachments as a nested Codable value (GRDB stores it as JSON text).
struct MessageRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "messages"
    var id: String
    var authorID: String
    var text: String
    var createdAt: Int64  // milliseconds, like TimelineKit's column
    var editedAt: Int64?
    var replyToID: String?
    var replyToUserID: String?
    var repostOfID: String?
    var quoteOfID: String?
    var contentWarning: String?
    var url: String?
    var attachments: [Attachment]?
    var likeCount: Int
    var repostCount: Int
    var replyCount: Int
    var isRead: Bool

    enum CodingKeys: String, CodingKey {
        case id, text, url, attachments
        case authorID = "author_id", createdAt = "created_at", editedAt = "edited_at"
        case replyToID = "reply_to_id", replyToUserID = "reply_to_user_id", repostOfID = "repost_of_id"
        case quoteOfID = "quote_of_id", contentWarning = "content_warning", likeCount = "like_count"
        case repostCount = "repost_count", replyCount = "reply_count", isRead = "read"
    }

    init(_ m: Message) {
        id = m.id; authorID = m.authorID; text = m.text
        createdAt = Int64((m.createdAt.timeIntervalSince1970 * 1000).rounded(.down))
        editedAt = m.editedAt.map { Int64(($0.timeIntervalSince1970 * 1000).rounded(.down)) }
        replyToID = m.replyToID; replyToUserID = m.replyToUserID; repostOfID = m.repostOfID
        quoteOfID = m.quoteOfID; contentWarning = m.contentWarning; url = m.url
        attachments = m.attachments.isEmpty ? nil : m.attachments
        likeCount = m.likeCount; repostCount = m.repostCount; replyCount = m.replyCount; isRead = m.isRead
    }

    /// The read flag is not a column (schema v2 keeps it in `unread_messages`): GRDB's synthesized
    /// encoding would write it, so the record encodes its columns itself.
    func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id; container["author_id"] = authorID; container["text"] = text
        container["created_at"] = createdAt; container["edited_at"] = editedAt
        container["reply_to_id"] = replyToID; container["reply_to_user_id"] = replyToUserID
        container["repost_of_id"] = repostOfID; container["quote_of_id"] = quoteOfID
        container["content_warning"] = contentWarning; container["url"] = url
        container["attachments"] = attachments.flatMap { try? String(decoding: JSONEncoder().encode($0), as: UTF8.self) }
        container["like_count"] = likeCount; container["repost_count"] = repostCount; container["reply_count"] = replyCount
    }

    /// The columns GRDB selects, with the read flag computed the way TimelineKit stores it.
    static var databaseSelection: [any SQLSelectable] { [
        AllColumns(),
        SQL("NOT EXISTS (SELECT 1 FROM unread_messages WHERE unread_messages.seq = messages.seq)").forKey("read"),
    ] }

    /// Everything for the raw variant's upsert (TimelineKit's SQL).
    var arguments: StatementArguments {
        let attachmentsJSON: String? = attachments.flatMap { try? String(decoding: JSONEncoder().encode($0), as: UTF8.self) }
        return [id, authorID, text, createdAt, editedAt, replyToID, replyToUserID, repostOfID, quoteOfID,
                contentWarning, url, attachmentsJSON, likeCount, repostCount, replyCount]
    }
}

struct UserRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "users"
    var id: String
    var handle: String
    var name: String
    var url: String?
    var bot: Bool

    init(_ u: User) { id = u.id; handle = u.handle; name = u.name; url = u.url; bot = u.isBot }
}

/// TimelineKit's upsert (MessageColumns.upsert): insert, or update in place only when something
/// differs. New rows start unread (trigger); a message that says it was read is then marked so.
let timelineUpsertSQL = """
    INSERT INTO messages (id, author_id, text, created_at, edited_at, reply_to_id, reply_to_user_id,
        repost_of_id, quote_of_id, content_warning, url, attachments, like_count, repost_count, reply_count)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
    ON CONFLICT (id) DO UPDATE SET
        author_id = excluded.author_id, text = excluded.text, created_at = excluded.created_at,
        edited_at = excluded.edited_at, reply_to_id = excluded.reply_to_id,
        reply_to_user_id = excluded.reply_to_user_id, repost_of_id = excluded.repost_of_id,
        quote_of_id = excluded.quote_of_id, content_warning = excluded.content_warning,
        url = excluded.url, attachments = excluded.attachments, like_count = excluded.like_count,
        repost_count = excluded.repost_count, reply_count = excluded.reply_count
    WHERE (author_id, text, created_at, edited_at, reply_to_id, reply_to_user_id, repost_of_id,
           quote_of_id, content_warning, url, attachments, like_count, repost_count, reply_count)
       IS NOT (excluded.author_id, excluded.text, excluded.created_at, excluded.edited_at,
           excluded.reply_to_id, excluded.reply_to_user_id, excluded.repost_of_id,
           excluded.quote_of_id, excluded.content_warning, excluded.url, excluded.attachments,
           excluded.like_count, excluded.repost_count, excluded.reply_count)
    """
let markSequenceReadSQL = "DELETE FROM unread_messages WHERE seq = ?"

func grdbConfiguration(readonly: Bool = false) -> Configuration {
    var configuration = Configuration()
    configuration.readonly = readonly
    configuration.prepareDatabase { db in
        // The same durability as TimelineKit's writer.
        if !readonly { try db.execute(sql: "PRAGMA synchronous = FULL") }
        db.add(function: DeferredSearchIndexing.unspacedFunction)
        // Where the schema is there already: a database GRDB creates declares them at its first write.
        if !readonly, try db.tableExists("messages") { try db.execute(sql: DeferredSearchIndexing.declareNotes) }
    }
    return configuration
}

/// A database with exactly TimelineKit's schema (tables, indexes, the change-tracking and search
/// triggers: TimelineKit itself creates it), opened through GRDB, so both libraries do the same
/// work per row. GRDB's transactions index for search the way TimelineKit's do, once at their
/// end (`DeferredSearchIndexing`): row by row, the triggers would cost GRDB 40 µs a message
/// that TimelineKit does not pay, and the comparison would flatter TimelineKit.
func makeGRDBDatabase(_ path: String) throws -> DatabasePool {
    // An empty write: TimelineKit creates a database at its first committed write.
    try TimelineStore(path: path, configuration: .init(writesSnapshot: false)).write { _ in }
    return try DatabasePool(path: path, configuration: grdbConfiguration())
}

/// GRDB's version of `timeline(limit:)`: the newest messages, the ones they repost or quote, and
/// the authors of all of them.
func grdbNewestPage(_ db: Database, limit: Int) throws -> (messages: [MessageRecord], related: [MessageRecord], users: [UserRecord]) {
    let order = [Column("created_at").desc, Column("id").desc]
    let page = try MessageRecord.order(order).limit(limit + 1).fetchAll(db).prefix(limit)
    let own = Set(page.map(\.id))
    var relatedIDs: [String] = []
    var seen = Set<String>()
    for m in page {
        for id in [m.repostOfID, m.quoteOfID].compactMap({ $0 }) where !own.contains(id) && seen.insert(id).inserted {
            relatedIDs.append(id)
        }
    }
    let related = relatedIDs.isEmpty ? [] : try MessageRecord.filter(relatedIDs.contains(Column("id"))).order(order).fetchAll(db)
    var userIDs = Set<String>()
    for m in page + related {
        userIDs.insert(m.authorID)
        if let u = m.replyToUserID { userIDs.insert(u) }
    }
    let users = try UserRecord.fetchAll(db, keys: Array(userIDs)).sorted { $0.id < $1.id }
    return (Array(page), related, users)
}

/// 7. GRDB.swift 7.10 doing the same ingest and the same newest-200 query, on the same data.
func stageGRDB(_ config: Config, _ data: DataSets, _ report: Report) throws {
    report.begin("7. TimelineKit against GRDB.swift 7.10 (same schema, indexes, triggers; search indexed at the end of each transaction by both; synchronous = FULL; WAL)")
    let work = data.directory + "/work"
    let count = config.ingestCount
    let fresh = TimelineGenerator(seed: data.seed &+ 1)
    let users = data.generator.users()
    let messages = fresh.messages(0..<count)
    let records = messages.map(MessageRecord.init)
    let userRecords = users.map(UserRecord.init)

    func batches<T>(_ list: [T]) -> [ArraySlice<T>] {
        stride(from: 0, to: list.count, by: 1000).map { list[$0..<min(list.count, $0 + 1000)] }
    }
    var seconds: [String: Double] = [:]
    var databases: [String: String] = [:]
    // TimelineKit, snapshot off (the library alone) and on (real use).
    for snapshots in [false, true] {
        let dir = try freshDirectory("\(work)/grdb-tk-\(snapshots)")
        let store = try TimelineStore(path: dir + "/timeline.sqlite", configuration: .init(writesSnapshot: snapshots))
        seconds["tk.\(snapshots)"] = try ingest(store, users: users, messages: messages)
        databases["tk.\(snapshots)"] = dir + "/timeline.sqlite"
    }
    // GRDB, the record API: `record.upsert(db)` per row, a transaction per batch.
    do {
        let dir = try freshDirectory("\(work)/grdb-record")
        let pool = try makeGRDBDatabase(dir + "/grdb.sqlite")
        let start = now()
        for (index, batch) in batches(records).enumerated() {
            try pool.write { db in
                try db.execute(sql: DeferredSearchIndexing.begin)
                if index == 0 { for user in userRecords { try user.save(db) } }
                for record in batch {
                    try record.upsert(db)
                    // New rows start unread; all rows here are new.
                    if record.isRead { try db.execute(sql: markSequenceReadSQL, arguments: [db.lastInsertedRowID]) }
                }
                try db.execute(sql: DeferredSearchIndexing.finish(withFunction: true))
            }
        }
        seconds["grdb.record"] = Double(now() - start) / 1e9
        databases["grdb.record"] = dir + "/grdb.sqlite"
        let stored = try pool.read { db in try MessageRecord.fetchCount(db) }
        precondition(stored == count, "GRDB stored \(stored) of \(count)")
    }
    // GRDB, one cached statement with TimelineKit's exact upsert SQL.
    do {
        let dir = try freshDirectory("\(work)/grdb-raw")
        let pool = try makeGRDBDatabase(dir + "/grdb.sqlite")
        let start = now()
        for (index, batch) in batches(records).enumerated() {
            try pool.write { db in
                try db.execute(sql: DeferredSearchIndexing.begin)
                if index == 0 { for user in userRecords { try user.save(db) } }
                let statement = try db.cachedStatement(sql: timelineUpsertSQL)
                let markRead = try db.cachedStatement(sql: markSequenceReadSQL)
                for record in batch {
                    try statement.execute(arguments: record.arguments)
                    if record.isRead { try markRead.execute(arguments: [db.lastInsertedRowID]) }
                }
                try db.execute(sql: DeferredSearchIndexing.finish(withFunction: true))
            }
        }
        seconds["grdb.raw"] = Double(now() - start) / 1e9
        databases["grdb.raw"] = dir + "/grdb.sqlite"
    }
    // The same work: every database holds the same messages and answers the same searches.
    let expected = try DatabaseProbe.fingerprint(of: databases["tk.false"]!)
    for key in ["tk.true", "grdb.record", "grdb.raw"] where try DatabaseProbe.fingerprint(of: databases[key]!) != expected {
        report.fail("ingest \(key): its database does not hold the messages and search index TimelineKit's holds (\(try DatabaseProbe.fingerprint(of: databases[key]!)) vs \(expected))")
    }
    let label = fmtCount(Double(count))
    func rate(_ key: String) -> Double { Double(count) / seconds[key]! }
    report.value("grdb.ingest.timelinekit_snapshot_off", "ingest \(label): TimelineKit, snapshot off", "\(fmtCount(rate("tk.false")))/s",
                 raw: rate("tk.false"), unit: "messages/s", note: String(format: "%.2f s", seconds["tk.false"]!))
    report.value("grdb.ingest.timelinekit_snapshot_on", "ingest \(label): TimelineKit, snapshot on", "\(fmtCount(rate("tk.true")))/s",
                 raw: rate("tk.true"), unit: "messages/s", note: String(format: "%.2f s", seconds["tk.true"]!))
    report.value("grdb.ingest.grdb_record", "ingest \(label): GRDB record.upsert(db)", "\(fmtCount(rate("grdb.record")))/s",
                 raw: rate("grdb.record"), unit: "messages/s",
                 note: String(format: "%.2f s; search indexed at the end of each transaction, as TimelineKit does", seconds["grdb.record"]!))
    report.value("grdb.ingest.grdb_raw", "ingest \(label): GRDB cached statement, same SQL", "\(fmtCount(rate("grdb.raw")))/s",
                 raw: rate("grdb.raw"), unit: "messages/s",
                 note: String(format: "%.2f s; search indexed at the end of each transaction, as TimelineKit does", seconds["grdb.raw"]!))
    let ingestRatio = seconds["tk.false"]! / seconds["grdb.record"]!
    let ingestRatioOn = seconds["tk.true"]! / seconds["grdb.record"]!
    let rawRatio = seconds["tk.false"]! / seconds["grdb.raw"]!
    report.ratio("grdb.ratio_ingest_time_tk_over_grdb_record", "ingest time TimelineKit (snapshot off) / GRDB record", ingestRatio,
                 note: "< 1 = TimelineKit faster; snapshot on: \(fmtRatio(ingestRatioOn))")
    report.ratio("grdb.ratio_ingest_time_tk_over_grdb_raw", "ingest time TimelineKit (snapshot off) / GRDB raw", rawRatio)

    // The newest-200 page, on the generated data sets (read only), warm, in process.
    var queryRatios: [Double] = []
    for size in [config.small, config.large] {
        let db = try data.ensure(messages: size)
        let store = try TimelineStore(path: db, configuration: .init(createIfMissing: false, writesSnapshot: false))
        let queue = try DatabaseQueue(path: db, configuration: grdbConfiguration(readonly: true))
        let tkPage = try store.timeline(limit: 200)
        let grdbPage = try queue.read { db in try grdbNewestPage(db, limit: 200) }
        let same = tkPage.messages.map(\.id) == grdbPage.messages.map(\.id) && tkPage.users.map(\.id) == grdbPage.users.map(\.id)
            && Set(tkPage.related.map(\.id)) == Set(grdbPage.related.map(\.id))
        let tk = try timeInProcess(iterations: config.iterations) { _ = try store.timeline(limit: 200) }
        let grdb = try timeInProcess(iterations: config.iterations) { _ = try queue.read { db in try grdbNewestPage(db, limit: 200) } }
        let l = fmtCount(Double(size))
        report.time("grdb.query.\(size).timelinekit", "\(l): newest 200, TimelineKit timeline(limit:)", tk,
                    note: same ? "same page as GRDB" : "PAGES DIFFER")
        report.time("grdb.query.\(size).grdb", "\(l): newest 200, GRDB records", grdb)
        if !same { report.fail("\(l): newest 200: PAGES DIFFER between TimelineKit and GRDB (the two queries do not read the same rows)") }
        report.ratio("grdb.ratio_query_time.\(size)", "\(l): query time TimelineKit / GRDB", tk.median / grdb.median,
                     note: "< 1 = TimelineKit faster")
        queryRatios.append(tk.median / grdb.median)
    }
    report.goal("faster_than_grdb_ingest", "ingest faster than GRDB (record API)", target: "time ratio < 1.00",
                measured: "\(fmtRatio(ingestRatio)) snapshot off, \(fmtRatio(ingestRatioOn)) snapshot on (vs raw GRDB: \(fmtRatio(rawRatio)))",
                met: ingestRatio < 1)
    let worstQuery = queryRatios.max()!
    report.goal("faster_than_grdb_query", "newest-200 query faster than GRDB", target: "time ratio < 1.00",
                measured: queryRatios.map(fmtRatio).joined(separator: " / ") + " (\(fmtCount(Double(config.small))) / \(fmtCount(Double(config.large))))",
                met: worstQuery < 1)
    report.end()
}
