// MASTODON-DOC-EXAMPLE-BEGIN (the same lines as the Mastodon sync example of docs/network.md)
import Foundation
import TimelineKit

/// Syncs one Mastodon account into the timeline at `databasePath`; says what came.
func syncMastodonAccount(databasePath: String, token: String, transport: any HTTPTransport) async throws -> [String] {
    let store = try TimelineStore(path: databasePath)
    // Plain values: the server's address, the token and the account's name; any transport.
    let sync = try MastodonSync(store: store, server: "https://social.example", token: token,
                                account: "me@social.example", transport: transport)
    let summary = try await sync.run()  // home, notifications, read marker; then one snapshot write
    var lines = ["new: \(summary.newStatuses) statuses, \(summary.newNotifications) notifications"]

    try store.markAllRead()
    try await sync.syncReadMarker()  // what was read here is now read on the phone too
    try await sync.post(MastodonPost(text: "Hello from my terminal", visibility: .unlisted))

    let renderer = NotificationRenderer()
    for notification in try store.notifications(account: "me@social.example", limit: 10) {
        lines.append(renderer.sentence(for: notification))  // "♥ Alice liked your post "…"", newest first
    }
    return lines
}
// MASTODON-DOC-EXAMPLE-END
import Testing

/// The Mastodon sync example of docs/network.md, compiled and run, and held identical to the page.
@Suite struct MastodonDocExampleTests {
    @Test func theNetworkPagesSyncExampleRunsAsWritten() async throws {
        let directory = TemporaryDirectory()
        let server = FakeMastodonServer()
        let mine = server.post(3)
        server.notify("favourite", actor: 1, statusID: mine[0])
        let said = try await syncMastodonAccount(databasePath: directory.file("timeline.sqlite"), token: "t", transport: server)
        #expect(said == ["new: 3 statuses, 1 notifications", #"♥ Person 1 liked your post "status 0""#])
        #expect(server.marker == server.homeIDs[1])
        #expect(server.homeIDs.count == 4)
    }

    @Test func theNetworkPageShowsExactlyThisExample() throws {
        let page = try String(contentsOfFile: Fixtures.path("../docs/network.md"), encoding: .utf8)
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let example = try #require(source.components(separatedBy: "(the same lines as the Mastodon sync example of docs/network.md)\n").last?
            .components(separatedBy: "// MASTODON-DOC-EXAMPLE-END").first)
        #expect(page.contains("```swift\n" + example + "```\n"))
    }
}
