import Foundation
@testable import TimelineKit

/// A store, a fake server and a test clock, and the sync between them.
final class SyncFixture {
    let directory = TemporaryDirectory()
    let server: FakeMastodonServer
    let clock = TestClock()
    private(set) var store: TimelineStore
    var account = "me@social.example"
    var options = MastodonSync.Options(policy: RequestPolicy(maximumAttempts: 1))

    init(server: FakeMastodonServer = FakeMastodonServer(), databaseName: String = "timeline.sqlite") throws {
        self.server = server
        store = try TimelineStore(path: directory.file(databaseName))
        // The database exists from its first write: create it, so the tests can reach into it.
        try store.write { _ in }
    }

    func sync(server base: String = FakeMastodonServer.base, transport: (any HTTPTransport)? = nil) throws -> MastodonSync {
        try MastodonSync(store: store, server: base, token: "token", account: account, transport: transport ?? server,
                         options: options, clock: clock.clock)
    }

    /// Opens the database again, as the next process would (running any migration it needs).
    func reopen() throws {
        store = try TimelineStore(path: store.path)
    }

    @discardableResult
    func run() async throws -> SyncSummary {
        try await sync().run()
    }

    /// The server IDs of the account's home timeline as stored, newest first.
    func homeIDs(_ account: String? = nil) throws -> [String] {
        try rows("SELECT id FROM synced_entries WHERE account = ?1 AND timeline = 'home' ORDER BY position DESC", account ?? self.account)
    }

    func notificationIDs(_ account: String? = nil) throws -> [String] {
        try rows("SELECT id FROM synced_entries WHERE account = ?1 AND timeline = 'notifications' ORDER BY position DESC", account ?? self.account)
    }

    /// The account's gaps as `upper..lower(remaining)` strings, newest first.
    func gaps(_ timeline: String = "home") throws -> [String] {
        try rows("""
            SELECT gap.value ->> 'upper_id' || '..' || coalesce(gap.value ->> 'lower_id', '') || '('
                   || coalesce(gap.value ->> 'remaining', '') || ')'
            FROM synced_timelines, json_each(state, '$.gaps') AS gap
            WHERE account = ?1 AND timeline = '\(timeline)' ORDER BY gap.value ->> 'upper_position' DESC
            """, account)
    }

    /// The server IDs of the account's unread home entries, newest first.
    func unreadHomeIDs() throws -> [String] {
        try rows("""
            SELECT entry.id FROM synced_entries AS entry JOIN messages ON messages.id = entry.message_id
                JOIN unread_messages ON unread_messages.seq = messages.seq
            WHERE entry.account = ?1 AND entry.timeline = 'home' ORDER BY entry.position DESC
            """, account)
    }

    /// Everything a sync leaves, in a form two databases can be compared by: every message
    /// (ID, text, edit time, read flag), every user, the account's timelines in order, gaps,
    /// cursors and marker.
    func everything() throws -> [String] {
        let messages = try rows("""
            SELECT id || ' ' || author_id || ' ' || text || ' ' || coalesce(edited_at, '-') || ' ' ||
                   (seq IN (SELECT seq FROM unread_messages)) FROM messages ORDER BY id
            """, nil)
        let users = try rows("SELECT id || ' ' || handle || ' ' || name FROM users ORDER BY id", nil)
        let sync = try rows("""
            SELECT timeline || ' ' || coalesce(state ->> 'top_id', '-') || ' ' || coalesce(state ->> 'marker_id', '-') || ' ' ||
                   (state ->> 'marker_position' IS NOT NULL) FROM synced_timelines ORDER BY account, timeline
            """, nil)
        let notifications = try rows("""
            SELECT id || ' ' || type || ' ' || coalesce(actor_id, '-') || ' ' || coalesce(message_id, '-')
            FROM synced_entries WHERE timeline = 'notifications' ORDER BY account, position DESC
            """, nil)
        return messages + users + ["home:"] + (try homeIDs()) + ["notifications:"] + notifications + ["gaps:"] + (try gaps())
            + (try gaps("notifications")) + ["sync:"] + sync
    }

    private func rows(_ sql: String, _ parameter: String?) throws -> [String] {
        try store.read { reader throws(SQLiteError) -> [String] in
            let statement = try reader.connection.statement(sql)
            defer { statement.reset() }
            if let parameter { try statement.bind(parameter, at: 1) }
            var result: [String] = []
            while try statement.step() { result.append(statement.text(at: 0)) }
            return result
        }
    }
}
