#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// Requests to Bluesky (any AT Protocol PDS) as one account: XRPC queries and procedures with
/// the session's access token, the session refreshed when it expires, and the server's limits
/// and faults handled as for Mastodon (`ServerRequester`: retries, back-off, `429` and the
/// `RateLimit-*` headers).
///
/// ```swift
/// let client = BlueskyClient(service: try ServerAddress("https://bsky.social"), session: blueskySession,
///                            transport: transport) { renewed in try? save(renewed) }
/// let page = try await client.query("app.bsky.feed.getTimeline", [("limit", "100")])
/// ```
///
/// **Sessions.** `createSession` logs in with a handle (or email) and an app password; the
/// server allows 30 of those per 5 minutes and 300 a day per account, so a stored session is
/// refreshed instead (`refreshSession`), never made anew by `sync`. When a request answers that
/// the access token expired (`400`/`401` with `ExpiredToken` or `InvalidToken`), the client
/// refreshes once and sends the request again; `sessionDidChange` receives every new session, to
/// store it at once (the old refresh token stops working). A refresh that is refused ends in
/// `ServerError.unauthorized`: log in again (exit 77).
///
/// **Where requests go.** To the session's PDS (from its DID document) when it has one, else to
/// `service`. Tokens never go anywhere else.
///
/// **Labelers.** Every call names the labelers whose labels the AppView should add to its
/// answers (`atproto-accept-labelers`), as the official client does: Bluesky's own moderation
/// service with `;redact`, then those the person subscribes to (``acceptLabelers(_:)``, set from
/// their preferences at each sync).
public final class BlueskyClient: Sendable, CustomStringConvertible {
    /// The server logged in to (an entryway such as `https://bsky.social`, or a PDS).
    public let service: ServerAddress
    let requester: ServerRequester
    private let session: Mutex<BlueskySession?>
    /// Every token this client held (a refreshed session's old ones too): what no error of it
    /// may show.
    private let tokensHeld: Mutex<[String]>
    private let sessionDidChange: @Sendable (BlueskySession) -> Void
    /// The value of `atproto-accept-labelers` sent with every call.
    private let acceptedLabelers = Mutex(BlueskyPreferences.acceptLabelers([]))

    /// A client of `service`, with a stored session or none (then only ``createSession(identifier:password:)``
    /// can be called).
    public init(
        service: ServerAddress, session: BlueskySession?, transport: any HTTPTransport,
        policy: RequestPolicy = RequestPolicy(), clock: SyncClock = .system,
        userAgent: String = "timeline/\(timelineKitVersion)",
        sessionDidChange: @escaping @Sendable (BlueskySession) -> Void = { _ in }
    ) {
        self.service = service
        self.session = Mutex(session)
        tokensHeld = Mutex(session.map { [$0.accessToken.value, $0.refreshToken.value] } ?? [])
        self.sessionDidChange = sessionDidChange
        requester = ServerRequester(transport: transport, policy: policy, clock: clock, userAgent: userAgent)
    }

    /// The server a login goes to when none is named: Bluesky's entryway.
    public static let defaultService = "https://bsky.social"

    public var description: String { "BlueskyClient(\(service.baseURL), \(currentSession.map { $0.did } ?? "no session"))" }

    /// The session requests are made with now.
    public var currentSession: BlueskySession? { session.withLock { $0 } }

    /// What no error of this client may show: the tokens of every session it held.
    public var secrets: Secrets { Secrets(tokensHeld.withLock { $0 }) }

    /// How many requests were sent so far, retries and refreshes included.
    public var requestsSent: Int { requester.requestsSent }
    /// Body bytes of the answers received so far, every request included.
    public var bytesReceived: Int { requester.bytesReceived }

    /// The time, and how waiting is done.
    public var clock: SyncClock { requester.clock }

    /// Where XRPC calls go: the session's PDS, else the service.
    var host: ServerAddress {
        if let pds = currentSession?.pds, service.mayReceiveCredentials(pds), let address = try? ServerAddress(pds) { return address }
        return service
    }

    // MARK: Sessions

    /// Logs in (`com.atproto.server.createSession`) with a handle, DID or email and an app
    /// password, and makes the answer the client's session.
    ///
    /// - Throws: `.rejected` with the server's reason (`AuthenticationRequired: Invalid
    ///   identifier or password`, `AuthFactorTokenRequired`), or any other `ServerError`.
    @discardableResult
    public func createSession(identifier: String, password: String) async throws(ServerError) -> BlueskySession {
        var body: [UInt8] = Array(#"{"identifier":"#.utf8)
        JSONLineEncoder.appendString(identifier, to: &body)
        body += Array(#","password":"#.utf8)
        JSONLineEncoder.appendString(password, to: &body)
        body.append(UInt8(ascii: "}"))
        let url = service.url("/xrpc/com.atproto.server.createSession")
        let request = HTTPRequest(method: .post, url: url, headers: requester.headers() + [Self.jsonContent],
                                  body: body, timeout: requester.policy.requestTimeout)
        // A refusal here is a wrong password, said as the server says it, not "log in again".
        let response = try await requester.send(request, server: service.baseURL, secrets: Secrets([password]),
                                                isRefusedCredential: { _ in false })
        return try adopt(response, from: url)
    }

    /// Makes a new session from the refresh token (`com.atproto.server.refreshSession`).
    ///
    /// - Throws: `.unauthorized` when the server refuses the refresh token (expired, revoked):
    ///   log in again.
    @discardableResult
    public func refreshSession() async throws(ServerError) -> BlueskySession {
        guard let current = currentSession else { throw .unauthorized(server: service.baseURL) }
        let url = host.url("/xrpc/com.atproto.server.refreshSession")
        let request = HTTPRequest(method: .post, url: url, headers: [current.refreshToken.authorizationHeader] + requester.headers(),
                                  body: nil, timeout: requester.policy.requestTimeout)
        let response = try await requester.send(request, server: service.baseURL, isRefusedCredential: Self.isRefusedToken)
        return try adopt(response, from: url)
    }

    /// Ends the session at the server (`com.atproto.server.deleteSession`, with the refresh
    /// token), so neither token works any more: what `timeline logout` does.
    public func deleteSession() async throws(ServerError) {
        guard let current = currentSession else { return }
        let url = host.url("/xrpc/com.atproto.server.deleteSession")
        let request = HTTPRequest(method: .post, url: url, headers: [current.refreshToken.authorizationHeader] + requester.headers(),
                                  body: nil, timeout: requester.policy.requestTimeout)
        _ = try await requester.send(request, server: service.baseURL, isRefusedCredential: Self.isRefusedToken)
        session.withLock { $0 = nil }
    }

    /// Tells Bluesky the person has seen their notifications up to `date`
    /// (`app.bsky.notification.updateSeen`), so its apps count them as read.
    public func markNotificationsSeen(at date: Date) async throws(ServerError) {
        var body: [UInt8] = Array(#"{"seenAt":"#.utf8)
        JSONLineEncoder.appendString(ServerError.timestamp(date), to: &body)
        body.append(UInt8(ascii: "}"))
        _ = try await procedure("app.bsky.notification.updateSeen", json: body)
    }

    private func adopt(_ response: HTTPResponse, from url: String) throws(ServerError) -> BlueskySession {
        let fresh = try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) in
            try BlueskySession.read(document)
        }
        tokensHeld.withLock { $0 += [fresh.accessToken.value, fresh.refreshToken.value] }
        // Every later call would carry the token to the PDS the DID document names.
        if let pds = fresh.pds, !service.mayReceiveCredentials(pds) {
            throw .invalidResponse(url: url, problem: "its DID document names the PDS \(QuotedValue.quoted(pds)), plain http, and a token of \(service.origin) never goes over plain http. Log in with --service naming the PDS's https address.")
        }
        session.withLock { $0 = fresh }
        sessionDidChange(fresh)
        return fresh
    }

    // MARK: Calls

    /// Names `labelers` (DIDs, after Bluesky's own) to the AppView in every call from now on.
    public func acceptLabelers(_ labelers: [String]) {
        let value = BlueskyPreferences.acceptLabelers(labelers.filter(BlueskyPreferences.isDID))
        acceptedLabelers.withLock { $0 = value }
    }

    /// The labelers every call names, as sent (`atproto-accept-labelers`).
    public var acceptedLabelersHeader: String { acceptedLabelers.withLock { $0 } }

    /// An XRPC query: `GET /xrpc/NSID?parameters`, refreshing the session once when it expired.
    public func query(_ nsid: String, _ parameters: [(name: String, value: String)] = []) async throws(ServerError) -> HTTPResponse {
        try await call(.get, nsid, parameters: parameters, body: nil)
    }

    /// An XRPC procedure: `POST /xrpc/NSID` with a JSON body, refreshing the session once when
    /// it expired. With `proxy` (`did:web:feeds.example#bsky_fg`), the PDS forwards it to that
    /// service (`atproto-proxy`), signing it for the account: how a feed generator is called.
    public func procedure(_ nsid: String, json: [UInt8], proxy: String? = nil) async throws(ServerError) -> HTTPResponse {
        try await call(.post, nsid, parameters: [], body: (json, Self.jsonContent.value), proxy: proxy)
    }

    /// An XRPC procedure whose input is raw bytes of `contentType` (a blob), sent with
    /// `timeout` rather than the policy's: an upload of a megabyte on a slow link takes longer
    /// than a JSON call.
    func procedure(_ nsid: String, bytes: [UInt8], contentType: String, timeout: Duration) async throws(ServerError) -> HTTPResponse {
        try await call(.post, nsid, parameters: [], body: (bytes, contentType), timeout: timeout)
    }

    /// One XRPC call, with `extra` headers (the chat's `atproto-proxy`) or a `proxy` for
    /// `atproto-proxy` (a feed generator's); `isRefused` says which answers refuse the token,
    /// which a refresh may put right.
    func call(
        _ method: HTTPRequest.Method, _ nsid: String, parameters: [(name: String, value: String)],
        body: (bytes: [UInt8], contentType: String)?, timeout: Duration? = nil,
        proxy: String? = nil, extra: [HTTPHeader] = [], isRefused: (HTTPResponse) -> Bool = BlueskyClient.isRefusedToken
    ) async throws(ServerError) -> HTTPResponse {
        var refreshed = false
        while true {
            guard let current = currentSession else { throw .unauthorized(server: service.baseURL) }
            let url = host.url("/xrpc/" + nsid, query: parameters)
            var headers = [current.accessToken.authorizationHeader] + requester.headers()
            headers.append(HTTPHeader(name: "atproto-accept-labelers", value: acceptedLabelersHeader))
            if let body { headers.append(HTTPHeader(name: "Content-Type", value: body.contentType)) }
            if let proxy { headers.append(HTTPHeader(name: "atproto-proxy", value: proxy)) }
            headers += extra
            let request = HTTPRequest(method: method, url: url, headers: headers, body: body?.bytes,
                                      timeout: timeout ?? requester.policy.requestTimeout)
            do {
                return try await requester.send(request, server: service.baseURL, isRefusedCredential: isRefused)
            } catch {
                guard case .unauthorized = error, !refreshed else { throw error }
                refreshed = true
                try await refreshSession()
            }
        }
    }

    static let jsonContent = HTTPHeader(name: "Content-Type", value: "application/json")

    /// Whether an answer says the token sent is expired or refused: `401`, or `400` with XRPC's
    /// `ExpiredToken` or `InvalidToken` (what a PDS answers for an expired access token).
    static func isRefusedToken(_ response: HTTPResponse) -> Bool {
        if response.status == 401 { return true }
        guard response.status == 400, let document = try? JSONFields.document(response.body),
              let error = document.text("error") else { return false }
        return error == "ExpiredToken" || error == "InvalidToken"
    }
}
