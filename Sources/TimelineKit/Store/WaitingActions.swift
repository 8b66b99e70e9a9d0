/// How many actions wait to be sent to their servers, per account (issue 27), for `doctor` and
/// `accounts`. This is the one place that counts them: every queue of actions waiting for a
/// server is counted here: `pending_actions` (favourites, boosts and bookmarks and their undo,
/// kept while their server cannot be reached) and the outbox in the same table (``OutboxEntry``:
/// posts, edits, votes, follows, unfollows and deletes); a queue added beside them adds its rows to
/// `TimelineReader.waitingActions()`, and every command that shows the count follows.
public struct WaitingActions: Sendable, Hashable {
    /// The count of each account (its name in `timeline accounts`) that has any waiting.
    public var byAccount: [String: Int]

    public init(byAccount: [String: Int] = [:]) {
        self.byAccount = byAccount
    }

    /// Every account's together.
    public var total: Int { byAccount.values.reduce(0, +) }

    /// The count of `account`: 0 when none waits.
    public func count(for account: String) -> Int { byAccount[account] ?? 0 }

    /// These and `other`'s together (the actions of another database: a hashtag's timeline).
    public func adding(_ other: WaitingActions) -> WaitingActions {
        WaitingActions(byAccount: byAccount.merging(other.byAccount, uniquingKeysWith: +))
    }
}

extension TimelineReader {
    /// Counts the actions waiting in every queue, grouped by account. A queue that a database
    /// of an older schema has not got yet holds nothing.
    func waitingActions() throws(SQLiteError) -> WaitingActions {
        var counts: [String: Int] = [:]
        // The favourites, boosts and bookmarks, and the outbox's posts, edits, votes, follows
        // and deletes, rows of the same table since migration 14.
        for query in ["SELECT account, count(*) FROM pending_actions GROUP BY account"] {
            guard let statement = try? connection.statement(query) else { continue }
            defer { statement.reset() }
            while try statement.step() {
                counts[statement.text(at: 0), default: 0] += statement.int(at: 1)
            }
        }
        return WaitingActions(byAccount: counts)
    }
}

extension TimelineStore {
    /// The actions waiting to be sent, per account (``WaitingActions``).
    public func waitingActions() throws(TimelineStoreError) -> WaitingActions {
        try read { reader throws(SQLiteError) in try reader.waitingActions() }
    }

    /// The actions waiting in the database at `path`, read without creating, migrating or
    /// changing it: none when there is no database (or an empty file) there.
    ///
    /// - Throws: `TimelineStoreError` when the file cannot be read or is not a timeline database.
    public static func waitingActions(inDatabaseAt path: String) throws(TimelineStoreError) -> WaitingActions {
        switch try DatabaseIdentity.identify(path, busyTimeoutMilliseconds: 2000) {
        case .missing, .empty:
            return WaitingActions()
        case let .foreign(reason):
            throw .notATimelineDatabase(path: path, reason: reason)
        case .timeline:
            let connection = try ReadingConnection.open(path, mode: .readOnly, busyTimeoutMilliseconds: 2000).connection
            return try connection.reportingStoreErrors { () throws(SQLiteError) in
                try TimelineReader(connection: connection).waitingActions()
            }
        }
    }
}
