#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension MastodonSync {
    /// How much earlier than the queue time a status may say it was created and still be the
    /// queued post: the server's clock and this machine's may disagree by a few minutes.
    public static let publishedPostClockSkew: TimeInterval = 5 * 60

    /// How many of the account's newest statuses are read to look for the queued post.
    public static let publishedPostSearchLimit = 40

    /// Publishes a post sent from the outbox (issue 27, "never sent twice").
    ///
    /// A retry of a post relies first on its `Idempotency-Key`: Mastodon answers a repeated key
    /// with the status it already made. But Mastodon keeps a key for about an hour only, and
    /// some servers (Takahē, the real server the tests run against) ignore it. So when an earlier
    /// try may have reached the server (`mayHaveReachedServer`: the entry's attempts count says a
    /// try was made and not known to have failed before the server), the account's own newest
    /// statuses are read first, whatever the entry's age (`GET /api/v1/accounts/:id/statuses?limit=40`,
    /// one request, and only on such a retry, which is rare: an answer lost on its way back). A
    /// status of them that is not a boost, was created at or after the queue time less
    /// ``publishedPostClockSkew``, has the same text (both through the decoder's HTML-to-text
    /// conversion, whitespace runs made one space, ends trimmed) and the same reply target is
    /// taken as the post published by the earlier try: it is stored and returned, nothing is
    /// sent. Otherwise the post is sent as always, with its key.
    ///
    /// The content warning and visibility are not compared: a server may change them (a default
    /// visibility, a warning added by a moderator), and a text with the same reply target in the
    /// same short window is already the person's. A false match costs one post not published
    /// (the person wrote the same words twice as a reply to the same post within the window, and
    /// the second is taken for the first); a missed match costs a duplicate post, which the
    /// person can delete. Both need the rare case of a retry an hour later, and the first is the
    /// lesser: the text is on the server already.
    ///
    /// A server that lacks the list of an account's statuses or refuses it (a 404, a 403) gets
    /// the post as before: the read cannot decide, and the post must not be dropped for it.
    ///
    /// - Throws: as ``post(_:)``; and the errors of reading the statuses other than a refusal
    ///   (an unreachable server leaves the entry queued, as a failed post would).
    @discardableResult
    public func postFromOutbox(_ post: MastodonPost, queuedAt: Date, mayHaveReachedServer: Bool) async throws(ServerError) -> Message {
        try await postingFromOutbox(post, queuedAt: queuedAt, mayHaveReachedServer: mayHaveReachedServer).message
    }

    /// ``postFromOutbox(_:queuedAt:mayHaveReachedServer:)``, with what ``posting(_:)`` says of a
    /// reply made wider than its post (nothing for a post an earlier try published).
    func postingFromOutbox(
        _ post: MastodonPost, queuedAt: Date, mayHaveReachedServer: Bool
    ) async throws(ServerError) -> (message: Message, widened: VisibilityChange?) {
        if mayHaveReachedServer {
            do {
                if let published = try await publishedPost(matching: post, queuedAt: queuedAt) { return (published, nil) }
            } catch {
                // A server without the list, or one that refuses it, cannot say: the post is
                // sent as before rather than dropped as if the server had refused the post.
                switch error {
                case .serverLacks, .rejected: break
                default: throw error
                }
            }
        }
        return try await posting(post)
    }

    /// The account's own status among its newest that is `post` published by an earlier try
    /// (see ``postFromOutbox(_:queuedAt:mayHaveReachedServer:)``), stored; `nil` when none is.
    func publishedPost(matching post: MastodonPost, queuedAt: Date) async throws(ServerError) -> Message? {
        let replyTo = try post.replyTo.map { id throws(ServerError) in namespace.id(try serverStatusID(replyingTo: id)) }
        let ownID = try await ownAccountServerID()
        let url = client.server.url("/api/v1/accounts/" + FormEncoding.escape(ownID) + "/statuses",
                                    query: [("limit", String(Self.publishedPostSearchLimit))])
        let response = try await client.send(.get, url, feature: "reading the account's own posts",
                                             endpoint: "GET /api/v1/accounts/:id/statuses")
        let decoder = MastodonDecoder(overlongText: .cut)
        let statuses = try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) -> [(String, DecodedTimeline)] in
            let elements = try document.elements(expected: "an array of statuses")
            var statuses: [(String, DecodedTimeline)] = []
            for (index, element) in elements.prefix(Self.publishedPostSearchLimit).enumerated() {
                var entry = DecodedTimeline()
                // A status that cannot be read is not the post: it is skipped, not a failure.
                guard let id = try? decoder.status(try JSONObjectView(element, path: "[\(index)]", expected: "a status object"), into: &entry) else {
                    continue
                }
                statuses.append((id, entry))
            }
            return statuses
        }
        let wanted = Self.comparableText(post.text)
        let earliest = queuedAt.addingTimeInterval(-Self.publishedPostClockSkew)
        for (serverID, entry) in statuses {
            let id = namespace.id(serverID)
            let local = namespace.apply(to: entry)
            guard let message = local.message(id: id), message.repostOfID == nil,
                  message.createdAt >= earliest, message.replyToID == replyTo,
                  Self.comparableText(message.text) == wanted else { continue }
            // Only this status (with its author) is stored: the others are not what was asked.
            return try storeOwn((id, local), from: url)
        }
        return nil
    }

    /// `text` with every run of whitespace one space and its ends trimmed: the server's HTML
    /// and its conversion to text change line breaks and spacing, not words.
    static func comparableText(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// The account's ID on its server: the one the account was stored with, else
    /// `verify_credentials`' answer.
    func ownAccountServerID() async throws(ServerError) -> String {
        if let known = ownUserID.flatMap(namespace.serverID), !known.isEmpty { return known }
        let url = client.server.url("/api/v1/accounts/verify_credentials")
        let response = try await client.send(.get, url)
        return try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) in
            try JSONObjectView(document, path: "", expected: "an account object").requiredID("id")
        }
    }
}
