#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension TimelineStore {
    /// Removes the messages created before `cutoff`, and the users only they referred to, in one
    /// write transaction; the snapshot is rewritten after it like after any write. Then gives the
    /// freed pages back to the file system (on databases with incremental auto-vacuum; older ones
    /// need `vacuum()` once) and truncates the WAL.
    ///
    /// What stays (see `MaintenanceStatements` for the SQL):
    /// - with `keepUnread`, every unread message, however old;
    /// - old messages that a remaining message reposts or quotes, so that it still shows them;
    /// - users that a remaining message names as author or as the user it replies to, users a
    ///   remaining notification names, and users that no message ever named;
    /// - the messages remaining notifications are about. Synced accounts' notifications from
    ///   before `cutoff` go.
    /// Replies and reposts whose originals are removed stay; the timeline shows them without it.
    ///
    /// With `dryRun`, nothing is written: the summary has the same counts from a read.
    ///
    /// - Throws: `.busy` when another process keeps the database locked (nothing is removed),
    ///   `.snapshotNotWritten` when the prune committed but the snapshot could not be rewritten.
    @discardableResult
    public func prune(olderThan cutoff: Date, keepUnread: Bool = false, dryRun: Bool = false) throws(TimelineStoreError) -> PruneSummary {
        let milliseconds = MillisecondTime.milliseconds(from: cutoff)
        var summary = PruneSummary(cutoff: cutoff, isDryRun: dryRun, messagesRemoved: 0, usersRemoved: 0,
                                   unreadKept: 0, freeableBytes: 0, maintenance: nil)
        if dryRun {
            try Self.unwrap(reader.withConnection { connection throws(TimelineStoreError) in
                try Self.inReadTransaction(connection) { _ throws(SQLiteError) in
                    let count = { (sql: String) throws(SQLiteError) -> Int in
                        try Self.count(sql, cutoff: milliseconds, keepUnread: keepUnread, on: connection)
                    }
                    summary.messagesRemoved = try count(MaintenanceStatements.countMessages)
                    summary.usersRemoved = try count(MaintenanceStatements.countUsers)
                    summary.notificationsRemoved = try count(MaintenanceStatements.countNotifications)
                    summary.unreadKept = try count(MaintenanceStatements.countUnreadKept)
                    let total = try connection.integer("SELECT message_count FROM timeline_state") ?? 0
                    let pageSize = try connection.integer("PRAGMA page_size") ?? 0
                    let pages = try connection.integer("PRAGMA page_count") ?? 0
                    let free = try connection.integer("PRAGMA freelist_count") ?? 0
                    let share = total > 0 ? Double(summary.messagesRemoved) / Double(total) : 0
                    summary.freeableBytes = (free + Int((Double(pages - free) * share).rounded())) * pageSize
                }
            })
            return summary
        }
        let bytesBefore = databaseAndWALBytes()
        try storeWrite { transaction throws(TimelineStoreError) in
            let connection = transaction.connection
            try connection.reportingStoreErrors { () throws(SQLiteError) in
                summary.unreadKept = try Self.count(MaintenanceStatements.countUnreadKept, cutoff: milliseconds,
                                                    keepUnread: keepUnread, on: connection)
                summary.usersRemoved = try Self.run(MaintenanceStatements.deleteUsers, cutoff: milliseconds,
                                                    keepUnread: keepUnread, on: connection)
                summary.messagesRemoved = try Self.run(MaintenanceStatements.deleteMessages, cutoff: milliseconds,
                                                       keepUnread: keepUnread, on: connection)
                // After the messages and users: their conditions read the notifications that stay.
                summary.notificationsRemoved = try Self.run(MaintenanceStatements.deleteNotifications, cutoff: milliseconds,
                                                            keepUnread: keepUnread, on: connection)
                _ = try Self.run(MaintenanceStatements.deleteHomeEntries, cutoff: milliseconds, keepUnread: keepUnread, on: connection)
                let free = try connection.integer("PRAGMA freelist_count") ?? 0
                summary.freeableBytes = free * (try connection.integer("PRAGMA page_size") ?? 0)
            }
        }
        if summary.messagesRemoved > 0 || summary.notificationsRemoved > 0 {
            summary.maintenance = try Self.unwrap(writer.withConnection { connection throws(TimelineStoreError) in
                try upkeep(using: connection, releaseFreePages: true)
            })
            summary.maintenance?.bytesBefore = bytesBefore
        }
        return summary
    }

    private static func count(_ sql: String, cutoff: Int64, keepUnread: Bool, on connection: SQLiteConnection) throws(SQLiteError) -> Int {
        let statement = try bound(sql, cutoff: cutoff, keepUnread: keepUnread, on: connection)
        defer { statement.reset() }
        return try statement.step() ? statement.int(at: 0) : 0
    }

    private static func run(_ sql: String, cutoff: Int64, keepUnread: Bool, on connection: SQLiteConnection) throws(SQLiteError) -> Int {
        let statement = try bound(sql, cutoff: cutoff, keepUnread: keepUnread, on: connection)
        try statement.run()
        return connection.changes
    }

    private static func bound(_ sql: String, cutoff: Int64, keepUnread: Bool, on connection: SQLiteConnection) throws(SQLiteError) -> SQLiteStatement {
        let statement = try connection.statement(sql)
        // The notifications' statements have no unread rule: they take the cutoff alone; the
        // home entries' takes nothing.
        if statement.parameterCount >= 1 { try statement.bind(cutoff, at: 1) }
        if statement.parameterCount >= 2 { try statement.bind(keepUnread ? 1 : 0, at: 2) }
        return statement
    }
}
