import GRDB

/// What a database holds, in a few figures: its counts (the tables' and the triggers'), and what
/// its two search indexes answer for a word, a phrase, a prefix, a trigram and a trigram
/// vocabulary range. Two databases loaded with the same messages give the same figures only when
/// both kept their counts and indexed every message.
enum DatabaseProbe {
    static let queries = [
        "SELECT count(*) FROM messages",
        "SELECT count(*) FROM users",
        "SELECT count(*) FROM unread_messages",
        "SELECT message_count || ' ' || unread_count || ' ' || user_count FROM timeline_state",
        "SELECT count(*) FROM messages_search WHERE messages_search MATCH '\"the\"'",
        "SELECT count(*) FROM messages_search WHERE messages_search MATCH '\"coffee\"'",
        "SELECT count(*) FROM messages_search WHERE messages_search MATCH '\"open source\"'",
        "SELECT count(*) FROM messages_search WHERE messages_search MATCH '\"perf\" *'",
        "SELECT count(*) FROM messages_search_unspaced WHERE messages_search_unspaced MATCH '\"いいですね\"'",
        "SELECT count(DISTINCT doc) FROM messages_search_unspaced_terms WHERE term >= '猫' AND term < '猫\u{10FFFF}'",
    ]

    static func fingerprint(of path: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path, configuration: grdbConfiguration(readonly: true))
        defer { try? queue.close() }
        return try queue.read { db in try queries.map { try String.fetchOne(db, sql: $0) ?? "none" } }
    }

    /// `(messages, unread, users)` as the triggers count them.
    static func counts(of path: String) throws -> (messages: Int, unread: Int, users: Int) {
        let queue = try DatabaseQueue(path: path, configuration: grdbConfiguration(readonly: true))
        defer { try? queue.close() }
        return try queue.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT message_count, unread_count, user_count FROM timeline_state")!
            return (row[0], row[1], row[2])
        }
    }
}
