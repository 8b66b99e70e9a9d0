import Foundation
import Synchronization
import Testing
import TimelineFeeds
import TimelineKit

/// A transport whose answers a test changes between syncs; it counts the requests to each URL
/// and the most that were in flight at once, and may hold each answer until `gather` requests
/// were in flight at once (at most 10 s): concurrency proved by what overlapped, not by a time.
final class ChangingTransport: HTTPTransport {
    struct State {
        var answers: [String: HTTPResponse] = [:]
        var sent: [HTTPRequest] = []
        var inFlight = 0
        var mostInFlight = 0
        /// Each answer held until this many requests were in flight at once (0: none held).
        var gather = 0
    }

    let state = Mutex(State())

    func answer(_ url: String, _ response: HTTPResponse) { state.withLock { $0.answers[url] = response } }
    func requests(to url: String) -> [HTTPRequest] { state.withLock { $0.sent.filter { $0.url == url } } }
    var mostInFlight: Int { state.withLock { $0.mostInFlight } }

    func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
        let answer = state.withLock { state -> HTTPResponse? in
            state.sent.append(request)
            state.inFlight += 1
            state.mostInFlight = max(state.mostInFlight, state.inFlight)
            return state.answers[request.url]
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline, state.withLock({ $0.gather > 0 && $0.mostInFlight < $0.gather }) {
            try? await Task.sleep(for: .milliseconds(5))
        }
        state.withLock { $0.inFlight -= 1 }
        guard let answer else { throw .cannotConnect(url: request.url, reason: "no route") }
        return answer
    }

    func stream(_ request: HTTPRequest, receive: @Sendable (Int, [UInt8]) -> Bool) async throws(HTTPTransportError) -> HTTPResponse {
        throw .unavailable(reason: "no streams here")
    }
}

/// `FeedSync` (issue 35): what is due, conditional requests, Retry-After, redirects, edits and
/// failures, against an in-process transport whose clock the tests set.
@Suite struct FeedSyncTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func rss(_ items: [(guid: String, title: String)], ttl: Int? = nil) -> [UInt8] {
        let entries = items.map { "<item><guid>\($0.guid)</guid><title>\($0.title)</title><link>https://a.example/\($0.guid)</link></item>" }
        return Array("<rss version=\"2.0\"><channel><title>T</title>\(ttl.map { "<ttl>\($0)</ttl>" } ?? "")\(entries.joined())</channel></rss>".utf8)
    }

    static func ok(_ body: [UInt8], etag: String? = nil) -> HTTPResponse {
        HTTPResponse(status: 200, headers: etag.map { [HTTPHeader(name: "ETag", value: $0)] } ?? [], body: body)
    }

    /// A store with one subscription to `url`, made at `t0`.
    static func subscribed(_ url: String, _ transport: ChangingTransport, every: Duration? = nil) async throws -> (TimelineStore, FeedSubscription, String) {
        let (store, directory) = try FeedSubscriptionsTests.store()
        let outcome = try await FeedSubscriptions(store: store).subscribe(to: url, every: every, fetcher: FeedFetcher(transport: transport), now: t0)
        guard case let .subscribed(subscription, _) = outcome else { throw FeedSubscriptionError.unknown(url) }
        return (store, subscription, directory)
    }

    @Test func aFeedIsDueAnHourAfterItsLastFetchNotBefore() async throws {
        let url = "https://a.example/f"
        let transport = ChangingTransport()
        transport.answer(url, Self.ok(Self.rss([("1", "One")])))
        let (store, _, directory) = try await Self.subscribed(url, transport)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let sync = FeedSync(store: store, fetcher: FeedFetcher(transport: transport))
        let early = try await sync.run(now: Self.t0.addingTimeInterval(59 * 60))
        #expect(early.outcomes.map(\.kind) == [.notDue])
        #expect(transport.requests(to: url).count == 1, "only the subscribe's")
        let due = try await sync.run(now: Self.t0.addingTimeInterval(60 * 60))
        #expect(due.unchanged == 1, "the same body: \(due)")
        #expect(transport.requests(to: url).count == 2)
        let forced = try await sync.run(fetchingAll: true, now: Self.t0.addingTimeInterval(61 * 60))
        #expect(forced.unchanged == 1)
        #expect(transport.requests(to: url).count == 3)
    }

    @Test func thePersonsIntervalAndTheFeedsLongerTTLSetWhenItIsDue() async throws {
        let url = "https://a.example/f"
        let transport = ChangingTransport()
        transport.answer(url, Self.ok(Self.rss([("1", "One")], ttl: 180)))
        let (store, subscription, directory) = try await Self.subscribed(url, transport, every: .seconds(1800))
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(subscription.interval == 1800)
        #expect(subscription.publisherInterval == 180 * 60)
        #expect(subscription.effectiveInterval == 180 * 60, "the feed's ttl is longer than the person's 30 minutes")
        #expect(subscription.nextDue == Self.t0.addingTimeInterval(3 * 3600))
        let changed = try FeedSubscriptions(store: store).setInterval(of: subscription.name, to: .seconds(6 * 3600))
        #expect(changed.effectiveInterval == 6 * 3600, "the person's is longer now")
        #expect(throws: FeedSubscriptionError.invalidInterval(seconds: 30)) {
            try FeedSubscriptions(store: store).setInterval(of: subscription.name, to: .seconds(30))
        }
    }

    @Test func validatorsGoBackAsReceivedAndA304WritesNoMessage() async throws {
        let url = "https://a.example/f"
        let transport = ChangingTransport()
        transport.answer(url, Self.ok(Self.rss([("1", "One")]), etag: #"W/"v1""#))
        let (store, _, directory) = try await Self.subscribed(url, transport)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let generation = try store.state().generation
        transport.answer(url, HTTPResponse(status: 304))
        let summary = try await FeedSync(store: store, fetcher: FeedFetcher(transport: transport)).run(fetchingAll: true, now: Self.t0.addingTimeInterval(60))
        #expect(summary.unchanged == 1)
        let request = try #require(transport.requests(to: url).last)
        #expect(request.headers.first { $0.matches("If-None-Match") }?.value == #"W/"v1""#)
        #expect(try store.state().generation == generation, "a 304 writes no message")
        #expect(try FeedSubscriptions(store: store).all().first?.lastFetch == Self.t0.addingTimeInterval(60))
    }

    @Test func theSameBodyWithoutValidatorsIsNotParsedNorWritten() async throws {
        let url = "https://a.example/f"
        let transport = ChangingTransport()
        transport.answer(url, Self.ok(Self.rss([("1", "One")])))
        let (store, subscription, directory) = try await Self.subscribed(url, transport)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(subscription.contentHash?.count == 64)
        let generation = try store.state().generation
        let summary = try await FeedSync(store: store, fetcher: FeedFetcher(transport: transport)).run(fetchingAll: true, now: Self.t0.addingTimeInterval(60))
        #expect(summary.unchanged == 1)
        #expect(try store.state().generation == generation)
        // A different body is parsed and stored.
        transport.answer(url, Self.ok(Self.rss([("1", "One"), ("2", "Two")])))
        let changed = try await FeedSync(store: store, fetcher: FeedFetcher(transport: transport)).run(fetchingAll: true, now: Self.t0.addingTimeInterval(120))
        #expect(changed.fetched == 1)
        #expect(changed.newItems == 1)
        #expect(try store.state().generation > generation)
    }

    @Test func anEditedItemKeepsItsIDAndTimeAndIsMarkedEdited() async throws {
        let url = "https://a.example/f"
        let transport = ChangingTransport()
        transport.answer(url, Self.ok(Self.rss([("1", "One"), ("2", "Two")])))
        let (store, subscription, directory) = try await Self.subscribed(url, transport)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let id = FeedMessages.messageID(subscription: subscription.id, itemID: "1")
        let before = try #require(try store.message(id: id))
        #expect(before.editedAt == nil)
        // Item 2 leaves the feed, item 1 is corrected.
        transport.answer(url, Self.ok(Self.rss([("1", "One, corrected")])))
        let later = Self.t0.addingTimeInterval(7200)
        let summary = try await FeedSync(store: store, fetcher: FeedFetcher(transport: transport)).run(now: later)
        #expect(summary.editedItems == 1)
        #expect(summary.newItems == 0)
        let after = try #require(try store.message(id: id))
        #expect(after.text.hasPrefix("One, corrected"))
        #expect(after.createdAt == before.createdAt, "an undated item keeps the time it was first seen")
        #expect(after.editedAt == later)
        #expect(try store.message(id: FeedMessages.messageID(subscription: subscription.id, itemID: "2")) != nil, "items that leave the feed stay")
    }

    @Test func retryAfterKeepsEvenAnAllFeedsSyncAway() async throws {
        let url = "https://a.example/f"
        let transport = ChangingTransport()
        transport.answer(url, Self.ok(Self.rss([("1", "One")])))
        let (store, _, directory) = try await Self.subscribed(url, transport)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        transport.answer(url, HTTPResponse(status: 503, headers: [HTTPHeader(name: "Retry-After", value: "Mon, 18 Jan 2027 08:00:00 GMT")]))
        let now = Self.t0.addingTimeInterval(60)
        let sync = FeedSync(store: store, fetcher: FeedFetcher(transport: transport))
        let refused = try await sync.run(fetchingAll: true, now: now)
        #expect(refused.failed == 1)
        let stored = try #require(try FeedSubscriptions(store: store).all().first)
        // Three days away: bounded to a day.
        #expect(stored.retryAfter == now.addingTimeInterval(86_400))
        #expect(stored.problem?.contains("503") == true)
        let asked = transport.requests(to: url).count
        let waiting = try await sync.run(fetchingAll: true, now: now.addingTimeInterval(3600))
        #expect(waiting.outcomes.map(\.kind) == [.waiting(until: now.addingTimeInterval(86_400))])
        #expect(transport.requests(to: url).count == asked, "no request before Retry-After")
        transport.answer(url, Self.ok(Self.rss([("1", "One")])))
        let after = try await sync.run(fetchingAll: true, now: now.addingTimeInterval(86_401))
        #expect(after.unchanged == 1)
        #expect(try FeedSubscriptions(store: store).all().first?.retryAfter == nil)
        #expect(try FeedSubscriptions(store: store).all().first?.problem == nil)
    }

    @Test func retryAfterIsReadAsSecondsOrAnHTTPDate() {
        let now = Self.t0
        #expect(FeedRetryAfter.date("120", now: now) == now.addingTimeInterval(120))
        #expect(FeedRetryAfter.date(" 99999999999999999999 ", now: now) == now.addingTimeInterval(86_400))
        // t0 is Fri, 15 Jan 2027 08:00:00 GMT.
        #expect(FeedRetryAfter.date("Fri, 15 Jan 2027 09:00:00 GMT", now: now) == now.addingTimeInterval(3_600))
        #expect(FeedRetryAfter.date("Thu, 01 Jan 1970 00:00:00 GMT", now: now) == nil, "a time already past")
        #expect(FeedRetryAfter.date("soon", now: now) == nil)
    }

    @Test func a301MovesTheSubscriptionAndA302DoesNot() async throws {
        let transport = ChangingTransport()
        transport.answer("https://a.example/old", Self.ok(Self.rss([("1", "One")])))
        transport.answer("https://a.example/temporary", Self.ok(Self.rss([("1", "One")])))
        let (store, _, directory) = try await Self.subscribed("https://a.example/old", transport)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try await FeedSubscriptions(store: store).subscribe(to: "https://a.example/temporary", name: "temporary",
                                                                fetcher: FeedFetcher(transport: transport), now: Self.t0)
        transport.answer("https://a.example/old", HTTPResponse(status: 301, headers: [HTTPHeader(name: "Location", value: "/new")]))
        transport.answer("https://a.example/temporary", HTTPResponse(status: 302, headers: [HTTPHeader(name: "Location", value: "/today")]))
        transport.answer("https://a.example/new", Self.ok(Self.rss([("1", "One")])))
        transport.answer("https://a.example/today", Self.ok(Self.rss([("1", "One")])))
        let summary = try await FeedSync(store: store, fetcher: FeedFetcher(transport: transport)).run(fetchingAll: true, now: Self.t0.addingTimeInterval(60))
        #expect(summary.failed == 0, "\(summary)")
        let urls = Set(try FeedSubscriptions(store: store).all().map(\.url))
        #expect(urls == ["https://a.example/new", "https://a.example/temporary"])
    }

    @Test func aFailingFeedKeepsItsProblemAndTheOthersAreFetched() async throws {
        let transport = ChangingTransport()
        transport.answer("https://a.example/good", Self.ok(Self.rss([("1", "One")])))
        transport.answer("https://a.example/bad", Self.ok(Self.rss([("1", "One")])))
        let (store, _, directory) = try await Self.subscribed("https://a.example/good", transport)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try await FeedSubscriptions(store: store).subscribe(to: "https://a.example/bad", name: "bad", fetcher: FeedFetcher(transport: transport), now: Self.t0)
        transport.answer("https://a.example/good", Self.ok(Self.rss([("1", "One"), ("2", "Two")])))
        transport.answer("https://a.example/bad", Self.ok(Array("<html>\n<body>\u{1B}[31mnot a feed</body></html>".utf8)))
        let summary = try await FeedSync(store: store, fetcher: FeedFetcher(transport: transport)).run(fetchingAll: true, now: Self.t0.addingTimeInterval(60))
        #expect(summary.fetched == 1)
        #expect(summary.failed == 1)
        let bad = try #require(try FeedSubscriptions(store: store).find("bad"))
        let problem = try #require(bad.problem)
        #expect(!problem.unicodeScalars.contains { $0.properties.generalCategory == .control }, "one line, no escape: \(problem)")
        #expect(try FeedSubscriptions(store: store).find("https://a.example/good")?.problem == nil)
    }

    @Test func aBodyOverTenMegabytesIsRefusedAndKeptAsTheFeedsProblem() async throws {
        let url = "https://a.example/f"
        let transport = ChangingTransport()
        transport.answer(url, Self.ok(Self.rss([("1", "One")])))
        let (store, _, directory) = try await Self.subscribed(url, transport)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        transport.answer(url, Self.ok([UInt8](repeating: 0x20, count: FeedFetcher.maximumBytes + 1)))
        let summary = try await FeedSync(store: store, fetcher: FeedFetcher(transport: transport)).run(fetchingAll: true, now: Self.t0.addingTimeInterval(60))
        #expect(summary.failures.map(\.error) == [.fetch(.transport(.responseTooLarge(url: url, limit: 10 << 20)))])
        #expect(try FeedSubscriptions(store: store).all().first?.problem?.contains("more than 10485760 bytes") == true)
    }

    @Test func feedsAreFetchedAtMostFourAtATime() async throws {
        let transport = ChangingTransport()
        let urls = (0 ..< 10).map { "https://a.example/\($0)" }
        for url in urls { transport.answer(url, Self.ok(Self.rss([("1", "One")]))) }
        let (store, _, directory) = try await Self.subscribed(urls[0], transport)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (index, url) in urls.enumerated().dropFirst() {
            _ = try await FeedSubscriptions(store: store).subscribe(to: url, name: "f\(index)", fetcher: FeedFetcher(transport: transport), now: Self.t0)
        }
        // Held until 4 are in flight: one at a time, the first would wait its 10 s and the most
        // in flight would be 1.
        transport.state.withLock { state in
            state.mostInFlight = 0
            state.gather = 4
        }
        let summary = try await FeedSync(store: store, fetcher: FeedFetcher(transport: transport)).run(fetchingAll: true, now: Self.t0.addingTimeInterval(60))
        #expect(summary.unchanged == 10)
        #expect(transport.mostInFlight == 4)
    }
}
