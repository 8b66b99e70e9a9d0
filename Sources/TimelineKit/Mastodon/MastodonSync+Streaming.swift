import Synchronization

extension MastodonClient {
    /// Where the server's streaming API is: `configuration.urls.streaming` of
    /// `GET /api/v2/instance` (`wss://streaming.mastodon.social`), as the `https://` URL that
    /// serves server-sent events; the server's own address when it names none (Mastodon serves
    /// the stream there too, behind its proxy).
    public func streamingBaseURL() async throws(ServerError) -> String {
        let url = server.url("/api/v2/instance")
        let response: HTTPResponse
        do {
            response = try await send(.get, url)
        } catch {
            // Servers of the API without v2 (older Pleroma, GoToSocial before 0.14) stream at home.
            if case let .rejected(_, status, _) = error, status == 404 || status == 410 { return server.baseURL }
            throw error
        }
        let streaming = try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) -> String? in
            let instance = try JSONObjectView(document, path: "", expected: "an instance object")
            return try instance.object("configuration", expected: "an object")?.object("urls", expected: "an object")?.string("streaming")
        }
        guard var streaming, !streaming.isEmpty else { return server.baseURL }
        if streaming.lowercased().hasPrefix("wss://") {
            streaming = "https://" + streaming.dropFirst(6)
        } else if streaming.lowercased().hasPrefix("ws://") {
            streaming = "http://" + streaming.dropFirst(5)
        }
        while streaming.hasSuffix("/") { streaming.removeLast() }
        // A streaming host over plain http (or `ws://`) named by a server reached over https
        // would get the token in clear: the server's own address serves the stream instead.
        guard server.mayReceiveCredentials(streaming) else { return server.baseURL }
        return streaming
    }
}

extension MastodonSync {
    /// Follows the account's event stream (`GET /api/v1/streaming/user`, server-sent events)
    /// until the server ends it, storing each event as it arrives and then calling `onEvent`:
    /// `update` (a new home status, placed at the top of the account's home timeline),
    /// `status.update` (an edit, in place), `delete` (the message is removed), `notification`.
    /// Each event is one transaction, after which the snapshot is rewritten, so every terminal's
    /// `show` sees it. Other events are reported as `.ignored`, as is an event whose data cannot
    /// be read (it is skipped, the stream goes on).
    ///
    /// Statuses that arrived between the last sync and the connection are not in the stream:
    /// the first status of a connection is placed above a recorded gap, which the next sync
    /// fills. Run `run()` before, or use `follow(pollInterval:onEvent:)`, which does both.
    ///
    /// - Throws: `.unauthorized`; `.rejected` when the server refuses to stream; the transport's
    ///   failures as `.unreachable`; `.store` when an event cannot be stored (the stream stops).
    public func stream(onEvent: @escaping @Sendable (MastodonStreamEvent) -> Void = { _ in }) async throws(ServerError) {
        do {
            try await streamHidingNothing(onEvent: onEvent)
        } catch {
            throw error.hiding(client.secrets)
        }
    }

    private func streamHidingNothing(onEvent: @escaping @Sendable (MastodonStreamEvent) -> Void) async throws(ServerError) {
        let url = try await client.streamingBaseURL() + "/api/v1/streaming/user"
        guard client.server.mayReceiveCredentials(url) else {
            throw .invalidResponse(url: url, problem: "it is plain http, and the token of \(client.server.origin) never goes over plain http.")
        }
        var request = HTTPRequest(method: .get, url: url, headers: client.headers(accept: "text/event-stream"),
                                  timeout: Self.streamSilenceLimit)
        // The keep-alive window, enforced by curl itself too: a stream that stays silent
        // (no heartbeat) for the whole window is dropped, even if this process is gone.
        request.minimumBytesPerSecond = 1
        request.slowTransferWindow = Self.streamSilenceLimit
        let receiver = StreamReceiver(sync: self, url: url, onEvent: onEvent)
        let response: HTTPResponse
        do {
            response = try await client.transport.stream(request) { status, chunk in receiver.receive(status: status, chunk) }
        } catch {
            if case .cancelled = error { throw .cancelled }
            throw .unreachable(error, attempts: 1)
        }
        if let failure = receiver.failure { throw failure }
        if (200 ..< 300).contains(response.status) { return }
        if TokenRefusal.isRefusal(HTTPResponse(status: response.status, body: receiver.refusal)) {
            throw .unauthorized(server: client.server.baseURL)
        }
        if ServerError.missingEndpointStatuses.contains(response.status) { throw .notSupported(url: url, status: response.status) }
        throw .rejected(url: url, status: response.status, reason: ServerError.reason(inBody: receiver.refusal))
    }

    /// How long a stream must have stayed open to count as having worked: one that ends
    /// sooner, however it ends (closed at once, cut, silent, unreachable), makes the next
    /// connection wait longer. (A refusal, 4xx or 5xx, turns to polling instead.)
    static let workingStreamDuration: Duration = .seconds(60)

    /// The wait before connection number `attempt` (1-based) of a run of streams that each
    /// ended early: 1 s, 2 s, 4 s… up to a minute.
    static func reconnectionWait(attempt: Int) -> Duration {
        min(Duration.seconds(1 << min(6, max(0, attempt - 1))), .seconds(60))
    }

    /// Keeps the store live from the server until the task is cancelled (what `show -f` does
    /// with an account): a sync, then the event stream; when the stream ends or fails, a sync
    /// again (which fills the gap the disconnection left) and a new connection, waiting 1 s,
    /// 2 s, 4 s… up to a minute between failed attempts.
    ///
    /// Where the server does not stream (Takahē: 404 on `/api/v1/streaming`, and no streaming
    /// URL in its instance description) or refuses to, it syncs every `pollInterval` instead,
    /// and calls `onPolling` once with the reason. A server known to lack streaming
    /// (``ServerFeature/streaming``, remembered per account for a day) is polled from the start.
    /// No optional endpoint missing ends the follow: the sync goes on without it.
    ///
    /// With a `gate` (the timeline's ``SyncGate``), each of those syncs holds its lock and is
    /// left out while another process holds it: a `timeline sync` running at that moment stores
    /// the same statuses, and ten terminals following one account send one round of requests.
    /// A sync that fails for a while (the server is down) is told to `health` once, and its
    /// return once more.
    ///
    /// - Throws: `.unauthorized` (log in again), `.cancelled` when the task is cancelled,
    ///   `.store`, and errors of a sync that are not temporary.
    public func follow(
        pollInterval: Duration = MastodonSync.pollInterval, gate: SyncGate? = nil, health: FollowHealth? = nil,
        onPolling: @escaping @Sendable (ServerError) -> Void = { _ in },
        onEvent: @escaping @Sendable (MastodonStreamEvent) -> Void = { _ in }
    ) async throws(ServerError) {
        // Streams in a row that ended before `workingStreamDuration`, however they ended.
        var earlyEnds = 0
        var streams = true
        let now = MillisecondTime.milliseconds(from: client.clock.now())
        let lackingSince = try read { connection throws(SQLiteError) in try ledger(connection, .home).lackingSince(.streaming) }
        if let lackingSince, now.saturatingSubtracting(lackingSince) < Int64(ServerFeature.recheckInterval.components.seconds) * 1000 {
            streams = false
            onPolling(.notSupported(url: client.server.url("/api/v1/streaming/user"), status: 404))
        }
        while true {
            if Task.isCancelled { throw .cancelled }
            try await followRound(gate: gate, health: health) { () async throws(ServerError) in try await run() }
            if streams {
                let opened = client.clock.now()
                defer {
                    let lasted = ServerRequester.duration(from: opened, to: client.clock.now())
                    earlyEnds = lasted >= Self.workingStreamDuration ? 1 : earlyEnds + 1
                }
                do {
                    try await stream(onEvent: onEvent)
                } catch {
                    switch error {
                    case .notSupported:
                        streams = false
                        try recordLack(of: .streaming, at: MillisecondTime.milliseconds(from: client.clock.now()))
                        onPolling(error)
                    case .rejected, .invalidResponse, .answerTooDeep:
                        streams = false
                        onPolling(error)
                    case .unauthorized, .cancelled, .store:
                        throw error
                    default:
                        break
                    }
                }
            }
            do {
                try await client.clock.sleep(streams ? Self.reconnectionWait(attempt: earlyEnds) : pollInterval)
            } catch {
                throw .cancelled
            }
        }
    }

    /// How often a server that does not stream is synced while it is followed: 30 s. A round
    /// is two requests (home, notifications; markers where the server has them), 20 to 30 in
    /// five minutes, well within Mastodon's 300; and `SyncGate` makes terminals share rounds.
    public static let pollInterval: Duration = .seconds(30)

    /// The longest silence on a stream before it counts as broken: Mastodon sends a comment
    /// every few seconds to keep it open.
    static let streamSilenceLimit: Duration = .seconds(90)

    /// Stores one event of the stream. Returns what it changed; `previous` is the entry of each
    /// timeline that this connection placed last.
    func apply(_ event: ServerSentEvent, url: String, previous: inout [SyncedTimeline: String]) throws(ServerError) -> MastodonStreamEvent {
        let source = url + " (event \(QuotedValue.quoted(event.type)))"
        switch event.type {
        case "update":
            let (id, timeline) = try Self.status(inBody: Array(event.data.utf8), from: source, namespace: namespace)
            let serverID = namespace.serverID(of: id) ?? id
            let page = FetchedPage(entryIDs: [serverID], timeline: timeline, notifications: [], olderCursor: nil)
            if try store(page, of: .home, at: .streamed(previous: previous[.home]), depth: options.homeDepth,
                         refreshingSnapshot: true).newEntries > 0 {
                previous[.home] = serverID
            }
            return .status(messageID: id)
        case "status.update":
            let (id, timeline) = try Self.status(inBody: Array(event.data.utf8), from: source, namespace: namespace)
            try write(refreshingSnapshot: true) { transaction throws(TimelineStoreError) in
                try transaction.upsert(users: timeline.users)
                try transaction.upsert(messages: timeline.messages)
            }
            return .edited(messageID: id)
        case "delete":
            let serverID = String(event.data.trimmingWhitespace())
            let id = namespace.id(serverID)
            _ = try write(refreshingSnapshot: true) { transaction throws(TimelineStoreError) in
                try transaction.deleteMessages(ids: [id])
                try transaction.withSQLite { () throws(SQLiteError) in try ledger(transaction.connection, .home).removeHomeEntry(statusID: serverID) }
            }
            return .deleted(messageID: id)
        case "notification":
            var timeline = DecodedTimeline()
            let notification = try ServerResponseReader.read(body: Array(event.data.utf8), from: source) { document throws(JSONLineFailure) in
                try DecodedNotification(JSONObjectView(document, path: "", expected: "a notification object"), into: &timeline)
            }
            let page = FetchedPage(entryIDs: [notification.id], timeline: namespace.apply(to: timeline),
                                   notifications: [notification.namespaced(namespace)], olderCursor: nil)
            if try store(page, of: .notifications, at: .streamed(previous: previous[.notifications]),
                         depth: options.notificationDepth, refreshingSnapshot: true).newEntries > 0 {
                previous[.notifications] = notification.id
            }
            return .notification(serverID: notification.id)
        default:
            return .ignored(type: event.type)
        }
    }
}

/// The state of one streaming connection, fed from the transport's callback: the event parser,
/// what the connection placed, and the first failure.
final class StreamReceiver: Sendable {
    private struct State {
        var parser = ServerSentEventParser()
        var previous: [SyncedTimeline: String] = [:]
        var refusal: [UInt8] = []
        var failure: ServerError?
    }

    private let sync: MastodonSync
    private let url: String
    private let onEvent: @Sendable (MastodonStreamEvent) -> Void
    private let state = Mutex(State())

    init(sync: MastodonSync, url: String, onEvent: @escaping @Sendable (MastodonStreamEvent) -> Void) {
        self.sync = sync
        self.url = url
        self.onEvent = onEvent
    }

    /// The first error that stopped the stream.
    var failure: ServerError? { state.withLock { $0.failure } }
    /// The start of the body of a refused stream (its reason).
    var refusal: [UInt8] { state.withLock { $0.refusal } }

    /// Takes the next bytes; returns whether to go on reading.
    func receive(status: Int, _ chunk: [UInt8]) -> Bool {
        var reported: [MastodonStreamEvent] = []
        let goOn = state.withLock { state -> Bool in
            guard (200 ..< 300).contains(status) else {
                state.refusal += chunk.prefix(max(0, (64 << 10) - state.refusal.count))
                return state.refusal.count < 64 << 10
            }
            for event in state.parser.parse(chunk) {
                do throws(ServerError) {
                    reported.append(try sync.apply(event, url: url, previous: &state.previous))
                } catch {
                    switch error {
                    case .invalidResponse, .answerTooDeep:
                        reported.append(.ignored(type: event.type))
                    default:
                        state.failure = error
                        return false
                    }
                }
            }
            return true
        }
        for event in reported { onEvent(event) }
        return goOn
    }
}
