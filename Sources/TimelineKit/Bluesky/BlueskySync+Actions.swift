extension BlueskySync {
    /// The post as the AppView shows it to the account now: what a like or repost names
    /// (its URI and CID), the account's like and repost records, and the counts.
    struct ViewedPost {
        var uri: String
        var cid: String
        var like: String?
        var repost: String?
        var likeCount: Int?
        var repostCount: Int?
    }

    /// Likes or reposts the post `id` (a repost is acted on through its original), or undoes it.
    /// The post is read first (`app.bsky.feed.getPosts`): its CID, which a like or repost
    /// record names, and the account's like and repost as the AppView knows them (`viewer`), so
    /// that one already there is not made twice and an undo deletes the record that exists.
    /// A like is an `app.bsky.feed.like` record and a repost an `app.bsky.feed.repost` record
    /// in the account's repository (`com.atproto.repo.createRecord`, subject: the post's URI and
    /// CID); the undo deletes it (`com.atproto.repo.deleteRecord` with the record's key). The
    /// record's URI is stored with the state, and the post's counts are stored as they now are,
    /// in one transaction, which also takes the queued action `completing` out.
    ///
    /// A queued action (issue 27, offline) brings `recordKey`, chosen when it was queued: the
    /// like or repost is then written with that key (`com.atproto.repo.putRecord`), so a retry
    /// of a try whose answer was lost writes the same record again instead of a second one,
    /// even while the AppView does not show the first yet.
    ///
    /// - Throws: `.replyTargetElsewhere` when `id` is not a Bluesky post, `.rejected` with
    ///   status 404 when the AppView no longer has the post (deleted), the client's errors,
    ///   `.store`; a bookmark is refused before this (its network lacks ``SourceAction/bookmark``).
    public func act(_ action: MessageAction, on id: String, recordKey: String? = nil,
                    completing sequence: Int64? = nil) async throws(ServerError) -> MessageActionOutcome {
        guard let session = client.currentSession else { throw .unauthorized(server: client.service.baseURL) }
        let stored = try pager.storeCall { () throws(TimelineStoreError) in try store.message(id: id) }
        let target = stored?.repostOfID ?? id
        guard ATURI(target)?.collection == "app.bsky.feed.post" else {
            throw .replyTargetElsewhere(messageID: id, server: "Bluesky")
        }
        let collection: String
        switch action.kind {
        case .favourite: collection = "app.bsky.feed.like"
        case .boost: collection = "app.bsky.feed.repost"
        case .bookmark: throw .notSupported(url: client.host.url("/xrpc/app.bsky.feed.getPosts"), status: 501)
        }
        let post = try await view(of: target)
        var existing = action.kind == .favourite ? post.like : post.repost
        // Whether the AppView counts the record (its count then drops by the undo).
        let counted = existing != nil
        if !action.sets, existing == nil {
            // An AppView behind the PDS does not show a like made a moment ago (a queued one
            // sent by the sync): the record stored when it was made is deleted all the same,
            // which is harmless when it is gone already.
            existing = try pager.storeCall { () throws(TimelineStoreError) in
                try store.interaction(account: account, messageID: target).records[action.kind.rawValue]
            }
        }
        var countChange = 0
        if action.sets, existing == nil {
            var body: [UInt8] = Array(#"{"repo":"#.utf8)
            JSONLineEncoder.appendString(session.did, to: &body)
            body += Array(#","collection":"#.utf8)
            JSONLineEncoder.appendString(collection, to: &body)
            if let recordKey {
                body += Array(#","rkey":"#.utf8)
                JSONLineEncoder.appendString(recordKey, to: &body)
            }
            body += Array(#","record":{"$type":"#.utf8)
            JSONLineEncoder.appendString(collection, to: &body)
            body += Array(#","subject":{"uri":"#.utf8)
            JSONLineEncoder.appendString(post.uri, to: &body)
            body += Array(#","cid":"#.utf8)
            JSONLineEncoder.appendString(post.cid, to: &body)
            body += Array(#"},"createdAt":"#.utf8)
            JSONLineEncoder.appendString(ServerError.timestamp(client.clock.now()), to: &body)
            body += Array("}}".utf8)
            // With a key of its own, written in place (the same key twice is one record).
            let nsid = recordKey == nil ? "com.atproto.repo.createRecord" : "com.atproto.repo.putRecord"
            let response = try await client.procedure(nsid, json: body)
            existing = try ServerResponseReader.read(response, from: client.host.url("/xrpc/" + nsid)) { document throws(JSONLineFailure) in
                try JSONObjectView(document, path: "", expected: "a created record").requiredString("uri")
            }
            countChange = 1
        } else if !action.sets, let record = existing {
            guard let parsed = ATURI(record), parsed.authority == session.did, let key = parsed.recordKey,
                  let recordCollection = parsed.collection else {
                throw .invalidResponse(url: client.host.url("/xrpc/app.bsky.feed.getPosts"), problem: "the post's \(action.kind == .favourite ? "like" : "repost") \(QuotedValue.quoted(record)) is not a record of this account.")
            }
            try await deleteRecord(did: session.did, collection: recordCollection, key: key)
            existing = nil
            countChange = counted ? -1 : 0
        }
        var interaction = MessageInteraction(messageID: target)
        try pager.storeCall { () throws(TimelineStoreError) in
            try store.storeWrite { transaction throws(TimelineStoreError) in
                if var message = try transaction.message(id: target) {
                    // The counts as the AppView gave them, moved by what was just done.
                    if let count = post.likeCount { message.likeCount = count.saturatingAdding(action.kind == .favourite ? countChange : 0) }
                    if let count = post.repostCount { message.repostCount = count.saturatingAdding(action.kind == .boost ? countChange : 0) }
                    message.likeCount = max(0, message.likeCount)
                    message.repostCount = max(0, message.repostCount)
                    try transaction.upsert(message)
                }
                try transaction.setInteraction(account: account, messageID: target, .favourite,
                                               on: action.kind == .favourite ? existing != nil : post.like != nil,
                                               record: action.kind == .favourite ? existing : post.like)
                try transaction.setInteraction(account: account, messageID: target, .boost,
                                               on: action.kind == .boost ? existing != nil : post.repost != nil,
                                               record: action.kind == .boost ? existing : post.repost)
                if let sequence { try transaction.removePendingAction(sequence) }
                interaction = try transaction.interaction(account: account, messageID: target).0
            }
        }
        return MessageActionOutcome(action: action, messageID: target, interaction: interaction)
    }

    /// The post `uri` as the AppView shows it to the account (`app.bsky.feed.getPosts`).
    ///
    /// - Throws: `.rejected` with status 404 when it is not there (deleted).
    func view(of uri: String) async throws(ServerError) -> ViewedPost {
        let nsid = "app.bsky.feed.getPosts"
        let response = try await client.query(nsid, [("uris", uri)])
        let url = client.host.url("/xrpc/" + nsid)
        let post = try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) -> ViewedPost? in
            let object = try JSONObjectView(document, path: "", expected: "a posts answer")
            guard let first = try object.array("posts", expected: "an array of post views")?.first else { return nil }
            let view = try JSONObjectView(first, path: "posts[0]", expected: "a post view object")
            let viewer = try view.object("viewer", expected: "a viewer state object")
            return ViewedPost(uri: try view.requiredString("uri"), cid: try view.requiredString("cid"),
                              like: try viewer?.string("like"), repost: try viewer?.string("repost"),
                              likeCount: view.has("likeCount") ? try view.count("likeCount") : nil,
                              repostCount: view.has("repostCount") ? try view.count("repostCount") : nil)
        }
        guard let post else {
            throw .rejected(url: url, status: 404, reason: "the post \(QuotedValue.quoted(uri)) is not there any more (its author deleted it, or blocks you)")
        }
        return post
    }
}
