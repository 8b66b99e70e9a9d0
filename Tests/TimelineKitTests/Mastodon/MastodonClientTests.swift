import Foundation
import Testing
@testable import TimelineKit

@Suite struct MastodonClientTests {
    static let token = "s3cret-t0ken-value"
    let server = FakeMastodonServer()
    let clock = TestClock()

    private func client(_ policy: RequestPolicy = RequestPolicy()) throws -> MastodonClient {
        MastodonClient(server: try ServerAddress(FakeMastodonServer.base), token: AccessToken(Self.token)!, transport: server,
                       policy: policy, clock: clock.clock)
    }

    private var homeURL: String { FakeMastodonServer.base + "/api/v1/timelines/home?limit=40" }

    @Test func everyRequestCarriesTheTokenTheAgentAndJSON() async throws {
        let client = try client()
        try await client.setHomeMarker(lastReadID: "abc")
        let request = try #require(server.requests.first)
        #expect(request.headers.first { $0.matches("authorization") }?.value == "Bearer " + Self.token)
        #expect(request.headers.first { $0.matches("user-agent") }?.value == "timeline/\(timelineKitVersion)")
        #expect(request.headers.first { $0.matches("accept") }?.value == "application/json")
        #expect(request.headers.first { $0.matches("content-type") }?.value == "application/json")
        #expect(String(decoding: request.body ?? [], as: UTF8.self) == #"{"home":{"last_read_id":"abc"}}"#)
        #expect(!"\(client)".contains(Self.token))
        #expect(!String(reflecting: client).contains(Self.token))
    }

    @Test func aTokenThatCouldCorruptTheHeadersIsNeverSent() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        for token in ["", "abc def", "abc\r\nX-Evil: 1", "tökén"] {
            #expect(throws: ServerError.invalidToken) {
                try MastodonSync(store: store, server: FakeMastodonServer.base, token: token, account: "me", transport: server)
            }
        }
        #expect(server.requestCount == 0)
    }

    @Test func aRequestOffTheServersOriginIsNeverSent() async throws {
        let client = try client()
        await #expect(throws: ServerError.self) {
            _ = try await client.send(.get, "https://evil.example/api/v1/timelines/home")
        }
        await #expect(throws: ServerError.self) {
            _ = try await client.send(.get, "https://social.example.evil.example/api/v1/timelines/home")
        }
        #expect(server.requestCount == 0)
    }

    @Test func aRateLimitAtTheReserveIsWaitedOutBeforeTheNextRequest() async throws {
        let client = try client()
        let reset = clock.now.addingTimeInterval(20)
        server.configure { $0.responseHeaders = [
            HTTPHeader(name: "X-RateLimit-Remaining", value: "2"),
            HTTPHeader(name: "X-RateLimit-Reset", value: ServerError.timestamp(reset)),
        ] }
        _ = try await client.send(.get, homeURL)
        #expect(clock.sleeps.isEmpty)
        _ = try await client.send(.get, homeURL)
        #expect(clock.sleeps == [.seconds(20)])
        #expect(server.requestCount == 2)
    }

    @Test func aRateLimitThatResetsTooLateStopsBeforeSendingAndSaysWhen() async throws {
        let client = try client()
        let reset = clock.now.addingTimeInterval(240)
        server.configure { $0.responseHeaders = [
            HTTPHeader(name: "X-RateLimit-Remaining", value: "0"),
            HTTPHeader(name: "X-RateLimit-Reset", value: ServerError.timestamp(reset)),
        ] }
        _ = try await client.send(.get, homeURL)
        await #expect(throws: ServerError.rateLimited(url: homeURL, retryAt: reset)) {
            _ = try await client.send(.get, homeURL)
        }
        #expect(server.requestCount == 1)
        let error = ServerError.rateLimited(url: homeURL, retryAt: reset)
        #expect(error.isTemporary)
        #expect(error.description.contains("Try again after 2026-08-01T14:04:00Z"))
    }

    @Test func a429WithAShortResetIsWaitedOutAndRetried() async throws {
        let client = try client()
        server.configure { $0.faults[0] = .status(429, headers: [HTTPHeader(name: "Retry-After", value: "7")]) }
        let response = try await client.send(.get, homeURL)
        #expect(response.status == 200)
        #expect(clock.sleeps == [.seconds(7)])
        let reset = clock.now.addingTimeInterval(3600)
        server.configure { $0.faults[2] = .status(429, headers: [HTTPHeader(name: "X-RateLimit-Reset", value: "\(Int(reset.timeIntervalSince1970))")]) }
        await #expect(throws: ServerError.rateLimited(url: homeURL, retryAt: reset)) {
            _ = try await client.send(.get, homeURL)
        }
    }

    @Test func partialContentIsRetriedThenReportedAsTemporary() async throws {
        let client = try client()
        server.configure { $0.faults = [0: .status(206), 1: .status(206)] }
        #expect(try await client.send(.get, homeURL).status == 200)
        #expect(clock.sleeps == [.seconds(1), .seconds(2)])
        server.configure { $0.faults = [3: .status(206), 4: .status(206), 5: .status(206), 6: .status(206)] }
        await #expect(throws: ServerError.timelineBeingRebuilt(url: homeURL, attempts: 4)) {
            _ = try await client.send(.get, homeURL)
        }
        #expect(ServerError.timelineBeingRebuilt(url: homeURL, attempts: 4).isTemporary)
    }

    @Test func serverFailuresAndTimeOutsAreRetriedWithBackOffThenReported() async throws {
        let client = try client()
        server.configure { $0.faults = [0: .status(503), 1: .timeout, 2: .cut, 3: .status(500)] }
        await #expect(throws: ServerError.serverFailed(url: homeURL, status: 500, attempts: 4)) {
            _ = try await client.send(.get, homeURL)
        }
        #expect(clock.sleeps == [.seconds(1), .seconds(2), .seconds(4)])
        server.configure { $0.faults = [4: .timeout, 5: .timeout, 6: .timeout, 7: .timeout] }
        do {
            _ = try await client.send(.get, homeURL)
            Issue.record("time-outs were not reported")
        } catch {
            guard case .unreachable(.timedOut, 4) = error else { throw error }
            #expect(error.isTemporary)
        }
    }

    @Test func unauthorizedSaysToLogInAgainAtOnce() async throws {
        let client = try client()
        server.configure { $0.faults[0] = .status(401, body: #"{"error":"The access token is invalid"}"#) }
        await #expect(throws: ServerError.unauthorized(server: FakeMastodonServer.base)) {
            _ = try await client.send(.get, homeURL)
        }
        #expect(server.requestCount == 1)
        let text = ServerError.unauthorized(server: FakeMastodonServer.base).description
        #expect(text.contains("timeline login"))
        #expect(!text.contains(Self.token))
    }

    @Test func aRefusalCarriesTheServersReasonMadeSafe() async throws {
        let client = try client()
        server.configure { $0.faults[0] = .status(422, body: #"{"error":"Validation failed: \u001b]0;pwned\u0007Text too long"}"#) }
        await #expect(throws: ServerError.rejected(url: homeURL, status: 422, reason: "Validation failed: ␛]0;pwned␇Text too long")) {
            _ = try await client.send(.get, homeURL)
        }
    }

    @Test func aTruncatedOrForeignBodyNamesTheURLAndWhatWasWrong() async throws {
        server.post(3)
        server.configure { $0.faults[0] = .truncatedBody }
        let directory = TemporaryDirectory()
        let sync = try MastodonSync(store: try Samples.store(in: directory), server: FakeMastodonServer.base,
                                    token: Self.token, account: "me@social.example", transport: server, clock: clock.clock)
        do {
            _ = try await sync.fetch(.home, maxID: nil, sinceID: nil, limit: 40)
            Issue.record("a cut body was read")
        } catch {
            guard case let .invalidResponse(url, problem) = error else { throw error }
            #expect(url == homeURL)
            #expect(problem.hasPrefix("at line 1, column "))
            #expect(error.description.contains(homeURL))
        }
        server.configure { $0.faults[1] = .status(200, headers: [HTTPHeader(name: "Content-Type", value: "text/html")], body: "<html>") }
        await #expect(throws: ServerError.invalidResponse(url: homeURL, problem: #"it is "text/html", not JSON."#)) {
            _ = try await sync.fetch(.home, maxID: nil, sinceID: nil, limit: 40)
        }
    }

    @Test func rateLimitResetsAreReadInEveryFormServersWrite() {
        let now = Date(timeIntervalSince1970: 1_785_592_800)
        #expect(RateLimit.time("2026-08-01T15:00:00.506914Z", now: now) == Date(timeIntervalSince1970: 1_785_596_400.506))
        #expect(RateLimit.time("1785596400", now: now) == Date(timeIntervalSince1970: 1_785_596_400))
        #expect(RateLimit.time(" 30 ", now: now) == now.addingTimeInterval(30))
        #expect(RateLimit.time("soon", now: now) == nil)
    }
}
