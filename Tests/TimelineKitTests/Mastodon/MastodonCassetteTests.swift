import Foundation
import Testing
@testable import TimelineKit

/// Real answers of a Mastodon 4.x server, recorded by Mastodon.py's test suite, replayed
/// through the transport protocol.
@Suite struct MastodonCassetteTests {
    private func sync(_ cassette: Cassette, store: TimelineStore, matchingQuery: Bool = false,
                      options: MastodonSync.Options = MastodonSync.Options(syncsNotifications: false, syncsReadMarker: false, syncsFilters: false))
        throws -> (MastodonSync, ReplayTransport) {
        let transport = ReplayTransport(cassette, matchingQuery: matchingQuery)
        let sync = try MastodonSync(store: store, server: "http://localhost:3000", token: "__MASTODON_PY_TEST_ACCESS_TOKEN",
                                    account: "mastodonpy_test@localhost:3000", transport: transport, options: options,
                                    clock: TestClock().clock)
        return (sync, transport)
    }

    @Test func aRecordedHomeTimelineIsSyncedInItsOrderWithItsRateLimit() async throws {
        let directory = TemporaryDirectory()
        let store = try TimelineStore(path: directory.file("timeline.sqlite"))
        let cassette = try Cassette.named("home_timeline")
        let recorded = try #require(cassette.interactions("GET", "http://localhost:3000/api/v1/timelines/home").first)
        let ids = try #require(try JSONSerialization.jsonObject(with: Data(recorded.response.body.utf8)) as? [[String: Any]]).map { $0["id"] as! String }
        // The recording has one page; its next link leads out of it: a depth of one page.
        let (sync, transport) = try sync(cassette, store: store, options: MastodonSync.Options(
            homeDepth: ids.count, syncsNotifications: false, syncsReadMarker: false, syncsFilters: false))
        let summary = try await sync.run()
        #expect(transport.unmatched.withLock { $0 }.isEmpty)
        #expect(summary.newStatuses == 13)
        let stored = try store.read { reader throws(SQLiteError) -> [String] in
            let statement = try reader.connection.statement("SELECT id FROM synced_entries WHERE timeline = 'home' ORDER BY position DESC")
            defer { statement.reset() }
            var result: [String] = []
            while try statement.step() { result.append(statement.text(at: 0)) }
            return result
        }
        #expect(stored == ids)
        let newest = try #require(try store.message(id: "localhost:3000/" + ids[0]))
        #expect(newest.authorID == "localhost:3000/117020565966271181")
        #expect(RateLimit(recorded.response.httpResponse, now: Date())?.remaining == 299)
    }

    @Test func recordedNextAndPrevLinksLeadToTheRecordedPages() async throws {
        let cassette = try Cassette.named("fetch_next_previous")
        let transport = ReplayTransport(cassette)
        let client = MastodonClient(server: try ServerAddress("http://localhost:3000"), token: AccessToken("t")!, transport: transport,
                                    clock: TestClock().clock)
        let first = "http://localhost:3000/api/v1/accounts/117020565966271181/statuses?limit=5"
        let page1 = try await client.send(.get, first)
        let next = try #require(LinkHeader(fields: page1.headers(named: "Link"), base: first).first(relation: "next"))
        let page2 = try await client.send(.get, next.target)
        let prev = try #require(LinkHeader(fields: page2.headers(named: "Link"), base: next.target).first(relation: "prev"))
        _ = try await client.send(.get, prev.target)
        #expect(transport.replayed.withLock { $0 } == [
            first, first + "&max_id=117020580489281910", first + "&min_id=117020580481736214",
        ])
        let namespace = MastodonNamespace(server: try ServerAddress("http://localhost:3000"))
        let page = try FetchedPage.statuses(page2, from: next.target, namespace: namespace)
        #expect(page.entryIDs.count == 5)
        #expect(page.olderCursor == "117020580452511285")
    }

    @Test func recordedPagesWithAndWithoutLinksGiveTheirCursors() throws {
        let cassette = try Cassette.named("min_max_id")
        let namespace = MastodonNamespace(server: try ServerAddress("http://localhost:3000"))
        let pages = try cassette.interactions("GET", "http://localhost:3000/api/v1/timelines/home").map {
            try FetchedPage.statuses($0.response.httpResponse, from: $0.request.uri, namespace: namespace)
        }
        #expect(pages.map(\.entryIDs) == [["117020594094054884"], [], [], ["117020594094054884"]])
        #expect(pages.map(\.olderCursor) == ["117020594094054884", nil, nil, "117020594094054884"])
    }

    @Test func theRecordedMarkerIsReadAndSetAsTheServerExpects() async throws {
        let cassette = try Cassette.named("markers")
        let transport = ReplayTransport(cassette)
        let client = MastodonClient(server: try ServerAddress("http://localhost:3000"), token: AccessToken("t")!, transport: transport,
                                    clock: TestClock().clock)
        let set = try await client.setHomeMarker(lastReadID: "117020574841135347")
        #expect(set?.lastReadID == "117020574841135347")
        #expect(set?.version == 1)
        let read = try await client.homeMarker()
        #expect(read == set)
        #expect(transport.unmatched.withLock { $0 }.isEmpty)
        let recorded = try #require(cassette.interactions("POST", "http://localhost:3000/api/v1/markers").first?.request.body)
        let sent = try #require(transport.sentBodies.withLock { $0 }.first)
        #expect(try JSONSerialization.jsonObject(with: Data(sent.utf8)) as? NSDictionary
            == JSONSerialization.jsonObject(with: Data(recorded.utf8)) as? NSDictionary)
    }

    @Test func aRecordedMentionIsStoredAndSaidInWords() async throws {
        let directory = TemporaryDirectory()
        let store = try TimelineStore(path: directory.file("timeline.sqlite"))
        let cassette = try Cassette.named("notifications")
        let (sync, transport) = try sync(cassette, store: store, options: MastodonSync.Options(
            homeDepth: 1, notificationDepth: 1, syncsReadMarker: false, syncsFilters: false))
        // The recording has no home timeline: answer it with an empty page.
        let page = try await sync.fetch(.notifications, maxID: nil, sinceID: nil, limit: 40)
        _ = try sync.store(page, of: .notifications, at: .newest(), depth: 1)
        #expect(transport.unmatched.withLock { $0 }.isEmpty)
        let notification = try #require(try store.notifications(limit: 5).first)
        #expect(notification.kind == .mention)
        #expect(notification.actor?.handle == "admin")
        #expect(NotificationRenderer().sentence(for: notification).hasPrefix("@ admin mentioned you: \"@mastodonpy_test"))
    }

    @Test func aRecordedPostAndItsEditAreOneMessageUpdatedInPlace() throws {
        let directory = TemporaryDirectory()
        let store = try TimelineStore(path: directory.file("timeline.sqlite"))
        let cassette = try Cassette.named("status_edit")
        let (sync, _) = try sync(cassette, store: store)
        let posted = try #require(cassette.interactions("POST", "http://localhost:3000/api/v1/statuses").first)
        let edited = try #require(cassette.interactions("PUT", "http://localhost:3000/api/v1/statuses").first)
        var previous: [SyncedTimeline: String] = [:]
        for body in [posted.response.body, edited.response.body] {
            _ = try sync.apply(ServerSentEvent(type: "status.update", data: body), url: "http://localhost:3000/stream", previous: &previous)
        }
        #expect(try store.state().messageCount == 1)
        let message = try #require(try store.message(id: "localhost:3000/117020586180926938"))
        #expect(message.text == "the best editor? why, of course it is the KDE Advanced Text Editor, Kate")
        #expect(message.editedAt != nil)
    }

    @Test func aRecordedPostWithAContentWarningIsStoredAsTheServerAnswered() async throws {
        let directory = TemporaryDirectory()
        let store = try TimelineStore(path: directory.file("timeline.sqlite"))
        let cassette = try Cassette.named("status_post_content_warning_public")
        let (sync, _) = try sync(cassette, store: store)
        let message = try await sync.post(MastodonPost(text: "Toot!", contentWarning: "Content warning", visibility: .public))
        #expect(message.contentWarning == "Content warning")
        #expect(message.text == "Toot!")
        #expect(message.isRead)
    }

    @Test func aRecordedRefusedTokenSaysToLogInAgain() async throws {
        let directory = TemporaryDirectory()
        let store = try TimelineStore(path: directory.file("timeline.sqlite"))
        let (sync, _) = try sync(try Cassette.named("unauthorized_home_timeline"), store: store)
        await #expect(throws: ServerError.unauthorized(server: "http://localhost:3000")) { try await sync.run() }
        #expect(try store.state().messageCount == 0)
    }
}
