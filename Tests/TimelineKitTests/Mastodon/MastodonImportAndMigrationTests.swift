import Foundation
import Testing
@testable import TimelineKit

@Suite struct MastodonImportAndMigrationTests {
    @Test func aSavedFileImportedForAnAccountMeetsWhatSyncStores() async throws {
        let fixture = try SyncFixture()
        fixture.server.post(12)
        // A page saved with curl before the account was synced.
        let saved = try await fixture.server.send(HTTPRequest(url: FakeMastodonServer.base + "/api/v1/timelines/home?limit=5"))
        let file = fixture.directory.file("home.json")
        try Data(saved.body).write(to: URL(fileURLWithPath: file))
        let namespace = MastodonNamespace(server: try ServerAddress(FakeMastodonServer.base))
        let summary = try TimelineImporter(store: fixture.store).importFile(atPath: file, namespace: namespace)
        #expect(summary.newMessages == 5)
        #expect(try fixture.store.message(id: "social.example/" + fixture.server.homeIDs[0]) != nil)
        try await fixture.run()
        #expect(try fixture.store.state().messageCount == 12)
        // Without an account, a file keeps the server's IDs as they are, as before.
        let plain = try TimelineStore(path: fixture.directory.file("plain.sqlite"))
        try TimelineImporter(store: plain).importFile(atPath: file)
        #expect(try plain.message(id: fixture.server.homeIDs[0]) != nil)
    }

    /// Migration 8 moves migration 6's eight tables into three (for `show`'s launch): a database
    /// synced under schema 7, with a gap left, notifications and a read marker, syncs on after
    /// it exactly as one synced under schema 8 all along.
    @Test func aDatabaseSyncedUnderSchema7SyncsOnAfterMigration8AsIfItHadAlwaysBeen8() async throws {
        func history(downgradingMidway: Bool) async throws -> [String] {
            let fixture = try SyncFixture()
            // Schema 7 had no moderation rules (issue 34's row of synced_timelines, which the
            // downgrade below cannot express): this history is of the timelines alone.
            fixture.options.syncsFilters = false
            fixture.server.post(50)
            fixture.server.notify("favourite", statusID: fixture.server.homeIDs[3])
            fixture.server.notify("follow", actor: 2)
            fixture.server.setMarker(fixture.server.homeIDs[10])
            try await fixture.run()
            fixture.server.post(130)
            fixture.options.maximumPagesPerTimeline = 2
            try await fixture.run()
            #expect(try fixture.gaps().count == 1)
            if downgradingMidway {
                let before = try fixture.everything()
                try Samples.downgradeToSchemaVersion7(fixture.store.path)
                #expect(try SQLiteShell.run(fixture.store.path, """
                    SELECT (SELECT count(*) FROM account_home), (SELECT count(*) FROM account_notifications),
                           (SELECT count(*) FROM account_sync), (SELECT count(*) FROM account_gaps)
                    """).trimmed == "130|2|2|1")
                try fixture.reopen()
                #expect(try SQLiteShell.run(fixture.store.path, "PRAGMA user_version").trimmed == "\(Migration.latestVersion)")
                #expect(try fixture.everything() == before)
            }
            fixture.server.post(5)
            fixture.server.notify("reblog", statusID: fixture.server.homeIDs[0])
            while try await !fixture.run().isCaughtUp {}
            return try fixture.everything()
        }
        let reference = try await history(downgradingMidway: false)
        #expect(try await history(downgradingMidway: true) == reference)
    }

    @Test func aVersion5DatabaseGainsTheSyncTablesAndKeepsItsData() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("timeline.sqlite")
        try FileManager.default.copyItem(atPath: Fixtures.path("schema-v5.sqlite"), toPath: path)
        #expect(try SQLiteShell.run(path, "PRAGMA user_version").trimmed == "5")
        let fixture = try SyncFixture()
        let store = try TimelineStore(path: path)
        #expect(try SQLiteShell.run(path, "PRAGMA user_version").trimmed == "\(Migration.latestVersion)")
        let page = try store.timeline(limit: 10)
        #expect(page.messages.map(\.id) == ["113000000000000003", "113000000000000002", "113000000000000001"])
        #expect(try store.state().unreadCount == 2)
        #expect(try SQLiteShell.run(path, "SELECT count(*) FROM synced_entries, synced_timelines").trimmed == "0")
        fixture.server.post(3)
        try await MastodonSync(store: store, server: FakeMastodonServer.base, token: "t", account: "me@social.example",
                               transport: fixture.server, clock: fixture.clock.clock).run()
        #expect(try store.state().messageCount == 6)
        // A message synced for an account and deleted here no longer counts among its home
        // statuses; its entry stays until a prune, harmless.
        let newest = "social.example/" + fixture.server.homeIDs[0]
        try store.deleteMessages(ids: [newest])
        #expect(try SQLiteShell.run(path, "SELECT count(*) FROM synced_entries WHERE timeline = 'home'").trimmed == "3")
        #expect(try store.syncedAccount(named: "me@social.example")?.homeStatuses == 2)
        try store.prune(olderThan: Date(timeIntervalSince1970: 0))
        #expect(try SQLiteShell.run(path, "SELECT count(*) FROM synced_entries WHERE timeline = 'home'").trimmed == "2")
    }
}
