#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Mute, block, muted words and reports on Bluesky (issue 34): a mute is the AppView's
// (`app.bsky.graph.muteActor`), a block a record of the account's repository, muted words a
// preference kept with all the others in one list that `putPreferences` replaces whole.

extension BlueskySync {
    /// The `$type` of the preference that holds the muted words.
    static let mutedWordsType = "app.bsky.actor.defs#mutedWordsPref"

    /// Mutes or unmutes `handle` (`app.bsky.graph.muteActor` / `unmuteActor` with its DID, after
    /// the profile, whose viewer state says whether it is muted already: then nothing is sent).
    /// Bluesky's mutes have no end (its network lacks ``SourceAction/timedMute``).
    public func setMuted(_ handle: String, _ muted: Bool) async throws(ServerError) -> ModerationOutcome {
        let viewed = try await profile(handle)
        let change: OutboxEntry.Change = muted ? .mute(handle: handle, until: nil) : .unmute(handle: handle)
        guard viewed.muted != muted else {
            return ModerationOutcome(change: change, user: viewed.user, storedUserID: viewed.user.id, changed: false)
        }
        var body: [UInt8] = Array(#"{"actor":"#.utf8)
        JSONLineEncoder.appendString(viewed.user.id, to: &body)
        body.append(UInt8(ascii: "}"))
        _ = try await client.procedure(muted ? "app.bsky.graph.muteActor" : "app.bsky.graph.unmuteActor", json: body)
        return ModerationOutcome(change: change, user: viewed.user, storedUserID: viewed.user.id)
    }

    /// Blocks or unblocks `handle`. A block is an `app.bsky.graph.block` record in the account's
    /// repository (subject: the DID), written with `recordKey` where the outbox chose one
    /// (`com.atproto.repo.putRecord`: a retry writes the same record, never a second block),
    /// else made by `createRecord`. The unblock deletes the block record the profile's viewer
    /// state names (`viewer.blocking`, as Bluesky's app does), so a block made elsewhere is
    /// undone too; the record's key is in its AT URI. Already so: nothing is sent.
    public func setBlocked(_ handle: String, _ blocked: Bool, recordKey: String? = nil) async throws(ServerError) -> ModerationOutcome {
        guard let session = client.currentSession else { throw .unauthorized(server: client.service.baseURL) }
        let viewed = try await profile(handle)
        let user = viewed.user
        let change: OutboxEntry.Change = blocked ? .block(handle: handle) : .unblock(handle: handle)
        if blocked {
            guard viewed.blocking == nil else { return ModerationOutcome(change: change, user: user, storedUserID: user.id, changed: false) }
            try await writeGraphRecord("app.bsky.graph.block", subject: user.id, did: session.did, recordKey: recordKey)
            return ModerationOutcome(change: change, user: user, storedUserID: user.id)
        }
        guard let record = viewed.blocking else { return ModerationOutcome(change: change, user: user, storedUserID: user.id, changed: false) }
        try await deleteGraphRecord(record, collection: "app.bsky.graph.block", did: session.did, what: "block")
        return ModerationOutcome(change: change, user: user, storedUserID: user.id)
    }

    /// An `app.bsky.graph.block` record of `subject` (a DID), as the lexicon has it.
    static func blockRecord(subject: String, createdAt: Date) -> [UInt8] {
        graphRecord("app.bsky.graph.block", subject: subject, createdAt: createdAt)
    }

    /// The account's preferences as `app.bsky.actor.getPreferences` answered them: each
    /// preference's bytes exactly as the server wrote them, and the muted words of the first
    /// `#mutedWordsPref` with where its `items` are.
    struct ReadPreferences {
        /// The answer's body.
        var body: [UInt8]
        /// Each preference's bytes in `body`, in order.
        var preferences: [Range<Int>]
        /// Which preference holds the muted words, and where its `items` array is in `body`.
        var mutedWords: (index: Int, items: Range<Int>)?
        /// Every item of the muted words' `items`, with its bytes in `body`, and the word it is
        /// (`nil`: an item that is not one this client reads, kept as it is).
        var items: [(bytes: Range<Int>, word: MutedWord?)] = []

        /// The muted words.
        var words: [MutedWord] { items.compactMap(\.word) }

        /// The preference `index` as read.
        func preference(_ index: Int) -> ArraySlice<UInt8> { body[preferences[index]] }
    }

    /// Reads the account's preferences (`app.bsky.actor.getPreferences`).
    func readPreferences() async throws(ServerError) -> ReadPreferences {
        let nsid = "app.bsky.actor.getPreferences"
        let url = client.host.url("/xrpc/" + nsid)
        let response = try await client.query(nsid)
        let body = try ServerResponseReader.body(of: response, from: url)
        return try ServerResponseReader.read(body: body, from: url) { document throws(JSONLineFailure) -> ReadPreferences in
            let answer = try JSONObjectView(document, path: "", expected: "a preferences answer")
            var read = ReadPreferences(body: body, preferences: [])
            for (index, node) in (try answer.array("preferences", expected: "an array of preferences") ?? []).enumerated() {
                read.preferences.append(try JSONRawValue.range(at: node.offset, in: body))
                guard read.mutedWords == nil, node.isObject,
                      try JSONObjectView(node, path: "preferences[\(index)]", expected: "a preference").string("$type") == Self.mutedWordsType,
                      let items = node["items"], let elements = items.arrayValue else { continue }
                read.mutedWords = (index, try JSONRawValue.range(at: items.offset, in: body))
                for (number, element) in elements.enumerated() {
                    let bytes = try JSONRawValue.range(at: element.offset, in: body)
                    guard element.isObject, let value = element["value"]?.stringValue else {
                        read.items.append((bytes, nil))
                        continue
                    }
                    let item = try JSONObjectView(element, path: "preferences[\(index)].items[\(number)]", expected: "a muted word")
                    let targets = try item.array("targets", expected: "an array of targets")?.compactMap(\.stringValue) ?? ["content", "tag"]
                    let expires = try item.string("expiresAt").flatMap { text -> Date? in
                        guard case let .success(milliseconds) = RFC3339Time.parse(text) else { return nil }
                        return MillisecondTime.date(fromMilliseconds: milliseconds)
                    }
                    read.items.append((bytes, MutedWord(value: value, targetsText: targets.contains("content"), targetsTags: targets.contains("tag"),
                                                 expiresAt: expires, excludesFollowing: try item.string("actorTarget") == "exclude-following")))
                }
            }
            return read
        }
    }

    /// Writes `preferences` (each one's bytes) as the account's whole list
    /// (`app.bsky.actor.putPreferences`).
    func putPreferences(_ preferences: [ArraySlice<UInt8>]) async throws(ServerError) {
        var body: [UInt8] = Array(#"{"preferences":["#.utf8)
        for (index, preference) in preferences.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body += preference
        }
        body += Array("]}".utf8)
        _ = try await client.procedure("app.bsky.actor.putPreferences", json: body)
    }

    /// A muted word of `#mutedWordsPref` (`app.bsky.actor.defs#mutedWord`): `value`, both
    /// targets (the text and the tags), `actorTarget` all, `id`, and `expiresAt` when it ends.
    static func mutedWordItem(_ value: String, id: String, until: Date?) -> [UInt8] {
        var item: [UInt8] = Array(#"{"value":"#.utf8)
        JSONLineEncoder.appendString(value, to: &item)
        item += Array(#","targets":["content","tag"],"actorTarget":"all","id":"#.utf8)
        JSONLineEncoder.appendString(id, to: &item)
        if let until {
            item += Array(#","expiresAt":"#.utf8)
            JSONLineEncoder.appendString(ServerError.timestamp(until), to: &item)
        }
        item.append(UInt8(ascii: "}"))
        return item
    }

    /// Mutes `word` until `until` (`nil`: until unmuted): a fresh `getPreferences`, then one
    /// `putPreferences` with the word added to `#mutedWordsPref` (made when there is none) and
    /// every other preference, and every other muted word, sent back byte for byte as read:
    /// `putPreferences` replaces the whole list, so a preference this client does not know is
    /// never lost. `id` names the new muted word (the outbox's key). A word muted already (the
    /// same letters, whatever their case): nothing is sent.
    public func muteWord(_ word: String, until: Date?, id: String) async throws(ServerError) -> ModerationOutcome {
        let change = OutboxEntry.Change.muteWord(word, until: until)
        let value = MutedWord.plain(word)
        let read = try await readPreferences()
        if read.words.contains(where: { $0.value.lowercased() == value.lowercased() }) {
            return ModerationOutcome(change: change, changed: false)
        }
        let item = Self.mutedWordItem(value, id: id, until: until)
        var preferences = read.preferences.indices.map(read.preference)
        if let (index, items) = read.mutedWords {
            // The item goes in before the `]` that closes `items`; the rest as read.
            let range = read.preferences[index]
            var edited = Array(read.body[range.lowerBound ..< items.upperBound - 1])
            if !read.items.isEmpty { edited.append(UInt8(ascii: ",")) }
            edited += item
            edited += read.body[items.upperBound - 1 ..< range.upperBound]
            preferences[index] = edited[...]
        } else {
            var preference: [UInt8] = Array(#"{"$type":"#.utf8)
            JSONLineEncoder.appendString(Self.mutedWordsType, to: &preference)
            preference += Array(#","items":["#.utf8) + item + Array("]}".utf8)
            preferences.append(preference[...])
        }
        try await putPreferences(preferences)
        return ModerationOutcome(change: change)
    }

    /// Unmutes `word`: a fresh `getPreferences`, then one `putPreferences` with every muted word
    /// of that value (whatever its case) taken out of `#mutedWordsPref`, and everything else sent
    /// back as read. A word not muted: nothing is sent.
    public func unmuteWord(_ word: String) async throws(ServerError) -> ModerationOutcome {
        let change = OutboxEntry.Change.unmuteWord(word)
        let value = MutedWord.plain(word).lowercased()
        let read = try await readPreferences()
        guard let (index, items) = read.mutedWords, read.words.contains(where: { $0.value.lowercased() == value }) else {
            return ModerationOutcome(change: change, changed: false)
        }
        // The items kept, each as read (an item that is not a word too), in a new `items`.
        let kept = read.items.filter { $0.word?.value.lowercased() != value }.map { read.body[$0.bytes] }
        let list = Array("[".utf8) + Array(kept.joined(separator: [UInt8(ascii: ",")])) + Array("]".utf8)
        let range = read.preferences[index]
        var preferences = read.preferences.indices.map(read.preference)
        preferences[index] = (Array(read.body[range.lowerBound ..< items.lowerBound]) + list
                              + Array(read.body[items.upperBound ..< range.upperBound]))[...]
        try await putPreferences(preferences)
        return ModerationOutcome(change: change)
    }

    /// The accounts muted (`app.bsky.graph.getMutes`) and blocked (`app.bsky.graph.getBlocks`),
    /// as `parts` asks, 100 a page by cursor, at most `limit` of each in at most `limit / 100 + 2`
    /// requests each; and the muted words of the preferences.
    public func moderationLists(_ parts: ModerationLists.Parts, limit: Int) async throws(ServerError) -> ModerationLists {
        var lists = ModerationLists()
        var truncated = false
        if parts.contains(.muted) {
            (lists.muted, truncated) = try await actors("app.bsky.graph.getMutes", key: "mutes", limit: limit)
            lists.truncated = truncated
        }
        if parts.contains(.blocked) {
            (lists.blocked, truncated) = try await actors("app.bsky.graph.getBlocks", key: "blocks", limit: limit)
            lists.truncated = lists.truncated || truncated
        }
        if parts.contains(.words) { lists.mutedWords = try await readPreferences().words }
        return lists
    }

    private func actors(_ nsid: String, key: String, limit: Int) async throws(ServerError) -> ([ModeratedAccount], Bool) {
        let url = client.host.url("/xrpc/" + nsid)
        var accounts: [ModeratedAccount] = []
        var cursor: String?
        var requests = 0
        while accounts.count < limit, requests < limit / 100 + 2 {
            requests += 1
            var query = [(name: "limit", value: String(min(100, max(1, limit - accounts.count))))]
            if let cursor { query.append((name: "cursor", value: cursor)) }
            let response = try await client.query(nsid, query)
            let wanted = limit - accounts.count
            let (page, next, more) = try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) in
                let answer = try JSONObjectView(document, path: "", expected: "an answer of \(nsid)")
                let elements = try answer.array(key, expected: "an array of profiles") ?? []
                var page: [ModeratedAccount] = []
                for (index, node) in elements.prefix(wanted).enumerated() {
                    let view = try JSONObjectView(node, path: "\(key)[\(index)]", expected: "a profile object")
                    let user = FollowedUser(id: try view.requiredString("did"), handle: try view.requiredString("handle"),
                                            name: try view.string("displayName") ?? "")
                    page.append(ModeratedAccount(user: user, storedUserID: user.id))
                }
                return (page, try answer.string("cursor"), elements.count > wanted)
            }
            accounts += page
            if more { return (accounts, true) }
            guard !page.isEmpty, let next, next != cursor else { return (accounts, false) }
            cursor = next
        }
        return (accounts, cursor != nil)
    }

    /// Reports the stored post `id` (a repost: the post it reposts) to Bluesky's moderators
    /// (`com.atproto.moderation.createReport`: `reasonType`, `reason` the comment, subject a
    /// `com.atproto.repo.strongRef` of the post's URI and CID). The CID is not stored: the post
    /// is read first (`app.bsky.feed.getPosts`), which also says when it is gone.
    public func report(_ id: String, reason: ReportReason, comment: String?) async throws(ServerError) -> ReportOutcome {
        let stored = try pager.storeCall { () throws(TimelineStoreError) in try store.message(id: id) }
        let target = stored?.repostOfID ?? id
        guard let uri = ATURI(target), uri.collection == "app.bsky.feed.post", let did = uri.did else {
            throw .replyTargetElsewhere(messageID: id, server: "Bluesky")
        }
        let post = try await view(of: target)
        var body: [UInt8] = Array(#"{"reasonType":"#.utf8)
        JSONLineEncoder.appendString(reason.blueskyReasonType, to: &body)
        if let comment, !comment.isEmpty {
            body += Array(#","reason":"#.utf8)
            JSONLineEncoder.appendString(comment, to: &body)
        }
        body += Array(#","subject":{"$type":"com.atproto.repo.strongRef","uri":"#.utf8)
        JSONLineEncoder.appendString(post.uri, to: &body)
        body += Array(#","cid":"#.utf8)
        JSONLineEncoder.appendString(post.cid, to: &body)
        body += Array("}}".utf8)
        let nsid = "com.atproto.moderation.createReport"
        let response = try await client.procedure(nsid, json: body)
        let reportID = try ServerResponseReader.read(response, from: client.host.url("/xrpc/" + nsid)) { document throws(JSONLineFailure) in
            try JSONObjectView(document, path: "", expected: "a report answer").id("id")
        }
        let author = try pager.storeCall { () throws(TimelineStoreError) in try store.users(ids: [did]).first }
        return ReportOutcome(messageID: target, author: FollowedUser(id: did, handle: author?.handle ?? did, name: author?.name ?? ""),
                             reportID: reportID)
    }
}
