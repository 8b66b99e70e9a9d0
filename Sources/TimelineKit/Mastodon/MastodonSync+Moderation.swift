#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Mute, block, muted words and reports on a Mastodon-API server (issue 34): the account is
// looked up as a follow looks it up (`lookUp(_:)`), a muted word is a v2 filter of its own.

extension MastodonSync {
    /// The contexts a muted word's filter applies in: everywhere the person reads.
    static let mutedWordContexts = ["home", "notifications", "public", "thread"]

    /// Mutes (`until`: when it ends, `nil` never) or unmutes, blocks or unblocks `handle`: a
    /// lookup, then `POST /api/v1/accounts/:id/mute` (with `duration`, the seconds left until
    /// `until`), `unmute`, `block` or `unblock`. Mastodon answers the relationship as it now
    /// stands whether or not it changed, so doing it twice is harmless. A mute whose end has
    /// passed while it waited in the outbox is not sent (`changed` false).
    public func moderate(_ handle: String, muting: Bool, on: Bool, until: Date? = nil) async throws(ServerError) -> ModerationOutcome {
        let user = try await lookUp(handle)
        let change: OutboxEntry.Change = muting ? (on ? .mute(handle: handle, until: until) : .unmute(handle: handle))
                                                : (on ? .block(handle: handle) : .unblock(handle: handle))
        let verb = (on ? "" : "un") + (muting ? "mute" : "block")
        var body: [UInt8]?
        if on, muting, let until {
            let seconds = Int(until.timeIntervalSince(client.clock.now()).rounded(.up))
            guard seconds > 0 else { return ModerationOutcome(change: change, user: user, storedUserID: namespace.id(user.id), changed: false) }
            body = Array(#"{"duration":\#(seconds)}"#.utf8)
        }
        let url = client.server.url("/api/v1/accounts/" + FormEncoding.escape(user.id) + "/" + verb)
        let response = try await client.send(.post, url, json: body, feature: muting ? "muting accounts" : "blocking accounts",
                                             endpoint: "POST /api/v1/accounts/:id/\(verb)")
        // The answer is a relationship; read so that a page that is not one is said.
        _ = try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) in
            try JSONObjectView(document, path: "", expected: "a relationship object").bool(muting ? "muting" : "blocking")
        }
        return ModerationOutcome(change: change, user: user, storedUserID: namespace.id(user.id))
    }

    /// The account's v2 filters (`GET /api/v2/filters`, read by ``MastodonFilters``). A server
    /// without v2 filters (Takahē answers 405 to making one) lacks muted words: `.serverLacks`
    /// naming the endpoint.
    func filters() async throws(ServerError) -> [MastodonFilters.Filter] {
        let url = client.server.url("/api/v2/filters")
        let response = try await client.send(.get, url, feature: "muted words (filters)", endpoint: "GET /api/v2/filters")
        return try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) in
            try MastodonFilters(document, namespace: namespace).all
        }
    }

    /// Mutes `word` until `until` (`nil`: until unmuted) with a v2 filter of its own
    /// (`POST /api/v2/filters`: title the word; contexts home, notifications, public and thread;
    /// `filter_action` hide; one keyword, the word, `whole_word` true; `expires_in` the seconds
    /// left until `until`). The filters are read first: a filter that already holds the word as a
    /// keyword is the mute (`changed` false), so a retry whose answer was lost makes no second one.
    public func muteWord(_ word: String, until: Date?) async throws(ServerError) -> ModerationOutcome {
        let change = OutboxEntry.Change.muteWord(word, until: until)
        let existing = try await filters()
        if existing.contains(where: { $0.keywords.contains { $0.keyword.lowercased() == word.lowercased() } }) {
            return ModerationOutcome(change: change, changed: false)
        }
        var body: [UInt8] = Array(#"{"title":"#.utf8)
        JSONLineEncoder.appendString(word, to: &body)
        body += Array(#","context":["#.utf8) + Array(Self.mutedWordContexts.map { "\"\($0)\"" }.joined(separator: ",").utf8)
        body += Array(#"],"filter_action":"hide","keywords_attributes":[{"keyword":"#.utf8)
        JSONLineEncoder.appendString(word, to: &body)
        body += Array(#","whole_word":true}]"#.utf8)
        if let until {
            let seconds = Int(until.timeIntervalSince(client.clock.now()).rounded(.up))
            guard seconds > 0 else { return ModerationOutcome(change: change, changed: false) }
            body += Array(#","expires_in":\#(seconds)"#.utf8)
        }
        body.append(UInt8(ascii: "}"))
        let url = client.server.url("/api/v2/filters")
        let response = try await client.send(.post, url, json: body, feature: "muted words (filters)", endpoint: "POST /api/v2/filters")
        _ = try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) in
            try JSONObjectView(document, path: "", expected: "a filter object").requiredID("id")
        }
        return ModerationOutcome(change: change)
    }

    /// Unmutes `word`: a filter titled the word with no other keyword is deleted
    /// (`DELETE /api/v2/filters/:id`), and the word is taken out of any other filter that holds
    /// it as a keyword (`DELETE /api/v2/filters/keywords/:id`), so that it is muted nowhere.
    /// A word no filter holds: nothing is sent (`changed` false).
    public func unmuteWord(_ word: String) async throws(ServerError) -> ModerationOutcome {
        let wanted = word.lowercased()
        var changed = false
        for filter in try await filters() {
            let matching = filter.keywords.filter { $0.keyword.lowercased() == wanted }
            guard !matching.isEmpty else { continue }
            if matching.count == filter.keywords.count {
                let url = client.server.url("/api/v2/filters/" + FormEncoding.escape(filter.id))
                _ = try await client.send(.delete, url, feature: "muted words (filters)", endpoint: "DELETE /api/v2/filters/:id")
            } else {
                // A keyword the server gave no ID cannot be deleted by itself.
                for keyword in matching {
                    guard let id = keyword.id else { continue }
                    let url = client.server.url("/api/v2/filters/keywords/" + FormEncoding.escape(id))
                    _ = try await client.send(.delete, url, feature: "muted words (filters)", endpoint: "DELETE /api/v2/filters/keywords/:id")
                }
            }
            changed = true
        }
        return ModerationOutcome(change: .unmuteWord(word), changed: changed)
    }

    /// The accounts muted (`GET /api/v1/mutes`, with each mute's `mute_expires_at`) and blocked
    /// (`GET /api/v1/blocks`), as `parts` asks, at most `limit` of each, paged and bounded as
    /// `accountPages(_:endpoint:feature:limit:_:)` does; and the keywords of the account's
    /// filters that hide (a server without v2 filters: none).
    public func moderationLists(_ parts: ModerationLists.Parts, limit: Int) async throws(ServerError) -> ModerationLists {
        var lists = ModerationLists()
        var truncated = false
        if parts.contains(.muted) {
            (lists.muted, truncated) = try await accounts(at: "/api/v1/mutes", limit: limit, feature: "listing muted accounts")
            lists.truncated = truncated
        }
        if parts.contains(.blocked) {
            (lists.blocked, truncated) = try await accounts(at: "/api/v1/blocks", limit: limit, feature: "listing blocked accounts")
            lists.truncated = lists.truncated || truncated
        }
        if parts.contains(.words) {
            do {
                for filter in try await filters() where filter.action == .hide {
                    for keyword in filter.keywords {
                        lists.mutedWords.append(MutedWord(value: keyword.keyword, wholeWord: keyword.wholeWord, expiresAt: filter.expiresAt))
                    }
                }
            } catch {
                guard case .serverLacks = error else { throw error }
            }
        }
        return lists
    }

    /// The accounts muted or blocked (`path`), each with its mute's end, paged and bounded as
    /// ``accountPages(_:endpoint:feature:limit:_:)`` does.
    private func accounts(at path: String, limit: Int, feature: String) async throws(ServerError) -> ([ModeratedAccount], Bool) {
        try await accountPages(accountPagesURL(path, limit: limit), endpoint: "GET " + path, feature: feature,
                               limit: limit) { view throws(JSONLineFailure) in
            let found = try user(view)
            return ModeratedAccount(user: found, storedUserID: namespace.id(found.id), until: try Self.optionalTime("mute_expires_at", in: view))
        }
    }

    /// The time `key` of `view`, `nil` when it is missing or `null` (a filter or mute without end).
    static func optionalTime(_ key: String, in view: JSONObjectView) throws(JSONLineFailure) -> Date? {
        guard view.field(key)?.nonNull != nil else { return nil }
        return try view.rfc3339Time(key).map(MillisecondTime.date(fromMilliseconds:))
    }

    /// Reports the stored post `id` (a repost: the post it reposts) and its author to the
    /// server's moderators: `POST /api/v1/reports` with `account_id`, `status_ids`, `category`
    /// (`spam`, `violation`, `other`) and `comment`. Not forwarded to the author's server.
    ///
    /// - Throws: `.replyTargetElsewhere` when it is not a post of this server, `.rejected` with
    ///   the server's reason (a `violation` report some servers refuse without the rules it
    ///   breaks).
    public func report(_ id: String, reason: ReportReason, comment: String?) async throws(ServerError) -> ReportOutcome {
        let (stored, author) = try storeCall { () throws(TimelineStoreError) -> (Message?, User?) in
            let message = try store.message(id: id)
            let target = try message?.repostOfID.flatMap { original throws(TimelineStoreError) in try store.message(id: original) } ?? message
            return (target, try target.flatMap { found throws(TimelineStoreError) in try store.users(ids: [found.authorID]).first })
        }
        guard let stored, let statusID = namespace.serverID(of: stored.id), let authorID = namespace.serverID(of: stored.authorID) else {
            throw .replyTargetElsewhere(messageID: id, server: namespace.authority)
        }
        var body: [UInt8] = Array(#"{"account_id":"#.utf8)
        JSONLineEncoder.appendString(authorID, to: &body)
        body += Array(#","status_ids":["#.utf8)
        JSONLineEncoder.appendString(statusID, to: &body)
        body += Array(#"],"category":"#.utf8)
        JSONLineEncoder.appendString(reason.rawValue, to: &body)
        body += Array(#","comment":"#.utf8)
        JSONLineEncoder.appendString(comment ?? "", to: &body)
        body += Array(#","forward":false}"#.utf8)
        let url = client.server.url("/api/v1/reports")
        let response = try await client.send(.post, url, json: body, feature: "reports", endpoint: "POST /api/v1/reports")
        let reportID = try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) in
            try JSONObjectView(document, path: "", expected: "a report object").id("id")
        }
        let handle = author?.handle ?? authorID
        return ReportOutcome(messageID: stored.id,
                             author: FollowedUser(id: authorID, handle: handle.contains("@") ? handle : handle + "@" + namespace.authority,
                                                  name: author?.name ?? ""),
                             reportID: reportID)
    }
}
