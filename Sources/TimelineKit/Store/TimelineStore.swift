#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The timeline's messages and users in an SQLite database, and the snapshot beside it.
///
/// ```swift
/// let store = try TimelineStore(path: "/home/me/.local/share/timeline/timeline.sqlite")
/// try store.write { transaction in
///     try transaction.upsert(users: [User(id: "u1", handle: "alice", name: "Alice")])
///     try transaction.upsert(messages: [Message(id: "m1", authorID: "u1", text: "hello", createdAt: .now)])
/// }
/// let page = try store.timeline(limit: 20)
/// ```
///
/// **Concurrency.** A store is `Sendable`: share one across tasks and threads. All writes go
/// through one writer connection, one transaction at a time, behind a lock (the serial writer of a
/// process; SQLite's file locks serialise writers of different processes). Reads use a separate
/// connection, and the database runs in WAL mode, so reading never waits for a writer and never
/// blocks one. Calls are synchronous and short; long imports should batch into transactions.
///
/// **Snapshot.** After every write transaction, the store rewrites the snapshot from committed
/// data (unless it is already fresh), atomically, while holding a lock file that every writer of
/// the snapshot takes: so an older snapshot never replaces a newer one, even across processes.
///
/// **Upkeep.** Write transactions also keep the WAL bounded and run a weekly upkeep, as
/// `Configuration.maintenance` (a `MaintenancePolicy`) says; reads never do. `checkHealth`,
/// `prune(olderThan:keepUnread:dryRun:)` and `vacuum()` are the rest of the maintenance API.
public final class TimelineStore: Sendable {
    /// The database file.
    public let path: String
    /// How the store was opened.
    public let configuration: Configuration
    /// The snapshot beside the database.
    public let snapshotFile: SnapshotFile

    /// The newest schema version this TimelineKit knows (and gives every database it opens).
    public static var latestSchemaVersion: Int { Migration.latestVersion }

    /// The schema version of the database at `path` (`PRAGMA user_version`; 0 for an empty
    /// file), read without changing or migrating anything.
    ///
    /// - Throws: `.databaseMissing`, `.notATimelineDatabase` (another program's file, left as
    ///   it was), `.cannotOpen`.
    public static func schemaVersion(ofDatabaseAt path: String) throws(TimelineStoreError) -> Int {
        switch try DatabaseIdentity.identify(path, busyTimeoutMilliseconds: Configuration().busyTimeoutMilliseconds) {
        case .missing: throw .databaseMissing(path: path)
        case .empty: return 0
        case let .foreign(reason): throw .notATimelineDatabase(path: path, reason: reason)
        case .timeline: break
        }
        return try ReadingConnection.open(path, mode: .readOnly, busyTimeoutMilliseconds: Configuration().busyTimeoutMilliseconds).schemaVersion
    }

    /// The writer connection, opened on the first write: `timeline show` only reads.
    let writer: GuardedConnection
    let reader: GuardedConnection
    /// Set when there was no database at `path`: the first write creates it.
    let creation: DatabaseCreation?

    /// Whether the database can only be read from here: its file, or the directory that must
    /// hold its `-wal` and `-shm`, is read-only (permissions, a read-only file system). Reads
    /// work; writes throw `TimelineStoreError.readOnly`, naming what cannot be written.
    public let isReadOnly: Bool

    /// Opens the database at `path` and migrates it to the newest schema.
    ///
    /// Nothing is written before the file is known to be a timeline database: another program's
    /// file (told by SQLite's application ID, see `DatabaseIdentity`) is refused exactly as it
    /// was. Where there is no database and `configuration.createIfMissing` allows, nothing is
    /// created yet: the store reads as an empty timeline, and the first write that commits
    /// creates the database (private: 0600, in 0700 directories) with that write in it. A
    /// database that cannot be written here (`isReadOnly`) is opened for reading, and migrated
    /// only when its schema could not be read otherwise.
    ///
    /// - Throws: `TimelineStoreError.databaseNewerThanLibrary` for a database written by a newer
    ///   TimelineKit (left untouched), `.notATimelineDatabase`, `.databaseMissing` (also for an
    ///   empty file without `createIfMissing`), `.cannotOpen`, `.readOnly` (an older schema
    ///   that must be migrated to be read, where it cannot be written), `.busy`.
    public init(path: String, configuration: Configuration = Configuration()) throws(TimelineStoreError) {
        self.path = path
        self.configuration = configuration
        self.snapshotFile = SnapshotFile(path: configuration.snapshotPath ?? SnapshotFile.path(forDatabaseAt: path))

        let (identity, headerConnection) = try DatabaseIdentity.identifyReading(path, busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds)
        switch identity {
        case let .foreign(reason):
            throw .notATimelineDatabase(path: path, reason: reason)
        case .missing, .empty:
            guard configuration.createIfMissing else { throw .databaseMissing(path: path) }
            let creation = DatabaseCreation(path: path)
            self.creation = creation
            self.isReadOnly = false
            self.reader = GuardedConnection(nil) { () throws(TimelineStoreError) in
                // Until the first write, what there is to read is an empty timeline.
                if creation.isPending { return try Self.openEmptyTimeline() }
                return try Self.openReader(path: path, configuration: configuration).connection
            }
            self.writer = GuardedConnection(nil) { () throws(TimelineStoreError) in
                // Only `write` creates the database; upkeep has nothing to work on before.
                if creation.isPending { throw .databaseMissing(path: path) }
                let connection = try Self.openWriter(path: path, configuration: configuration)
                // Another process may have created it, with an older timeline.
                try SchemaMigrator.migrate(connection)
                return connection
            }
            return
        case .timeline:
            self.creation = nil
        }

        let opened = try Self.openReader(path: path, configuration: configuration, reusing: headerConnection)
        let readerConnection = opened.connection
        try SchemaMigrator.checkNotNewer(opened.version, path: path)
        var writerConnection: SQLiteConnection?
        let rebuilds = Migration.rebuildsTables(after: opened.version)
        if opened.readOnly {
            if rebuilds { throw Self.cannotWrite(path) }
            try Self.addMissingMessageColumns(to: readerConnection, version: opened.version)
        } else if opened.version < Migration.latestVersion {
            if Migration.takesTime(after: opened.version), let limit = configuration.migrationSizeLimit,
               let bytes = FileSystem.size(at: path), bytes > limit {
                throw .migrationNeeded(path: path, schemaVersion: opened.version, newestKnown: Migration.latestVersion, bytes: bytes)
            }
            let connection = try Self.openWriter(path: path, configuration: configuration)
            try SchemaMigrator.migrate(connection)
            writerConnection = connection
        }
        let readOnly = opened.readOnly
        self.isReadOnly = readOnly
        self.reader = GuardedConnection(readerConnection) { () throws(TimelineStoreError) in
            preconditionFailure("the reader connection is opened by init")
        }
        self.writer = GuardedConnection(writerConnection) { () throws(TimelineStoreError) in
            if readOnly { throw Self.cannotWrite(path) }
            return try Self.openWriter(path: path, configuration: configuration)
        }
    }

    /// Why a database that was opened only for reading cannot be written.
    /// A database older than migration 18 that cannot be written is read as if it had the columns
    /// migrations 16, 17 and 18 add, all NULL (no visibility known, nothing hidden, no links): a
    /// temporary view of the same name goes before the table for this connection alone, writing
    /// nothing to the file.
    /// Migration 20's columns of `synced_entries` (grouped notifications) are added the same way,
    /// read as NULL: one notification each.
    private static func addMissingMessageColumns(to connection: SQLiteConnection, version: Int) throws(TimelineStoreError) {
        if version < 20 {
            try connection.reportingStoreErrors { () throws(SQLiteError) in
                try connection.execute("PRAGMA temp_store = MEMORY")
                try connection.execute("PRAGMA query_only = 0")
                defer { try? connection.execute("PRAGMA query_only = 1") }
                try connection.execute("""
                    CREATE TEMP VIEW synced_entries AS SELECT *, NULL AS group_key, NULL AS group_count FROM main.synced_entries
                    """)
            }
        }
        guard version < 18 else { return }
        // Migration 16's four columns, then 17's source, then 18's links.
        let missing = (version < 16 ? "NULL AS visibility, NULL AS moderation, NULL AS warning, NULL AS hidden, " : "")
            + (version < 17 ? "NULL AS source, " : "") + "NULL AS links"
        try connection.reportingStoreErrors { () throws(SQLiteError) in
            // In memory: the view's schema needs a temporary database, and the directories a
            // temporary file would go to may be read-only too.
            // `query_only` refuses a temporary schema as well: lifted for the one statement.
            try connection.execute("PRAGMA temp_store = MEMORY")
            try connection.execute("PRAGMA query_only = 0")
            defer { try? connection.execute("PRAGMA query_only = 1") }
            try connection.execute("""
                CREATE TEMP VIEW messages AS SELECT *, \(missing) FROM main.messages
                """)
        }
    }

    private static func cannotWrite(_ path: String) -> TimelineStoreError {
        .readOnly(forDatabaseAt: path) ?? .cannotOpen(path: path, reason: "SQLite could open it only for reading")
    }

    /// The reader: read-write, so that SQLite can keep the WAL index in the `-shm` as every
    /// reader does, but refusing writes (`query_only`), so that a bug that tried would fail
    /// instead of racing the writer. Where the database cannot be written, a read-only
    /// connection (`ReadingConnection`); `readOnly` says so.
    private static func openReader(
        path: String, configuration: Configuration, reusing headerConnection: SQLiteConnection? = nil
    ) throws(TimelineStoreError) -> (connection: SQLiteConnection, version: Int, readOnly: Bool) {
        let opened = try ReadingConnection.open(path, mode: .readWrite, busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds,
                                                reusing: headerConnection)
        let connection = opened.connection
        try connection.reportingStoreErrors { () throws(SQLiteError) in
            try connection.execute("PRAGMA query_only = 1")
        }
        // SQLite opens a file it may not write read-only without saying so.
        return (connection, opened.schemaVersion, opened.fellBack || connection.isReadOnly)
    }

    /// An empty timeline in memory: the schema and nothing else, what a store reads before the
    /// first write creates its database. Built only for a store that reads before it writes.
    private static func openEmptyTimeline() throws(TimelineStoreError) -> SQLiteConnection {
        let connection: SQLiteConnection
        do {
            connection = try SQLiteConnection(path: ":memory:", mode: .readWriteCreate)
        } catch {
            throw .cannotOpen(path: ":memory:", reason: error.message)
        }
        try SchemaMigrator.migrate(connection)
        return connection
    }

    private static func openConnection(path: String, configuration: Configuration) throws(TimelineStoreError) -> SQLiteConnection {
        try ReadingConnection.opening(path, mode: .readWrite, busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds)
    }

    /// The writer. `enablingWAL: false` keeps the journal mode as it is: a database being
    /// created switches to WAL only after its first transaction (`DatabaseCreation`).
    static func openWriter(path: String, configuration: Configuration, enablingWAL: Bool = true) throws(TimelineStoreError) -> SQLiteConnection {
        let connection = try openConnection(path: path, configuration: configuration)
        try connection.reportingStoreErrors { () throws(SQLiteError) -> Void in
            // A database created now gets incremental auto-vacuum, so that a prune can give its
            // pages back to the file system without rewriting the whole file. SQLite takes the
            // mode only before the first page is written, and `journal_mode = WAL` writes one.
            // Older databases switch with `timeline vacuum` (see `vacuum()`).
            if try Self.pageCount(connection) == 0 {
                try connection.execute("PRAGMA auto_vacuum = INCREMENTAL")
            }
            // WAL: readers (every terminal's `show`) never block the writer, nor it them.
            if enablingWAL { try connection.execute("PRAGMA journal_mode = WAL") }
            // FULL makes each commit durable before the snapshot that describes it is written. With
            // NORMAL, a power loss could roll the database back behind a snapshot already on disk,
            // and a later commit could reach the same generation with different contents.
            try connection.execute("PRAGMA synchronous = FULL")
            try connection.execute("PRAGMA foreign_keys = ON")
            // Bulk ingest touches many index pages; with SQLite's default 2 MB cache it re-read
            // them from the WAL through system calls (a fifth of ingest time). 32 MB, writer only.
            try connection.execute("PRAGMA cache_size = -32768")
            // A checkpoint that resets the WAL cuts the file back to this size, so one huge
            // transaction does not leave a huge WAL behind for good (see `MaintenancePolicy`).
            try connection.execute("PRAGMA journal_size_limit = \(configuration.maintenance.walSizeLimit)")
        }
        return connection
    }

    private static func pageCount(_ connection: SQLiteConnection) throws(SQLiteError) -> Int {
        let statement = try connection.statement("PRAGMA page_count")
        defer { statement.reset() }
        return try statement.step() ? statement.int(at: 0) : 0
    }

    // MARK: Reading

    /// Runs `body` in one read transaction on the reader connection: everything it reads comes
    /// from the same committed state of the database.
    func read<T: Sendable>(_ body: (TimelineReader) throws(SQLiteError) -> T) throws(TimelineStoreError) -> T {
        try Self.unwrap(reader.withConnection { connection throws(TimelineStoreError) -> T in
            try Self.inReadTransaction(connection, body)
        })
    }

    /// `withConnection`'s result with its error flattened back to the store's error type.
    static func unwrap<T>(_ result: @autoclosure () throws(GuardedConnectionError<TimelineStoreError>) -> T) throws(TimelineStoreError) -> T {
        do throws(GuardedConnectionError<TimelineStoreError>) {
            return try result()
        } catch {
            switch error {
            case let .open(failure), let .body(failure): throw failure
            }
        }
    }

    static func inReadTransaction<T>(
        _ connection: SQLiteConnection, _ body: (TimelineReader) throws(SQLiteError) -> T
    ) throws(TimelineStoreError) -> T {
        try connection.reportingStoreErrors { () throws(SQLiteError) -> T in
            try connection.execute("BEGIN")
            do throws(SQLiteError) {
                let value = try body(TimelineReader(connection: connection))
                try connection.execute("COMMIT")
                return value
            } catch {
                if !connection.isAutocommit { try? connection.execute("ROLLBACK") }
                throw error
            }
        }
    }

    /// The database's identity, generation and counts. O(1): kept by triggers.
    public func state() throws(TimelineStoreError) -> TimelineState {
        try read { reader throws(SQLiteError) in try reader.state() }
    }

    /// SQLite's `PRAGMA data_version` on the reader connection: it differs from the value read
    /// before whenever another connection (of this process or any other, the `sqlite3` shell
    /// included) committed in between. In WAL mode it is answered from the shared-memory WAL
    /// index, without reading the database file: cheap enough to ask ten times a second.
    /// The reader never writes, so every write of this store counts as another connection's.
    func dataVersion() throws(TimelineStoreError) -> Int64 {
        try Self.unwrap(reader.withConnection { connection throws(TimelineStoreError) -> Int64 in
            try connection.reportingStoreErrors { () throws(SQLiteError) -> Int64 in
                let statement = try connection.statement("PRAGMA data_version")
                defer { statement.reset() }
                guard try statement.step() else {
                    throw SQLiteError(code: .error, message: "PRAGMA data_version returned no row", sql: statement.sql)
                }
                return statement.int64(at: 0)
            }
        })
    }

    /// Up to `limit` messages, newest first (ties broken by ID), starting after `cursor`, with the
    /// messages they repost or quote and their authors. Pass the page's `nextCursor` to get the
    /// next, older page. Uses the `messages_by_time` index: the cost depends on `limit`, not on the
    /// size of the database.
    public func timeline(limit: Int, after cursor: TimelineCursor? = nil) throws(TimelineStoreError) -> TimelinePage {
        try read { reader throws(SQLiteError) in try reader.page(limit: limit, after: cursor) }
    }

    /// Up to `limit` messages in the order of ``timeline(limit:after:)``, starting after
    /// `cursor`, and the cursor of the next older page (`nil` at the oldest): the messages alone,
    /// without the reposted and quoted messages, authors and interactions a page carries, for a
    /// reader that walks the whole timeline and needs none of them (`export`: 40% of its
    /// instructions went to them, issue 28).
    public func timelineMessages(
        limit: Int, after cursor: TimelineCursor? = nil
    ) throws(TimelineStoreError) -> (messages: [Message], nextCursor: TimelineCursor?) {
        try read { reader throws(SQLiteError) in try reader.messagePage(limit: limit, after: cursor) }
    }

    /// The stored messages among `ids`, newest first.
    public func messages(ids: [String]) throws(TimelineStoreError) -> [Message] {
        try read { reader throws(SQLiteError) in try reader.messages(ids: ids) }
    }

    /// The stored message with this ID, if any.
    public func message(id: String) throws(TimelineStoreError) -> Message? {
        try messages(ids: [id]).first
    }

    /// The stored users among `ids`.
    public func users(ids: [String]) throws(TimelineStoreError) -> [User] {
        try read { reader throws(SQLiteError) in try reader.users(ids: ids) }
    }

    /// Every stored user, ordered by ID.
    public func allUsers() throws(TimelineStoreError) -> [User] {
        try read { reader throws(SQLiteError) in try reader.allUsers() }
    }

    /// The users with this handle (without `@`). Handles are not unique across servers.
    public func users(handle: String) throws(TimelineStoreError) -> [User] {
        try read { reader throws(SQLiteError) in try reader.users(handle: handle) }
    }

    // MARK: Writing

    /// Runs `body` in one write transaction: everything it does commits together when it returns,
    /// or is rolled back when it throws. Then refreshes the snapshot. The first write of a store
    /// opened where there was no database creates it, with this transaction in it; when that
    /// write fails, nothing is created (`DatabaseCreation`).
    ///
    /// Waits up to `configuration.busyTimeout` for another process's write lock.
    ///
    /// - Throws: what `body` throws (after rolling back), or a `TimelineStoreError`:
    ///   `.unknownAuthor` when a message's author is not stored by the end, `.busy`, `.readOnly`
    ///   when the database (or the directory that holds it) cannot be written, and
    ///   `.snapshotNotWritten` when the transaction committed but the snapshot could not be
    ///   rewritten (the database is fine; the old snapshot stays).
    @discardableResult
    public func write<T: Sendable>(_ body: (TimelineTransaction) throws -> T) throws -> T {
        try write(refreshingSnapshot: true, body)
    }

    /// `write(_:)`, leaving the snapshot as it is when `refreshingSnapshot` is false: a sync
    /// stores page after page and rewrites the snapshot once, at its end.
    func write<T: Sendable>(refreshingSnapshot: Bool, _ body: (TimelineTransaction) throws -> T) throws -> T {
        if let creation, creation.isPending {
            let outcome = try creation.createIfPending(configuration: configuration, body)
            // The empty timeline in memory gives way to the file.
            reader.reset()
            if case let .created(value) = outcome {
                try Self.unwrap(writer.withConnection { connection throws(TimelineStoreError) in
                    defer { maintainAfterWrite(using: connection) }
                    if refreshingSnapshot { try refreshSnapshotAfterWrite(using: connection) }
                })
                return value
            }
        }
        do throws(GuardedConnectionError<any Error>) {
            return try writer.withConnection { connection throws -> T in
                let value = try Self.inWriteTransaction(connection, body)
                // The snapshot first: it is what every terminal's `show` waits for.
                defer { maintainAfterWrite(using: connection) }
                if refreshingSnapshot { try refreshSnapshotAfterWrite(using: connection) }
                return value
            }
        } catch {
            switch error {
            case let .open(failure): throw failure
            case let .body(failure): throw failure
            }
        }
    }

    /// Runs `body` in one write transaction on `connection`; `migrating` applies the pending
    /// migrations first, in the same transaction (a database being created).
    static func inWriteTransaction<T>(
        _ connection: SQLiteConnection, migrating: Bool = false, _ body: (TimelineTransaction) throws -> T
    ) throws -> T {
        // IMMEDIATE takes the write lock now, waiting out the busy timeout here, instead of failing
        // halfway when a read transaction would have to upgrade.
        try connection.reportingStoreErrors { () throws(SQLiteError) in try connection.execute("BEGIN IMMEDIATE") }
        let transaction = TimelineTransaction(connection: connection)
        defer { transaction.isOpen = false }
        do {
            if migrating { try SchemaMigrator.applyPending(connection) }
            try connection.reportingStoreErrors { () throws(SQLiteError) in
                try SearchIndexBatch.prepare(connection)
                try connection.execute(SearchIndexBatch.begin)
            }
            let value = try body(transaction)
            // An upsert runs `OR FAIL`: one that failed may have left part of its work, which
            // must not commit even if the closure caught its error (`StoredColumns.makeInsert`).
            if let failure = transaction.failedUpsert { throw failure }
            try transaction.decideRepostsWaitingForTheirOriginals()
            try transaction.checkAuthorsExist()
            try transaction.restoreSearchTriggers()
            try connection.reportingStoreErrors { () throws(SQLiteError) in
                try SearchIndexBatch.finish(on: connection, flushingCache: transaction.isBulk)
                try connection.execute("COMMIT")
            }
            return value
        } catch {
            if !connection.isAutocommit { try? connection.execute("ROLLBACK") }
            if let error = error as? SQLiteError { throw TimelineStoreError(error, on: connection) }
            throw error
        }
    }

    /// Stores users and messages in one transaction; see `TimelineTransaction.upsert(messages:readState:)`.
    public func upsert(users: [User] = [], messages: [Message] = [], readState: ReadStateUpdate = .keepStored) throws(TimelineStoreError) {
        try storeWrite { transaction throws(TimelineStoreError) in
            try transaction.upsert(users: users)
            try transaction.upsert(messages: messages, readState: readState)
        }
    }

    /// Stores a new message written here, by the stored user `authorID`, and returns it. Its ID is
    /// `local-` followed by the time in milliseconds and random hex digits: it sorts by time and
    /// never collides with IDs from servers.
    @discardableResult
    public func post(_ text: String, authorID: String, at date: Date = Date()) throws(TimelineStoreError) -> Message {
        let milliseconds = MillisecondTime.milliseconds(from: date)
        let suffix = String(UInt32.random(in: 0 ... .max), radix: 16)
        let message = Message(
            id: "local-\(milliseconds)-" + String(repeating: "0", count: 8 - suffix.count) + suffix,
            authorID: authorID, text: text, createdAt: MillisecondTime.date(fromMilliseconds: milliseconds), isRead: true)
        try upsert(messages: [message])
        return message
    }

    /// Deletes messages by ID in one statement. Returns how many were deleted. IDs that name no
    /// message are passed over, or with `unknownIDs: .refuse` change nothing and throw
    /// `.unknownMessages` naming them.
    @discardableResult
    public func deleteMessages(ids: [String], unknownIDs: UnknownMessageIDs = .ignore) throws(TimelineStoreError) -> Int {
        try storeWrite { transaction throws(TimelineStoreError) in try transaction.deleteMessages(ids: ids, unknownIDs: unknownIDs) }
    }

    /// Marks messages read (or unread) by ID, in one SQL statement however many IDs there are.
    /// Returns how many changed. IDs that name no message are passed over, or with
    /// `unknownIDs: .refuse` change nothing and throw `.unknownMessages` naming them.
    ///
    /// ```swift
    /// do {
    ///     try store.markRead(ids: typedIDs, unknownIDs: .refuse)
    /// } catch let TimelineStoreError.unknownMessages(unknown, given) {
    ///     print("\(unknown.count) of \(given) IDs match no message; nothing was changed")
    /// }
    /// ```
    @discardableResult
    public func markRead(ids: [String], read: Bool = true, unknownIDs: UnknownMessageIDs = .ignore) throws(TimelineStoreError) -> Int {
        try storeWrite { transaction throws(TimelineStoreError) in try transaction.markRead(ids: ids, read: read, unknownIDs: unknownIDs) }
    }

    /// Marks every message read, in one statement. Returns how many changed.
    @discardableResult
    public func markAllRead() throws(TimelineStoreError) -> Int {
        try storeWrite { transaction throws(TimelineStoreError) in try transaction.markAllRead() }
    }

    /// `write(_:)` for bodies that throw only store errors, keeping the error type.
    func storeWrite<T: Sendable>(
        refreshingSnapshot: Bool = true, _ body: (TimelineTransaction) throws(TimelineStoreError) -> T
    ) throws(TimelineStoreError) -> T {
        do {
            return try write(refreshingSnapshot: refreshingSnapshot) { transaction in try body(transaction) }
        } catch let error as TimelineStoreError {
            throw error
        } catch {
            // `write` adds only TimelineStoreError to what the body throws, and this body throws
            // nothing else.
            preconditionFailure("unexpected error from a store write: \(error)")
        }
    }

    // MARK: Snapshot

    /// Builds a snapshot of the newest `limit` messages from the database, in one read transaction.
    public func makeSnapshot(limit: Int? = nil) throws(TimelineStoreError) -> TimelineSnapshot {
        let limit = min(TimelineSnapshot.maximumLimit, limit ?? configuration.snapshotLimit ?? (try? snapshotFile.readHeader().limit) ?? TimelineSnapshot.defaultLimit)
        return try read { reader throws(SQLiteError) in try Self.snapshot(from: reader, limit: limit) }
    }

    private static func snapshot(from reader: TimelineReader, limit: Int) throws(SQLiteError) -> TimelineSnapshot {
        TimelineSnapshot(state: try reader.state(), builtAt: Date(), limit: limit,
                         window: try reader.page(limit: limit, after: nil))
    }

    /// What `writeSnapshot` did.
    public enum SnapshotWrite: Sendable, Equatable {
        /// A new snapshot of this generation was written.
        case written(generation: Int64)
        /// The snapshot on disk already showed the database's current generation.
        case alreadyFresh(generation: Int64)
        /// Another process held the snapshot lock past `lockTimeout`; it is writing one now.
        case lockBusy
    }

    /// Rewrites the snapshot from the database unless it is already fresh (or always, with
    /// `force`). Holds the snapshot lock file while it reads and writes, so concurrent writers
    /// cannot put an older snapshot over a newer one. Waits at most `lockTimeout` for that lock
    /// (forever when `nil`).
    /// `limit` sets how many messages it holds; by default the configuration's, else the limit of
    /// the snapshot on disk, else `TimelineSnapshot.defaultLimit`.
    ///
    /// `reusing` is a snapshot just built from this database, such as the `snapshot` of a
    /// `reconcile(_:atLeast:wholeWindow:)` answer: when the database is still at its generation
    /// and it holds `limit` messages, it is written as it is instead of reading the window again.
    ///
    /// - Throws: `.databaseMissing` before the first write has created the database: there is
    ///   nothing to take a snapshot of, and no snapshot is written beside a file that is not there.
    @discardableResult
    public func writeSnapshot(
        limit: Int? = nil, force: Bool = false, lockTimeout: Duration? = nil, reusing candidate: TimelineSnapshot? = nil
    ) throws(TimelineStoreError) -> SnapshotWrite {
        if creation?.isPending == true { throw .databaseMissing(path: path) }
        return try Self.unwrap(reader.withConnection { connection throws(TimelineStoreError) -> SnapshotWrite in
            try refreshSnapshot(using: connection, limit: limit, force: force, lockTimeout: lockTimeout, reusing: candidate)
        })
    }

    private func refreshSnapshotAfterWrite(using connection: SQLiteConnection) throws(TimelineStoreError) {
        guard configuration.writesSnapshot else { return }
        _ = try refreshSnapshot(using: connection, limit: nil, force: false, lockTimeout: nil, reusing: nil)
    }

    private func refreshSnapshot(
        using connection: SQLiteConnection, limit requestedLimit: Int?, force: Bool, lockTimeout: Duration?,
        reusing candidate: TimelineSnapshot?
    ) throws(TimelineStoreError) -> SnapshotWrite {
        let file = snapshotFile
        let configuredLimit = requestedLimit ?? configuration.snapshotLimit
        do throws(FileLockError<TimelineStoreError>) {
            let outcome = try FileLock.withLock(file.path + ".lock", timeout: lockTimeout) { () throws(TimelineStoreError) -> SnapshotWrite in
                // Read under the lock: whoever holds it last reads the newest committed state, so
                // the last snapshot written is never older than one written before it.
                let existing = try? file.readHeader()
                let limit = min(TimelineSnapshot.maximumLimit, max(0, configuredLimit ?? existing?.limit ?? TimelineSnapshot.defaultLimit))
                let snapshot = try Self.inReadTransaction(connection) { reader throws(SQLiteError) -> TimelineSnapshot? in
                    let state = try reader.state()
                    if !force, let existing, state.isShown(bySnapshotOf: existing.databaseID, at: existing.generation),
                       existing.limit == limit {
                        return nil
                    }
                    // Nothing moved since the candidate was read: its window is what this would read.
                    if let candidate, candidate.limit == limit, candidate.isFresh(for: state) { return candidate }
                    return TimelineSnapshot(state: state, builtAt: Date(), limit: limit,
                                            window: try reader.page(limit: limit, after: nil))
                }
                guard let snapshot else { return .alreadyFresh(generation: existing?.generation ?? 0) }
                do throws(SnapshotError) {
                    try file.write(snapshot)
                } catch {
                    // The store's error names the path and what it means; only the cause goes in.
                    if case let .notWritten(_, reason) = error {
                        throw .snapshotNotWritten(path: file.path, reason: reason)
                    }
                    throw .snapshotNotWritten(path: file.path, reason: error.description)
                }
                return .written(generation: snapshot.generation)
            }
            return outcome ?? .lockBusy
        } catch {
            switch error {
            case let .lock(failure): throw .snapshotNotWritten(path: file.path, reason: failure.description)
            case let .body(failure): throw failure
            }
        }
    }

    /// Compares the snapshot file with the database: fresh, stale, missing or unusable (and why).
    /// Reads only the snapshot's header and the database's one-row state.
    public func snapshotStatus() throws(TimelineStoreError) -> SnapshotStatus {
        let header: SnapshotHeader
        do throws(SnapshotError) {
            header = try snapshotFile.readHeader()
        } catch {
            if case .missing = error { return .missing }
            return .unusable(error)
        }
        return SnapshotStatus(header: header, state: try state())
    }

    /// Bytes on disk of the database, its write-ahead log and the snapshot (0 for a missing file).
    public struct DiskUsage: Sendable, Hashable {
        public var database: Int
        public var writeAheadLog: Int
        public var snapshot: Int
    }

    /// How much disk the timeline takes.
    public func diskUsage() -> DiskUsage {
        DiskUsage(database: FileSystem.size(at: path) ?? 0,
                  writeAheadLog: FileSystem.size(at: path + "-wal") ?? 0,
                  snapshot: FileSystem.size(at: snapshotFile.path) ?? 0)
    }

    // MARK: Reconciling

    /// What changed in the database since `snapshot` was built: new, edited, removed messages and
    /// the new window and counts. When the database is at the snapshot's generation the answer
    /// comes from that comparison alone; otherwise it reads one window. Either way the cost depends
    /// on the snapshot's size, not on the database's.
    public func reconcile(_ snapshot: TimelineSnapshot) throws(TimelineStoreError) -> TimelineChanges {
        try read { reader throws(SQLiteError) -> TimelineChanges in
            try TimelineChanges.since(snapshot, state: try reader.state(), reader: reader)
        }
    }
}
