import Foundation
@testable import TimelineKit

/// Small, readable test data.
enum Samples {
    static let alice = User(id: "u1", handle: "alice", name: "Alice Example")
    static let bob = User(id: "u2", handle: "bob@example.social", name: "Bob 🐝")

    /// A fixed moment, so that tests never depend on the clock.
    static let epoch = Date(timeIntervalSince1970: 1_795_000_000)

    /// Message `n`, `n` minutes after `epoch`, by alice unless told otherwise.
    static func message(_ n: Int, author: User = alice, text: String? = nil, read: Bool = false) -> Message {
        Message(id: "m\(n)", authorID: author.id, text: text ?? "message number \(n)",
                createdAt: epoch.addingTimeInterval(Double(n) * 60), isRead: read)
    }

    static func messages(_ range: ClosedRange<Int>, author: User = alice) -> [Message] {
        range.map { message($0, author: author) }
    }

    /// A store in `directory` holding alice and bob.
    static func store(in directory: TemporaryDirectory, configuration: TimelineStore.Configuration = .init()) throws -> TimelineStore {
        let store = try TimelineStore(path: directory.file("timeline.sqlite"), configuration: configuration)
        try store.upsert(users: [alice, bob])
        return store
    }
}

extension Samples {
    /// Turns a database written by today's library into one of schema version 4, as that
    /// version wrote it: without the application ID (migration 5), the synced-accounts tables
    /// (migration 6) and the index of replies (7), so that opening it runs those migrations for real.
    static func downgradeToSchemaVersion4(_ path: String) throws {
        try SQLiteShell.run(path, """
            DROP TABLE account_home; DROP TABLE account_notifications; DROP TABLE account_sync; DROP TABLE account_gaps;
            DROP INDEX messages_by_reply;
            PRAGMA application_id = 0; PRAGMA user_version = 4; PRAGMA wal_checkpoint(TRUNCATE)
            """)
    }
}
