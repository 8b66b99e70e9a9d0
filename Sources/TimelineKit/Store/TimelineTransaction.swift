#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How an upsert treats the read flag of a message that is already stored.
public enum ReadStateUpdate: Sendable {
    /// Keep the stored flag (new messages take the message's `isRead`). What a fetcher wants:
    /// servers never know what the person has read, so a refetch must not mark it unread again.
    case keepStored
    /// Take the message's `isRead`, as when restoring an export.
    case overwrite
}

/// The writes of one transaction, handed to the closure of `TimelineStore.write(_:)`.
///
/// Everything done through it commits together when the closure returns, or not at all when it
/// throws. It is only valid inside that closure: do not keep it.
///
/// ```swift
/// try store.write { transaction in
///     try transaction.upsert(users: [alice])
///     try transaction.upsert(messages: fetched)   // IDs already stored are updated in place
///     try transaction.markRead(ids: seenIDs)       // one statement, however many IDs
/// }
/// ```
public final class TimelineTransaction {
    let connection: SQLiteConnection
    /// Cleared when the transaction ends; using the transaction after that is a programming error.
    var isOpen = true
    /// Authors named by upserted messages, each with the first message that named it, checked
    /// against the users table once, at the end: a user may arrive after its messages.
    private var namedAuthors: [String: String] = [:]
    /// The upsert statements, looked up once per transaction: bulk ingest runs them once per row,
    /// and hashing their SQL text for the connection's cache each time was a measurable share of
    /// ingest time.
    private var userInsert: SQLiteStatement?
    private var userUpdate: SQLiteStatement?
    private var messageInsert: SQLiteStatement?
    private var messageUpdate: SQLiteStatement?
    /// The first error of an upsert statement, which runs `OR FAIL` and so may leave the rows it
    /// changed before failing (`StoredColumns.makeInsert`): `TimelineStore.write` then rolls the
    /// transaction back even if its closure caught the error and returned.
    private(set) var failedUpsert: TimelineStoreError?
    /// Rows this transaction has upserted (users and messages, changed or not).
    private var rowsUpserted = 0
    /// The search index's row-by-row triggers, while this transaction has them out of the
    /// schema (`SearchIndexBatch.suspendRowByRowTriggers`): restored before COMMIT.
    private var suspendedSearchTriggers: [String]?

    /// From this many upserted rows on, a transaction takes the search index's row-by-row
    /// triggers out of the schema until its COMMIT, so that its upserts run without a statement
    /// journal (issue 28). Below it, each upsert's journal stays in memory and the schema
    /// change would cost more than it saves: a sync's page is a few dozen rows, an import's
    /// first batch a thousand.
    static let bulkRows = 1_000
    /// Users and messages that this transaction's upserts inserted or changed (an upsert of an
    /// identical row changes nothing), for import summaries.
    private(set) var upsertedRowsChanged = 0
    /// The number the next new message gets (`MessageColumns.firstFreeSequence`), once read.
    private var nextSequence: Int64?
    private var sequenceMarkRead: SQLiteStatement?
    private var idMarkRead: SQLiteStatement?
    private var idMarkUnread: SQLiteStatement?
    /// The person's rules, once read (`moderationRules()`), and the time they are judged at.
    var loadedModerationRules: ModerationRules?
    let moderationClock = Date()
    /// Reposts whose original was not stored when they were written (`decideModeration(of:)`).
    var repostsWaitingForTheirOriginal: [(repostID: String, originalID: String)] = []

    init(connection: SQLiteConnection) {
        self.connection = connection
    }

    private func checkOpen() {
        precondition(isOpen, "a TimelineTransaction was used after its write closure returned")
    }

    /// Stores users, updating in place those whose ID is already stored.
    public func upsert(users: some Sequence<User>) throws(TimelineStoreError) {
        for user in users {
            try Self.validate(user)
            try upserting { () throws(SQLiteError) in
                let insert = try cached(&userInsert, UserColumns.insert)
                try UserColumns.bind(user, to: insert)
                try insert.run()
                if connection.changes > 0 {
                    upsertedRowsChanged += 1
                    return
                }
                let update = try cached(&userUpdate, UserColumns.update)
                try UserColumns.bind(user, to: update)
                try update.run()
                upsertedRowsChanged += connection.changes
            }
        }
    }

    /// Stores messages, updating in place those whose ID is already stored (this is how results
    /// from web APIs arrive). Each message's author must be stored by the end of the transaction.
    /// A message identical to the stored one changes nothing, not even the generation.
    public func upsert(messages: some Sequence<Message>, readState: ReadStateUpdate = .keepStored) throws(TimelineStoreError) {
        for message in messages {
            try upsert(message, readState: readState)
        }
    }

    /// Stores one message; see `upsert(messages:readState:)`.
    public func upsert(_ message: Message, readState: ReadStateUpdate = .keepStored) throws(TimelineStoreError) {
        try Self.validate(message)
        var message = message
        try decideModeration(of: &message)
        try upserting { () throws(SQLiteError) in
            let insert = try cached(&messageInsert, MessageColumns.insert)
            try MessageColumns.bind(message, to: insert)
            let sequence: Int64
            if let next = nextSequence {
                sequence = next
            } else {
                sequence = Int64(try connection.integer(MessageColumns.firstFreeSequence) ?? 1)
            }
            nextSequence = sequence
            try insert.bind(sequence, at: Int32(MessageColumns.sequenceParameter))
            try insert.run()
            if connection.changes > 0 {
                // Saturating: a `seq` of Int64.max written by another program makes the next
                // insert fail on the number's uniqueness, not trap.
                nextSequence = sequence.saturatingAdding(1)
                // New rows start unread (the insert trigger adds them to unread_messages), which
                // is what a fetch brings; only a message that says it was read needs more.
                upsertedRowsChanged += 1
                if message.isRead || message.hiddenBecause != nil {
                    let markRead = try cached(&sequenceMarkRead, MessageColumns.markSequenceRead)
                    try markRead.bind(connection.lastInsertRowID, at: 1)
                    try markRead.run()
                }
                return
            }
            let update = try cached(&messageUpdate, MessageColumns.update)
            try MessageColumns.bind(message, to: update)
            try update.run()
            // A message counts once, whether its row, its read state or both changed.
            var changed = connection.changes > 0
            if changed, message.hiddenBecause != nil {
                // Hidden is not waiting to be read (`ModerationRulesRow.store`).
                let mark = try cached(&idMarkRead, MessageColumns.markIDRead)
                try mark.bind(message.id, at: 1)
                try mark.run()
            }
            if readState == .overwrite {
                let mark: SQLiteStatement
                if message.isRead {
                    mark = try cached(&idMarkRead, MessageColumns.markIDRead)
                } else {
                    mark = try cached(&idMarkUnread, MessageColumns.markIDUnread)
                }
                try mark.bind(message.id, at: 1)
                try mark.run()
                changed = changed || connection.changes > 0
            }
            if changed { upsertedRowsChanged += 1 }
        }
        if namedAuthors[message.authorID] == nil { namedAuthors[message.authorID] = message.id }
    }

    /// Runs the statements of one upsert, remembering their failure (see `failedUpsert`).
    private func upserting(_ body: () throws(SQLiteError) -> Void) throws(TimelineStoreError) {
        do {
            rowsUpserted += 1
            if rowsUpserted == Self.bulkRows, suspendedSearchTriggers == nil {
                suspendedSearchTriggers = try sqlite { () throws(SQLiteError) in
                    try SearchIndexBatch.suspendRowByRowTriggers(connection)
                }
            }
            try sqlite(body)
        } catch {
            if failedUpsert == nil { failedUpsert = error }
            throw error
        }
    }

    private func cached(_ slot: inout SQLiteStatement?, _ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let statement = slot { return statement }
        let statement = try connection.statement(sql)
        slot = statement
        return statement
    }

    /// Deletes the messages with these IDs, in one statement. Unknown IDs are ignored, or with
    /// `unknownIDs: .refuse` stop the transaction (see `UnknownMessageIDs`).
    /// Returns how many were deleted.
    @discardableResult
    public func deleteMessages(ids: some Sequence<String>, unknownIDs: UnknownMessageIDs = .ignore) throws(TimelineStoreError) -> Int {
        try runBulk("DELETE FROM messages WHERE id IN (SELECT value FROM json_each(?1))", ids: SQLiteJSONArray(ids), unknownIDs: unknownIDs)
    }

    /// Marks the messages with these IDs read (or unread), in one SQL statement however many IDs
    /// there are: nothing is loaded, and messages already in that state are not touched. Unknown
    /// IDs are ignored, or with `unknownIDs: .refuse` stop the transaction (one statement more,
    /// before the change). Returns how many messages changed.
    @discardableResult
    public func markRead(ids: some Sequence<String>, read: Bool = true, unknownIDs: UnknownMessageIDs = .ignore) throws(TimelineStoreError) -> Int {
        try runBulk(read ? Self.markReadSQL : Self.markUnreadSQL, ids: SQLiteJSONArray(ids), unknownIDs: unknownIDs)
    }

    static let markReadSQL = """
        DELETE FROM unread_messages
        WHERE seq IN (SELECT seq FROM messages WHERE id IN (SELECT value FROM json_each(?1)))
        """
    static let markUnreadSQL = """
        INSERT OR IGNORE INTO unread_messages (seq)
        SELECT seq FROM messages WHERE id IN (SELECT value FROM json_each(?1))
        """

    /// The IDs among `ids` that name no stored message, each once, in the order given (as this
    /// transaction sees the database). One statement however many IDs: the list is read against
    /// the index of message IDs, and only the IDs that match nothing are loaded.
    public func unknownMessageIDs(among ids: some Sequence<String>) throws(TimelineStoreError) -> [String] {
        try unknownMessageIDs(in: SQLiteJSONArray(ids))
    }

    private func unknownMessageIDs(in ids: SQLiteJSONArray) throws(TimelineStoreError) -> [String] {
        let found = try sqlite { () throws(SQLiteError) -> [String] in
            let statement = try connection.statement(
                "SELECT value FROM json_each(?1) WHERE value NOT IN (SELECT id FROM messages)")
            defer { statement.reset() }
            try statement.bind(ids, at: 1)
            var unknown: [String] = []
            while try statement.step() { unknown.append(statement.text(at: 0)) }
            return unknown
        }
        var seen = Set<String>()
        return (found + ids.leftOut).filter { seen.insert($0).inserted }
    }

    /// Marks every message read, in one statement. Returns how many messages changed.
    @discardableResult
    public func markAllRead() throws(TimelineStoreError) -> Int {
        try sqlite { () throws(SQLiteError) in
            try connection.statement("DELETE FROM unread_messages").run()
            return connection.changes
        }
    }

    /// The database's state as this transaction sees it, its own changes included.
    public func state() throws(TimelineStoreError) -> TimelineState {
        try sqlite { () throws(SQLiteError) in try TimelineReader(connection: connection).state() }
    }

    private func runBulk(_ sql: String, ids: SQLiteJSONArray, unknownIDs: UnknownMessageIDs) throws(TimelineStoreError) -> Int {
        if unknownIDs == .refuse {
            let unknown = try unknownMessageIDs(in: ids)
            if !unknown.isEmpty { throw .unknownMessages(ids: unknown, given: ids.count) }
        }
        return try sqlite { () throws(SQLiteError) in
            let statement = try connection.statement(sql)
            try statement.bind(ids, at: 1)
            try statement.run()
            return connection.changes
        }
    }

    /// Puts back the triggers a bulk upsert took out of the schema; `TimelineStore` calls it
    /// right before the search index's `finish` and COMMIT.
    func restoreSearchTriggers() throws(TimelineStoreError) {
        guard let declarations = suspendedSearchTriggers else { return }
        try sqlite { () throws(SQLiteError) in try SearchIndexBatch.restore(declarations, on: connection) }
        suspendedSearchTriggers = nil
        isBulk = true
    }

    /// Whether this transaction upserted `bulkRows` rows or more (set by `restoreSearchTriggers`).
    private(set) var isBulk = false

    /// Refuses the transaction when an upserted message names an author no user has.
    func checkAuthorsExist() throws(TimelineStoreError) {
        guard !namedAuthors.isEmpty else { return }
        let missing = try sqlite { () throws(SQLiteError) in
            try TimelineReader(connection: connection).firstMissingUserID(among: Array(namedAuthors.keys))
        }
        if let missing {
            throw .unknownAuthor(messageID: namedAuthors[missing] ?? "", authorID: missing)
        }
    }

    func sqlite<T>(_ body: () throws(SQLiteError) -> T) throws(TimelineStoreError) -> T {
        checkOpen()
        return try connection.reportingStoreErrors(body)
    }

    /// Runs SQL of tables that are not the store's (a sync's ledger, an import's table of IDs
    /// met) inside this transaction, its errors reported as the store's.
    func withSQLite<T>(_ body: () throws(SQLiteError) -> T) throws(TimelineStoreError) -> T {
        try connection.reportingStoreErrors(body)
    }

    private static func validate(_ user: User) throws(TimelineStoreError) {
        try validateID(user.id, field: "user id")
    }

    /// Every upsert runs this, so the field names of its errors are made only when there is an
    /// error (building them for each message was 7% of an import).
    private static func validate(_ message: Message) throws(TimelineStoreError) {
        func field(_ name: String) -> String { "\(name) of message \(QuotedValue.quoted(message.id))" }
        try validateID(message.id, field: "message id")
        try validateID(message.authorID, field: field("author"))
        if let id = message.replyToID { try validateID(id, field: field("reply_to"), mayBeEmpty: true) }
        if let id = message.replyToUserID { try validateID(id, field: field("reply_to_user"), mayBeEmpty: true) }
        if let id = message.repostOfID { try validateID(id, field: field("repost_of"), mayBeEmpty: true) }
        if let id = message.quoteOfID { try validateID(id, field: field("quote_of"), mayBeEmpty: true) }
        try validateCount(message.likeCount, field: field("likes"))
        try validateCount(message.repostCount, field: field("reposts"))
        try validateCount(message.replyCount, field: field("replies"))
        try validateTime(MillisecondTime.milliseconds(from: message.createdAt), field: field("created_at"))
        if let editedAt = message.editedAt {
            try validateTime(MillisecondTime.milliseconds(from: editedAt), field: field("edited_at"))
        }
    }

    private static func validateCount(_ count: Int, field: @autoclosure () -> String) throws(TimelineStoreError) {
        if count < 0 { throw .invalidValue(field: field(), reason: "\(count) is negative") }
    }

    private static func validateTime(_ milliseconds: Int64, field: @autoclosure () -> String) throws(TimelineStoreError) {
        do throws(RFC3339Time.Invalid) {
            _ = try RFC3339Time.representable(milliseconds)
        } catch {
            throw .invalidValue(field: field(), reason: "it \(error.reason)")
        }
    }

    /// IDs are refused when empty or holding U+0000: SQLite's JSON functions, through which every
    /// list of IDs reaches a query (`SQLiteJSONArray`), end a string at its first NUL, so such an
    /// ID could be stored but never found again (its messages would have no author).
    private static func validateID(
        _ id: String, field: @autoclosure () -> String, mayBeEmpty: Bool = false
    ) throws(TimelineStoreError) {
        if id.isEmpty && !mayBeEmpty { throw .invalidValue(field: field(), reason: "it is empty") }
        if id.utf8.contains(0) {
            throw .invalidValue(field: field(), reason: "\(QuotedValue.quoted(id)) holds the character U+0000 (NUL), which no ID may hold")
        }
    }
}

extension SQLiteConnection {
    /// Runs `body`, turning its SQLite errors into the store's errors for this connection.
    func reportingStoreErrors<T>(_ body: () throws(SQLiteError) -> T) throws(TimelineStoreError) -> T {
        do { return try body() } catch { throw TimelineStoreError(error, on: self) }
    }
}

extension TimelineStoreError {
    /// Names the SQLite failures a person can act on; the rest stay SQLite errors.
    init(_ error: SQLiteError, on connection: SQLiteConnection) {
        switch error.code.primary {
        case .busy, .locked: self = .busy(path: connection.path, waitedMilliseconds: connection.busyTimeoutMilliseconds)
        case .notADatabase: self = .notATimelineDatabase(path: connection.path, reason: error.message)
        case .readOnly, .cantOpen: self = TimelineStoreError.readOnly(forDatabaseAt: connection.path) ?? .sqlite(error)
        default: self = .sqlite(error)
        }
    }
}
