import Foundation
import Testing
@testable import TimelineKit

/// A database that cannot be written where it is: reading works, writing says what cannot be
/// written (issue 12, item 11).
@Suite(.enabled(if: ReadOnlyPlace.isAvailable, "needs permissions (not root) or mounts (root)"))
struct ReadOnlyDatabaseTests {
    /// A timeline of three messages, its connections closed (so no `-wal` or `-shm` is left).
    static func fill(_ path: String, schemaVersion: Int? = nil) throws {
        do {
            let store = try TimelineStore(path: path)
            try store.upsert(users: [Samples.alice], messages: Samples.messages(1...3))
        }
        if let schemaVersion {
            precondition(schemaVersion == 4, "only version 4 can be made from today's schema")
            try Samples.downgradeToSchemaVersion4(path)
        }
    }

    static func isReadOnly(_ error: any Error, unwritable: String) -> Bool {
        guard case let .readOnly(_, named, reason) = error as? TimelineStoreError else { return false }
        return named == unwritable && !reason.isEmpty
    }

    @Test func aDatabaseInAReadOnlyDirectoryIsReadAndAWriteNamesTheDirectory() throws {
        let place = try ReadOnlyPlace(.directory) { try Self.fill($0 + "/timeline.sqlite") }
        let path = place.file("timeline.sqlite")
        let before = try FileFingerprint(path)

        let store = try TimelineStore(path: path)
        #expect(store.isReadOnly)
        #expect(try store.timeline(limit: 10).messages.map(\.id) == ["m3", "m2", "m1"])
        #expect(try store.state().messageCount == 3)
        #expect(try store.search("number", limit: 10).results.count == 3)
        #expect(try store.snapshotStatus().isFresh)
        #expect(TimelineStore.checkHealth(path: path).isHealthy)
        #expect(try TimelineStore.schemaVersion(ofDatabaseAt: path) == TimelineStore.latestSchemaVersion)

        #expect { try store.upsert(messages: [Samples.message(4)]) } throws: { Self.isReadOnly($0, unwritable: place.directory) }
        #expect { try store.markAllRead() } throws: { Self.isReadOnly($0, unwritable: place.directory) }
        #expect(try FileFingerprint(path) == before)
    }

    @Test func anOlderDatabaseInAReadOnlyDirectoryIsReadWithoutTheMigrationThatOnlyMarksIt() throws {
        let place = try ReadOnlyPlace(.directory) { try Self.fill($0 + "/timeline.sqlite", schemaVersion: 4) }
        let path = place.file("timeline.sqlite")
        let before = try FileFingerprint(path)
        let store = try TimelineStore(path: path, configuration: .init(createIfMissing: false))
        #expect(try store.timeline(limit: 10).messages.map(\.id) == ["m3", "m2", "m1"])
        #expect(try FileFingerprint(path) == before)
    }

    /// `show --follow` and a reconcile of many new messages page the additions along the time
    /// index, which the view an older read-only database is read through cannot name.
    @Test func anOlderDatabaseInAReadOnlyDirectoryListsItsAdditionsPageByPage() throws {
        let place = try ReadOnlyPlace(.directory) { try Self.fill($0 + "/timeline.sqlite", schemaVersion: 4) }
        let store = try TimelineStore(path: place.file("timeline.sqlite"), configuration: .init(createIfMissing: false))
        var cursor = AdditionCursor(anchors: [])
        var listed: [String] = []
        for _ in 0..<5 {
            let additions = try store.additions(after: cursor, limit: 1)
            listed += additions.page.messages.map(\.id)
            cursor = additions.cursor
            if !additions.hasMore { break }
        }
        #expect(listed == ["m1", "m2", "m3"])
    }

    @Test func anOlderSchemaThatMustBeRebuiltSaysTheDirectoryCannotBeWritten() throws {
        let place = try ReadOnlyPlace(.directory) { directory in
            try FileManager.default.copyItem(atPath: Fixtures.path("schema-v1.sqlite"), toPath: directory + "/timeline.sqlite")
        }
        #expect {
            try TimelineStore(path: place.file("timeline.sqlite"))
        } throws: { Self.isReadOnly($0, unwritable: place.directory) }
    }

    @Test func creatingADatabaseInAReadOnlyDirectoryNamesItAndCreatesNothing() throws {
        let place = try ReadOnlyPlace(.directory) { _ in }
        for path in [place.file("timeline.sqlite"), place.file("sub/dir/timeline.sqlite")] {
            let store = try TimelineStore(path: path)
            #expect(try store.timeline(limit: 5).messages.isEmpty)
            #expect { try store.upsert(users: [Samples.alice]) } throws: { Self.isReadOnly($0, unwritable: place.directory) }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: place.directory) == [])
    }

    @Test func aReadOnlyDatabaseFileIsReadAndAWriteNamesTheFile() throws {
        let place = try ReadOnlyPlace(.file("timeline.sqlite")) { try Self.fill($0 + "/timeline.sqlite") }
        let path = place.file("timeline.sqlite")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let store = try TimelineStore(path: path)
        #expect(store.isReadOnly)
        #expect(try store.timeline(limit: 10).messages.map(\.id) == ["m3", "m2", "m1"])
        #expect(TimelineStore.checkHealth(path: path).isHealthy)
        #expect { try store.upsert(messages: [Samples.message(4)]) } throws: { Self.isReadOnly($0, unwritable: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}

extension ReadOnlyDatabaseTests {
    /// A database from before migration 18 (issue 37) that cannot be written reads through the
    /// compatibility view with no links, as migration 17's databases read with no source: its
    /// messages are all there, each with none.
    @Test func aDatabaseBeforeLinksInAReadOnlyDirectoryReadsItsMessagesWithNone() throws {
        let place = try ReadOnlyPlace(.directory) { directory in
            let path = directory + "/timeline.sqlite"
            try Self.fill(path)
            try Samples.undoMigration18(path)
        }
        let path = place.file("timeline.sqlite")
        let before = try FileFingerprint(path)
        let store = try TimelineStore(path: path, configuration: .init(createIfMissing: false))
        #expect(store.isReadOnly)
        let messages = try store.timeline(limit: 10).messages
        #expect(messages.map(\.id) == ["m3", "m2", "m1"])
        #expect(messages.allSatisfy { $0.links.isEmpty })
        #expect(try store.message(id: "m2")?.links == [])
        #expect(try FileFingerprint(path) == before)
    }

    /// A database from before migration 19 (grouped notifications) that cannot be written reads
    /// its notifications through the compatibility view, each one notification.
    @Test func aDatabaseBeforeGroupedNotificationsInAReadOnlyDirectoryReadsItsNotifications() throws {
        let place = try ReadOnlyPlace(.directory) { directory in
            let path = directory + "/timeline.sqlite"
            try Self.fill(path)
            try SQLiteShell.run(path, """
                INSERT INTO synced_entries (account, timeline, position, id, type, created_at, actor_id, message_id)
                VALUES ('me@social.example', 'notifications', 1, '77', 'favourite', 1000, NULL, 'm2')
                """)
            try Samples.undoMigration20(path)
        }
        let path = place.file("timeline.sqlite")
        let store = try TimelineStore(path: path, configuration: .init(createIfMissing: false))
        #expect(store.isReadOnly)
        let notifications = try store.notifications(limit: 5)
        #expect(notifications.map(\.serverID) == ["77"] && notifications.map(\.count) == [1])
    }
}
