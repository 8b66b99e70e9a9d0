import Foundation
import Synchronization
import Testing
@testable import TimelineKit

@Suite struct MastodonStreamingTests {
    @Test func streamedEventsAreStoredAndTheNextSyncClosesTheGapBelowThem() async throws {
        let fixture = try SyncFixture()
        let old = fixture.server.post(5)
        try await fixture.run()
        let live = fixture.server.post(2)
        let edited = old[4]
        fixture.server.edit(edited, text: "edited live")
        let mention = fixture.server.notify("mention", actor: 2, statusID: live[0])
        fixture.server.delete(old[0])
        let server = fixture.server
        let chunks = [
            ":thump\n\n",
            "event: update\ndata: \(server.json(ofStatus: live[0]))\n\n",
            "event: update\r\ndata: \(server.json(ofStatus: live[1]))\r\n\r\n",
            "event: status.update\ndata: \(server.json(ofStatus: edited))\n\nevent: delete\ndata: \(old[0])\n\n",
            "event: notif", "ication\ndata: \(server.json(ofNotification: mention))\n\n",
            "event: filters_changed\n\n",
            "event: update\ndata: {\"id\": broken\n\n",
        ]
        server.configure { $0.streamChunks = chunks }
        let reported = Mutex<[MastodonStreamEvent]>([])
        let generation = try fixture.store.state().generation
        try await fixture.sync().stream { event in reported.withLock { $0.append(event) } }

        let streamRequest = try #require(fixture.server.requests.last)
        #expect(streamRequest.url == "https://streaming.social.example/api/v1/streaming/user")
        #expect(streamRequest.headers.first { $0.matches("Accept") }?.value == "text/event-stream")
        #expect(streamRequest.headers.first { $0.matches("Authorization") }?.value == "Bearer token")
        #expect(reported.withLock { $0 } == [
            .status(messageID: "social.example/" + live[0]), .status(messageID: "social.example/" + live[1]),
            .edited(messageID: "social.example/" + edited), .deleted(messageID: "social.example/" + old[0]),
            .notification(serverID: mention), .ignored(type: "update"),
        ])
        #expect(try fixture.homeIDs() == [live[1], live[0]] + old.reversed().dropLast())
        #expect(try fixture.store.message(id: "social.example/" + edited)?.text == "edited live")
        #expect(try fixture.store.message(id: "social.example/" + old[0]) == nil)
        #expect(try fixture.notificationIDs() == [mention])
        // Each event is committed with a fresh snapshot, for other terminals.
        #expect(try fixture.store.state().generation > generation)
        #expect(try fixture.store.snapshotFile.readHeader().generation == fixture.store.state().generation)
        // What may have come between the sync and the connection is a gap, closed in one request.
        #expect(try fixture.gaps() == ["\(live[0])..\(old[4])()"])
        let before = fixture.server.requestCount
        try await fixture.run()
        #expect(try fixture.gaps().isEmpty)
        #expect(fixture.server.requests.dropFirst(before).filter { $0.url.contains("timelines/home") }.count == 2)
    }

    @Test func aRefusedOrUnauthorizedStreamSaysWhy() async throws {
        let fixture = try SyncFixture()
        fixture.server.configure {
            $0.streamStatus = 401
            $0.streamChunks = [#"{"error":"The access token is invalid"}"#]
        }
        await #expect(throws: ServerError.unauthorized(server: FakeMastodonServer.base)) { try await fixture.sync().stream() }
        fixture.server.configure {
            $0.streamStatus = 403
            $0.streamChunks = [#"{"error":"Streaming is disabled"}"#]
            $0.streaming = nil
        }
        await #expect(throws: ServerError.rejected(url: FakeMastodonServer.base + "/api/v1/streaming/user", status: 403,
                                                     reason: "Streaming is disabled")) {
            try await fixture.sync().stream()
        }
    }

    @Test func followingPollsWhereTheServerRefusesToStream() async throws {
        let fixture = try SyncFixture()
        fixture.server.configure { $0.streamStatus = 404 }
        fixture.server.post(3)
        let sync = try fixture.sync()
        let task = Task { try await sync.follow(pollInterval: .seconds(120)) }
        while fixture.clock.sleeps.count < 3 { await Task.yield() }
        task.cancel()
        _ = await task.result
        #expect(fixture.clock.sleeps.prefix(3) == [.seconds(120), .seconds(120), .seconds(120)])
        #expect(try fixture.homeIDs() == fixture.server.homeIDs)
        #expect(fixture.server.requests.filter { $0.url.hasSuffix("/streaming/user") }.count == 1)
    }

    @Test func theStreamingAddressComesFromTheInstance() async throws {
        let cassette = try Cassette.named("instance")
        let client = MastodonClient(server: try ServerAddress("http://localhost:3000"), token: AccessToken("t")!,
                                    transport: ReplayTransport(cassette), clock: TestClock().clock)
        #expect(try await client.streamingBaseURL() == "http://localhost:4000")
    }
}
