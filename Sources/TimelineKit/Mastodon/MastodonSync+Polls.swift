extension MastodonSync {
    /// A status's poll as the server has it now.
    struct FetchedPoll {
        var id: String
        var expired: Bool
        var voted: Bool
        var multiple: Bool
        var options: [PollVote.Option]
    }

    /// Votes in the poll of the status `id` (a stored, namespaced ID or the server's own; a
    /// reblog votes in its original's) for `choices` (counted from 0):
    /// `POST /api/v1/polls/:poll/votes`. The status is read first (`GET /api/v1/statuses/:id`)
    /// for its poll: its ID, its options, whether it has ended, takes several choices or has the
    /// account's vote already, so that a vote the server would refuse is refused before it is
    /// sent. The status is read again after the vote and stored, so its poll's lines (part of the
    /// stored text, see `MastodonDecoder`) show the new counts.
    ///
    /// A vote sent again from the outbox (`retrying`, issue 27) whose earlier try may have been
    /// done: a poll that already has the account's vote is that vote, and nothing is sent.
    ///
    /// - Throws: ``PostChangeRefusal`` before any vote; `ServerError` from the requests
    ///   (`.replyTargetElsewhere` when `id` is not a status of this server).
    public func vote(in id: String, choices: [Int], retrying: Bool = false) async throws -> PollVote {
        let stored = try storeCall { () throws(TimelineStoreError) in try store.message(id: id) }
        let target = stored?.repostOfID ?? id
        let serverID: String
        if target.contains("/") {
            guard let found = namespace.serverID(of: target) else {
                throw ServerError.replyTargetElsewhere(messageID: id, server: client.server.baseURL)
            }
            serverID = found
        } else {
            serverID = target
        }
        let statusURL = client.server.url("/api/v1/statuses/" + FormEncoding.escape(serverID))
        guard let poll = try Self.poll(in: try await client.send(.get, statusURL), from: statusURL) else {
            throw PostChangeRefusal.noPoll
        }
        if retrying, poll.voted {
            // The vote of the try whose answer was lost: the server has it.
            let (answeredID, timeline) = try Self.status(in: try await client.send(.get, statusURL), from: statusURL, namespace: namespace)
            try storeCall { () throws(TimelineStoreError) in
                try store.storeWrite { transaction throws(TimelineStoreError) in
                    try transaction.upsert(users: timeline.users)
                    try transaction.upsert(messages: timeline.messages)
                }
            }
            return PollVote(messageID: answeredID, choices: choices, options: poll.options)
        }
        if poll.expired { throw PostChangeRefusal.pollEnded }
        if poll.voted { throw PostChangeRefusal.alreadyVoted }
        if let wrong = choices.first(where: { !poll.options.indices.contains($0) }) {
            throw PostChangeRefusal.noSuchChoice(wrong + 1, options: poll.options.count)
        }
        if choices.count > 1, !poll.multiple { throw PostChangeRefusal.oneChoiceOnly }

        var body: [UInt8] = Array(#"{"choices":["#.utf8)
        body += Array(choices.map { "\"\($0)\"" }.joined(separator: ",").utf8)
        body += Array("]}".utf8)
        let voteURL = client.server.url("/api/v1/polls/" + FormEncoding.escape(poll.id) + "/votes")
        _ = try await client.send(.post, voteURL, json: body, feature: "polls", endpoint: "POST /api/v1/polls/:id/votes")
        // The status again: its text carries the poll's counts.
        let response = try await client.send(.get, statusURL)
        let (answeredID, timeline) = try Self.status(in: response, from: statusURL, namespace: namespace)
        try storeCall { () throws(TimelineStoreError) in
            try store.storeWrite { transaction throws(TimelineStoreError) in
                // The read state is the person's: an upsert keeps it.
                try transaction.upsert(users: timeline.users)
                try transaction.upsert(messages: timeline.messages)
            }
        }
        let after = try Self.poll(in: response, from: statusURL)
        return PollVote(messageID: answeredID, choices: choices, options: after?.options ?? poll.options)
    }

    /// The poll of the status in `response`, `nil` when it has none.
    static func poll(in response: HTTPResponse, from url: String) throws(ServerError) -> FetchedPoll? {
        try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) -> FetchedPoll? in
            var view = try JSONObjectView(document, path: "", expected: "a status object")
            if let original = try view.object("reblog", expected: "a status object or null") { view = original }
            guard let poll = try view.object("poll", expected: "a poll object or null") else { return nil }
            var options: [PollVote.Option] = []
            for (index, element) in (try poll.array("options", expected: "an array of poll options") ?? []).enumerated() {
                let option = try JSONObjectView(element, path: poll.path("options[\(index)]"), expected: "a poll option object")
                // `null` while the results are hidden (until the poll ends, when its author asked).
                options.append(PollVote.Option(title: MastodonHTML.plainText(try option.string("title") ?? ""),
                                               votes: option.field("votes_count") == nil ? nil : try option.count("votes_count")))
            }
            return FetchedPoll(id: try poll.requiredID("id"), expired: try poll.bool("expired") ?? false,
                               voted: try poll.bool("voted") ?? false, multiple: try poll.bool("multiple") ?? false,
                               options: options)
        }
    }
}
