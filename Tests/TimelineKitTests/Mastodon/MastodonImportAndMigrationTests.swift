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
        let namespace = MastodonNamespace(server: try MastodonServer(FakeMastodonServer.base))
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
        #expect(try SQLiteShell.run(path, "SELECT count(*) FROM account_home, account_gaps, account_sync, account_notifications").trimmed == "0")
        fixture.server.post(3)
        try await MastodonSync(store: store, server: FakeMastodonServer.base, token: "t", account: "me@social.example",
                               transport: fixture.server, clock: fixture.clock.clock).run()
        #expect(try store.state().messageCount == 6)
        // A message synced for an account goes with its entry when it is deleted.
        let newest = "social.example/" + fixture.server.homeIDs[0]
        try store.deleteMessages(ids: [newest])
        #expect(try SQLiteShell.run(path, "SELECT count(*) FROM account_home").trimmed == "2")
        #expect(try store.syncedAccount(named: "me@social.example")?.homeStatuses == 2)
    }
}
