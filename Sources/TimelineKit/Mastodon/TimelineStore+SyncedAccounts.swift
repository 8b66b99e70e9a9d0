#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where one account's sync stands, as `TimelineStore.syncedAccount(named:)` reads it.
public struct SyncedAccountState: Sendable, Hashable {
    /// The account's name.
    public var account: String
    /// The server its IDs come from (`ServerAddress.authority`).
    public var server: String
    /// When its last sync completed, if ever (`timeline sync --if-older` compares with it).
    public var lastSyncedAt: Date?
    /// How many statuses its home timeline holds here.
    public var homeStatuses: Int
    /// Parts of the home timeline still to fetch between fetched parts.
    public var gapsLeft: Int
    /// The server's home read marker as last seen or set (the server's status ID).
    public var readMarker: String?
}

extension TimelineStore {
    /// The newest `limit` notifications, of `account` or of every synced account, newest first,
    /// with the users who acted and the messages they are about (read with their short
    /// references, so a line can name the post a command acts on). With `kinds`, only
    /// notifications of those kinds (`show --notifications --only mentions`), chosen by the
    /// query, so a page of mentions is full even when likes outnumber them.
    ///
    /// ```swift
    /// for notification in try store.notifications(limit: 20) {
    ///     print(NotificationRenderer().line(for: notification, now: .now))
    /// }
    /// ```
    public func notifications(
        account: String? = nil, kinds: Set<NotificationKind>? = nil, limit: Int
    ) throws(TimelineStoreError) -> [TimelineNotification] {
        try read { reader throws(SQLiteError) -> [TimelineNotification] in
            let statement = try reader.connection.statement("""
                SELECT account, id, type, created_at, actor_id, message_id, group_count FROM synced_entries
                WHERE timeline = 'notifications' AND (?1 IS NULL OR account = ?1)
                  AND (?3 IS NULL OR type IN (SELECT value FROM json_each(?3)))
                ORDER BY created_at DESC, account, position DESC LIMIT ?2
                """)
            defer { statement.reset() }
            try statement.bind(account, at: 1)
            try statement.bind(kinds.map { SQLiteJSONArray($0.map(\.rawValue).sorted()).json }, at: 3)
            // Read past `limit` by as many as the rules may leave out, so that a page is full
            // unless there is no more (issue 34); bounded, as every read is.
            try statement.bind(max(0, limit).saturatingAdding(Self.notificationsLeftOutAtMost), at: 2)
            var rows: [(account: String, id: String, kind: String, createdAt: Int64, actorID: String?, messageID: String?, count: Int64?)] = []
            while try statement.step() {
                rows.append((statement.text(at: 0), statement.text(at: 1), statement.text(at: 2), statement.int64(at: 3),
                             statement.optionalText(at: 4), statement.optionalText(at: 5), statement.optionalInt64(at: 6)))
            }
            let messages = try reader.messages(ids: Set(rows.compactMap(\.messageID)))
            let messagesByID = Dictionary(messages.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let users = try reader.users(ids: Set(rows.compactMap(\.actorID)))
            let usersByID = Dictionary(users.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            // What the person's rules hide is not notified either (issue 34): a notification
            // about a hidden post, or from an account muted or blocked.
            let rules = try ModerationRulesRow.merged(on: reader.connection)
            let now = Date()
            return rows.filter { row in
                if let messageID = row.messageID, messagesByID[messageID]?.hiddenBecause != nil { return false }
                guard let actor = row.actorID else { return true }
                if rules.blockedAccounts.contains(actor) { return false }
                if let mute = rules.mutedAccounts[actor], mute.map({ $0 > now }) ?? true { return false }
                return true
            }.prefix(max(0, limit)).map { row in
                TimelineNotification(
                    account: row.account, serverID: row.id, kind: NotificationKind(rawValue: row.kind),
                    createdAt: MillisecondTime.date(fromMilliseconds: row.createdAt),
                    actor: row.actorID.flatMap { usersByID[$0] }, message: row.messageID.flatMap { messagesByID[$0] },
                    messageID: row.messageID, count: row.count.map { Int(clamping: max(1, $0)) } ?? 1)
            }
        }
    }

    /// What each account's server held back from its notifications at its last sync (Mastodon
    /// 4.3's filtered notifications), for the accounts whose servers said so and hold some back.
    public func heldBackNotifications() throws(TimelineStoreError) -> [HeldBackNotifications] {
        try read { reader throws(SQLiteError) -> [HeldBackNotifications] in
            let statement = try reader.connection.statement("""
                SELECT account, json_extract(state, '$.held_back.requests'), json_extract(state, '$.held_back.notifications')
                FROM synced_timelines WHERE timeline = 'notifications' AND json_extract(state, '$.held_back.requests') > 0
                ORDER BY account
                """)
            defer { statement.reset() }
            var result: [HeldBackNotifications] = []
            while try statement.step() {
                result.append(HeldBackNotifications(account: statement.text(at: 0), requests: statement.int(at: 1),
                                                    notifications: statement.int(at: 2)))
            }
            return result
        }
    }

    /// How many notifications the person's rules may leave out of one page before it comes up short.
    static let notificationsLeftOutAtMost = 500

    /// Where the sync of `account` stands; `nil` when it was never synced.
    public func syncedAccount(named account: String) throws(TimelineStoreError) -> SyncedAccountState? {
        try syncedAccounts().first { $0.account == account }
    }

    /// Every account that was ever synced into this database, by name.
    public func syncedAccounts() throws(TimelineStoreError) -> [SyncedAccountState] {
        try read { reader throws(SQLiteError) -> [SyncedAccountState] in
            let statement = try reader.connection.statement("""
                SELECT account, json_extract(state, '$.server'), json_extract(state, '$.synced_at'), json_extract(state, '$.marker_id'),
                       (SELECT count(*) FROM synced_entries AS entry JOIN messages ON messages.id = entry.message_id
                        WHERE entry.account = synced.account AND entry.timeline = 'home'),
                       (SELECT count(*) FROM json_each(synced.state, '$.gaps') AS gap
                        WHERE json_extract(gap.value, '$.lower_id') IS NOT NULL)
                FROM synced_timelines AS synced WHERE timeline = 'home' ORDER BY account
                """)
            defer { statement.reset() }
            var result: [SyncedAccountState] = []
            while try statement.step() {
                result.append(SyncedAccountState(
                    account: statement.text(at: 0), server: statement.text(at: 1),
                    lastSyncedAt: statement.optionalInt64(at: 2).map(MillisecondTime.date(fromMilliseconds:)),
                    homeStatuses: statement.int(at: 4), gapsLeft: statement.int(at: 5), readMarker: statement.optionalText(at: 3)))
            }
            return result
        }
    }

    /// Forgets what was synced for `account` (`timeline logout`): which messages its timelines
    /// held, its gaps, notifications and read marker. The messages and users stay; a later sync
    /// starts again as a first sync.
    public func forgetSyncedAccount(named account: String) throws(TimelineStoreError) {
        try storeWrite(refreshingSnapshot: false) { transaction throws(TimelineStoreError) in
            try transaction.withSQLite { () throws(SQLiteError) in try SyncLedger.forget(account: account, on: transaction.connection) }
        }
    }
}
