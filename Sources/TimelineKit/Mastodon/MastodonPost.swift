#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A status to publish with `MastodonSync.post(_:)` (`POST /api/v1/statuses`).
///
/// ```swift
/// let post = MastodonPost(text: "Shipping today 🚀", contentWarning: "work", visibility: .unlisted)
/// let message = try await sync.post(post)       // the server's status, stored
/// // After a time-out, retry with the same `post` (same idempotencyKey): never published twice.
/// ```
public struct MastodonPost: Sendable, Hashable {
    /// Who may see it.
    public typealias Visibility = PostVisibility

    /// The text (the server counts and formats it).
    public var text: String
    /// A content warning, shown instead of the text until opened (`spoiler_text`).
    public var contentWarning: String?
    /// The message replied to: a stored message's ID (`mastodon.social/1098…`, of this
    /// account's server; a boost stands for the status it boosts), or the server's own
    /// status ID as written in its web address.
    public var replyTo: String?
    /// The status quoted (`quoted_status_id`, Mastodon 4.5's quotes API), named as `replyTo` is.
    /// A server without the API (``MastodonSync/supportsQuotes()``) refuses it before it is sent.
    public var quoteOf: String?
    /// Who may see it; the account's default when `nil`.
    ///
    /// A reply without one is never more public than what it answers: ``MastodonSync/post(_:)``
    /// reads the status replied to first and sends its ``PostVisibility/replyVisibility``.
    public var visibility: Visibility?
    /// Sent as `Idempotency-Key`: the server publishes a status once per key (Mastodon keeps
    /// keys for an hour), so a request retried after a time-out, or a command run again with the
    /// same key, never publishes twice. A new random key unless given.
    public var idempotencyKey: String

    // MARK: Post options (issue 36)

    /// The language it is written in (`language`, ISO 639: `en`); the account's default when `nil`.
    public var language: String?
    /// Whether its media is marked sensitive (`sensitive`).
    public var sensitive = false
    /// Its poll (`poll`: options, expires_in, multiple), checked against the server's limits first.
    public var poll: PollDraft?
    /// When the server is to publish it (`scheduled_at`): the server then answers a scheduled
    /// status, not a status (`MastodonSync/schedule(_:)`).
    public var scheduledAt: Date?

    // Pictures (issue 36).

    /// The uploaded pictures' IDs (``MastodonSync/uploadMedia(_:alt:)``), in the order they show.
    public var mediaIDs: [String] = []

    public init(text: String, contentWarning: String? = nil, replyTo: String? = nil, quoteOf: String? = nil,
                visibility: Visibility? = nil, idempotencyKey: String = MastodonPost.newIdempotencyKey()) {
        self.text = text
        self.contentWarning = contentWarning
        self.replyTo = replyTo
        self.quoteOf = quoteOf
        self.visibility = visibility
        self.idempotencyKey = idempotencyKey
    }

    /// A fresh random key (a UUID).
    public static func newIdempotencyKey() -> String {
        UUID().uuidString.lowercased()
    }

    /// The request body, with `in_reply_to_id` and `quoted_status_id` already the server's IDs.
    func body(replyToServerID: String?, quotedServerID: String? = nil) -> [UInt8] {
        var bytes: [UInt8] = Array(#"{"status":"#.utf8)
        JSONLineEncoder.appendString(text, to: &bytes)
        let fields: [(String, String?)] = [("spoiler_text", contentWarning), ("in_reply_to_id", replyToServerID),
                                           ("quoted_status_id", quotedServerID), ("visibility", visibility?.rawValue)]
        for (name, value) in fields {
            guard let value else { continue }
            bytes += Array(",\"\(name)\":".utf8)
            JSONLineEncoder.appendString(value, to: &bytes)
        }
        appendOptions(to: &bytes)
        if !mediaIDs.isEmpty {
            bytes += Array(#","media_ids":["#.utf8)
            for (index, id) in mediaIDs.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONLineEncoder.appendString(id, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}

extension MastodonSync {
    /// Publishes `post` as the account and stores the status the server answers with (read:
    /// the person wrote it). Its ID is namespaced like every synced message. A retry with the
    /// same `post` sends the same `Idempotency-Key`, so the status is published once.
    ///
    /// - Throws: `ServerError.replyTargetElsewhere` when `replyTo` is a message of another
    ///   server, the client's errors (`.rejected` with the server's reason for a refused post:
    ///   too long, empty), `.store`.
    @discardableResult
    public func post(_ post: MastodonPost) async throws(ServerError) -> Message {
        try await posting(post).message
    }

    /// ``post(_:)``, with the audiences of a reply that `visibility` made wider than the post
    /// it answers (`nil` for any other post).
    func posting(_ post: MastodonPost) async throws(ServerError) -> (message: Message, widened: VisibilityChange?) {
        let replyTo = try post.replyTo.map { id throws(ServerError) in try serverStatusID(replyingTo: id) }
        let quoted = try post.quoteOf.map { id throws(ServerError) in try serverStatusID(replyingTo: id) }
        if quoted != nil, !(try await supportsQuotes()) {
            throw .serverLacks(server: client.server.baseURL, feature: "quote posts (Mastodon's quotes API, 4.5 and later, which this server does not announce)")
        }
        var post = post
        var widened: VisibilityChange?
        if let replyTo, let parent = try await visibility(ofStatus: replyTo) {
            if let asked = post.visibility {
                if asked.isWider(than: parent) { widened = VisibilityChange(before: parent, after: asked) }
            } else {
                post.visibility = parent.replyVisibility
            }
        }
        let url = client.server.url("/api/v1/statuses")
        let response = try await client.send(.post, url, json: post.body(replyToServerID: replyTo, quotedServerID: quoted),
                                             headers: [HTTPHeader(name: "Idempotency-Key", value: post.idempotencyKey)])
        return (try storeOwn(try Self.status(in: response, from: url, namespace: namespace), from: url), widened)
    }

    /// Who may see the server's status `serverID`, read from the server when a reply is sent
    /// (what is stored may be older, and a reply kept offline is sent later): `nil` when the
    /// server no longer has it (404, 410; the reply is then the server's to refuse) or names an
    /// audience this library does not know.
    func visibility(ofStatus serverID: String) async throws(ServerError) -> PostVisibility? {
        let url = client.server.url("/api/v1/statuses/" + FormEncoding.escape(serverID))
        guard let response = try await getUnlessGone(url) else { return nil }
        return try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) -> PostVisibility? in
            try JSONObjectView(document, path: "", expected: "a status object").string("visibility").flatMap(PostVisibility.init(rawValue:))
        }
    }

    /// `GET url`, or `nil` when the server answers that it has no such thing (404, 410).
    func getUnlessGone(_ url: String) async throws(ServerError) -> HTTPResponse? {
        do {
            return try await client.send(.get, url)
        } catch {
            if case let .rejected(_, status, _) = error, status == 404 || status == 410 { return nil }
            throw error
        }
    }

    /// Whether the server has Mastodon's quotes API: it says so in `GET /api/v2/instance` with
    /// `api_versions.mastodon` 7 or later (Mastodon 4.5, as its client documentation for quote
    /// posts says). A server without `api_versions`, or without v2 of the instance (404, 410),
    /// has not got it: a `quoted_status_id` it does not know would be dropped silently and the
    /// post published without its quote.
    public func supportsQuotes() async throws(ServerError) -> Bool {
        let url = client.server.url("/api/v2/instance")
        guard let response = try await getUnlessGone(url) else { return false }
        let version = try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) -> Int? in
            let instance = try JSONObjectView(document, path: "", expected: "an instance object")
            guard let versions = try instance.object("api_versions", expected: "an object of API versions"),
                  versions.field("mastodon") != nil else { return nil }
            return try versions.count("mastodon")
        }
        return (version ?? 0) >= 7
    }

    /// The server's ID of the status a reply answers (or a post quotes).
    func serverStatusID(replyingTo id: String) throws(ServerError) -> String {
        // No `/`: the server's own ID, as its web address shows it.
        guard id.contains("/") else { return id }
        guard let serverID = namespace.serverID(of: id) else {
            throw .replyTargetElsewhere(messageID: id, server: client.server.baseURL)
        }
        // A boost has no text of its own: replying to it answers the status it boosts.
        let stored = try storeCall { () throws(TimelineStoreError) in try store.message(id: id) }
        if let original = stored?.repostOfID, let originalID = namespace.serverID(of: original) { return originalID }
        return serverID
    }

    /// One status (`POST /api/v1/statuses`, an event's data): its namespaced ID and what it holds.
    static func status(in response: HTTPResponse, from url: String, namespace: MastodonNamespace) throws(ServerError) -> (String, DecodedTimeline) {
        try status(inBody: ServerResponseReader.body(of: response, from: url), from: url, namespace: namespace)
    }

    /// One status in `body`.
    static func status(inBody body: [UInt8], from url: String, namespace: MastodonNamespace) throws(ServerError) -> (String, DecodedTimeline) {
        let (id, timeline) = try ServerResponseReader.read(body: body, from: url) { document throws(JSONLineFailure) in
            var timeline = DecodedTimeline()
            let view = try JSONObjectView(document, path: "", expected: "a status object")
            return (try MastodonDecoder(overlongText: .cut).status(view, into: &timeline), timeline)
        }
        return (namespace.id(id), namespace.apply(to: timeline))
    }
}
