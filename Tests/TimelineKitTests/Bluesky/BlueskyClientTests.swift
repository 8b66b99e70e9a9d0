import Foundation
import Synchronization
@testable import TimelineKit

import Testing

/// Sessions, expiry and limits of the Bluesky client, against a PDS in memory.
@Suite struct BlueskyClientTests {
    /// The sessions a client handed on, in order.
    final class Saved: Sendable {
        let sessions = Mutex<[BlueskySession]>([])
        var all: [BlueskySession] { sessions.withLock { $0 } }
    }

    private func client(_ pds: FakePDS, session: BlueskySession? = nil, clock: TestClock = TestClock(),
                        saved: Saved = Saved()) throws -> BlueskyClient {
        BlueskyClient(service: try ServerAddress(FakePDS.entryway), session: session, transport: pds, clock: clock.clock) { fresh in
            saved.sessions.withLock { $0.append(fresh) }
        }
    }

    @Test func loggingInKeepsTheSessionAndSendsCallsToTheAccountsOwnPDS() async throws {
        let pds = FakePDS()
        pds.answer("app.bsky.feed.getTimeline", FakePDS.json(200, #"{"feed":[]}"#))
        let saved = Saved()
        let client = try client(pds, saved: saved)
        let session = try await client.createSession(identifier: "alice.test", password: FakePDS.password)
        #expect(session.did == FakePDS.did)
        #expect(session.pds == FakePDS.pds)
        #expect(saved.all == [session])
        _ = try await client.query("app.bsky.feed.getTimeline", [("limit", "100")])
        let requests = pds.requests
        #expect(requests.map(\.url) == [
            FakePDS.entryway + "/xrpc/com.atproto.server.createSession",
            FakePDS.pds + "/xrpc/app.bsky.feed.getTimeline?limit=100",
        ])
        #expect(requests[1].headers.contains(HTTPHeader(name: "Authorization", value: "Bearer access-1")))
        // Neither token shows in what a log or an error would print.
        for text in ["\(session)", "\(client)", String(reflecting: session)] {
            #expect(!text.contains("access-1") && !text.contains("refresh-1"), "\(text)")
        }
    }

    @Test func anExpiredAccessTokenIsRefreshedOnceAndTheNewSessionHandedOnAtOnce() async throws {
        let pds = FakePDS()
        pds.answer("app.bsky.feed.getTimeline", FakePDS.json(200, #"{"feed":[]}"#))
        let saved = Saved()
        let client = try client(pds, saved: saved)
        try await client.createSession(identifier: "alice.test", password: FakePDS.password)
        pds.expireAccess()
        let response = try await client.query("app.bsky.feed.getTimeline")
        #expect(response.status == 200)
        #expect(pds.requests.map { $0.url.components(separatedBy: "/xrpc/").last! } == [
            "com.atproto.server.createSession", "app.bsky.feed.getTimeline",
            "com.atproto.server.refreshSession", "app.bsky.feed.getTimeline",
        ])
        #expect(pds.requests[2].headers.contains(HTTPHeader(name: "Authorization", value: "Bearer refresh-1")))
        #expect(saved.all.map(\.refreshToken.value) == ["refresh-1", "refresh-2"])
        #expect(client.currentSession?.accessToken.value == "access-2")
    }

    @Test func aRefusedRefreshSaysToLogInAgain() async throws {
        let pds = FakePDS()
        let stale = BlueskySession(did: FakePDS.did, handle: "alice.test", accessToken: AccessToken("access-0")!,
                                   refreshToken: AccessToken("refresh-0")!, pds: FakePDS.pds)
        pds.state.withLock { $0.generation = 1 }  // the server has moved on: both tokens are old
        let client = try client(pds, session: stale)
        do throws(ServerError) {
            _ = try await client.query("app.bsky.feed.getTimeline")
            Issue.record("a stale session was accepted")
        } catch {
            #expect(error == .unauthorized(server: FakePDS.entryway))
        }
        // One refresh, not a loop.
        #expect(pds.requests.map { $0.url.components(separatedBy: "/xrpc/").last! } == [
            "app.bsky.feed.getTimeline", "com.atproto.server.refreshSession",
        ])
    }

    @Test func aWrongPasswordIsSaidAsTheServerSaysIt() async throws {
        let pds = FakePDS()
        let client = try client(pds)
        do throws(ServerError) {
            try await client.createSession(identifier: "alice.test", password: "wrong")
            Issue.record("logged in with a wrong password")
        } catch {
            guard case let .rejected(_, status, reason) = error else { Issue.record("\(error)"); return }
            #expect(status == 401)
            #expect(reason == "AuthenticationRequired: Invalid identifier or password")
        }
        #expect(client.currentSession == nil)
    }

    @Test func blueskysRateLimitHeadersAreHonouredBeforeTheLimitIsHit() async throws {
        let pds = FakePDS()
        let clock = TestClock()
        let reset = Int(clock.now.timeIntervalSince1970) + 30
        pds.answer("app.bsky.feed.getTimeline",
                   FakePDS.json(200, #"{"feed":[]}"#, headers: [HTTPHeader(name: "ratelimit-limit", value: "3000"),
                                                               HTTPHeader(name: "ratelimit-remaining", value: "1"),
                                                               HTTPHeader(name: "ratelimit-reset", value: "\(reset)"),
                                                               HTTPHeader(name: "ratelimit-policy", value: "3000;w=300")]))
        let client = try client(pds, clock: clock)
        try await client.createSession(identifier: "alice.test", password: FakePDS.password)
        _ = try await client.query("app.bsky.feed.getTimeline")
        #expect(clock.sleeps.isEmpty)
        _ = try await client.query("app.bsky.feed.getTimeline")
        #expect(clock.sleeps == [.seconds(30)])
    }

    @Test func a429WaitsForTheResetWhenItIsNearAndOtherwiseSaysWhen() async throws {
        let pds = FakePDS()
        let clock = TestClock()
        let soon = Int(clock.now.timeIntervalSince1970) + 20
        pds.answer("app.bsky.feed.getTimeline",
                   FakePDS.json(429, #"{"error":"RateLimitExceeded","message":"Rate Limit Exceeded"}"#,
                                headers: [HTTPHeader(name: "ratelimit-remaining", value: "0"), HTTPHeader(name: "ratelimit-reset", value: "\(soon)")]),
                   FakePDS.json(200, #"{"feed":[]}"#))
        let client = try client(pds, clock: clock)
        try await client.createSession(identifier: "alice.test", password: FakePDS.password)
        #expect(try await client.query("app.bsky.feed.getTimeline").status == 200)
        #expect(clock.sleeps == [.seconds(20)])

        let later = FakePDS()
        let far = Int(clock.now.timeIntervalSince1970) + 3600
        later.answer("app.bsky.feed.getTimeline",
                     FakePDS.json(429, #"{"error":"RateLimitExceeded"}"#, headers: [HTTPHeader(name: "RateLimit-Reset", value: "\(far)")]))
        let limited = try self.client(later, clock: clock)
        try await limited.createSession(identifier: "alice.test", password: FakePDS.password)
        do throws(ServerError) {
            _ = try await limited.query("app.bsky.feed.getTimeline")
            Issue.record("no rate limit")
        } catch {
            #expect(error.isTemporary)
            #expect(error.retryAt == Date(timeIntervalSince1970: Double(far)))
        }
    }
}
