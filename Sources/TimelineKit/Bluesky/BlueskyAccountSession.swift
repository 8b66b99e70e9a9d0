#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A Bluesky account's session (``AccountSession``): one ``BlueskyClient`` for the session's
/// life, whose refreshed sessions are written back to the accounts file at once (a refresh
/// retires the old refresh token).
struct BlueskyAccountSession: AccountSession {
    let account: Account
    /// The client, or why the account's entry cannot make one: said by the first call, as a
    /// request would.
    let client: Result<BlueskyClient, AccountError>

    /// The account's sync, reading its chosen home feed (``Account/homeFeed``) as its home.
    private func blueskySync(_ store: TimelineStore, _ options: BlueskySync.Options = BlueskySync.Options()) throws -> BlueskySync {
        var options = options
        options.homeFeed = account.homeFeed
        return BlueskySync(store: store, account: account, client: try client.get(), options: options)
    }

    func sync(into store: TimelineStore, options: SyncOptions) async throws -> SyncSummary {
        let summary = try await blueskySync(store, BlueskySync.Options(homeDepth: options.homeDepth, timeLimit: options.timeLimit)).run()
        // The server's mutes and blocks into the rules (issue 34), after the timelines.
        await refreshModerationRules(in: store)
        return summary
    }

    /// Polls (``BlueskySync/follow(pollInterval:gate:health:)``): Bluesky has no push channel
    /// for one account's home timeline, so `onPolling` is never called; polling is the way.
    func follow(into store: TimelineStore, gate: SyncGate?, health: FollowHealth?,
                onPolling: @escaping @Sendable (ServerError, Duration) -> Void) async throws {
        try await blueskySync(store).follow(gate: gate, health: health)
    }

    func post(_ draft: PostDraft, in store: TimelineStore) async throws -> Message {
        let sync = try blueskySync(store)
        var post = BlueskyPost(draft)
        post.pictures = try await sync.pictures(for: draft.pictures)
        let message = try await sync.post(post)
        await tellFeeds(draft, sync)
        return message
    }

    /// A reply or quote of a post read in a custom feed told to its generator (best effort).
    private func tellFeeds(_ draft: PostDraft, _ sync: BlueskySync) async {
        if let parent = draft.replyTo { await sync.sendFeedInteraction(.reply, on: parent) }
        if let quoted = draft.quoteOf { await sync.sendFeedInteraction(.quote, on: quoted) }
    }

    /// Bluesky keeps no read position of the home timeline: nothing is sent.
    func syncReadMarker(in store: TimelineStore) async throws -> ReadMarkerSync {
        ReadMarkerSync(serverLacksMarkers: true)
    }

    /// Whether the ID is a Bluesky post's (an AT URI): Bluesky's IDs are global, not a server's.
    func holds(messageID: String) -> Bool {
        ATURI(messageID) != nil
    }

    func markNotificationsSeen(at date: Date) async throws {
        try await client.get().markNotificationsSeen(at: date)
    }

    func deletePost(_ messageID: String, in store: TimelineStore) async throws {
        try await blueskySync(store).deletePost(messageID)
    }

    /// A like or repost (not its undo) of a post read in a custom feed is told to the feed's
    /// generator afterwards, best effort (``BlueskySync/sendFeedInteraction(_:on:)``).
    func send(_ pending: PendingAction, in store: TimelineStore) async throws -> MessageActionOutcome {
        let sync = try blueskySync(store)
        let outcome = try await sync.act(pending.action, on: pending.messageID, recordKey: pending.key, completing: pending.sequence)
        if pending.action.sets {
            switch pending.action.kind {
            case .favourite: await sync.sendFeedInteraction(.like, on: pending.messageID)
            case .boost: await sync.sendFeedInteraction(.repost, on: pending.messageID)
            case .bookmark: break
            }
        }
        return outcome
    }

    /// A post and a follow are written under the entry's key (a TID chosen when it was queued):
    /// a retry of a post whose record exists already is done, a follow is written in place
    /// (`putRecord`). An unfollow deletes the follow the AppView shows, a delete the post's
    /// record (deleting one that is gone succeeds). Edits and votes are refused by the caller
    /// first (its network lacks ``SourceAction/edit`` and ``SourceAction/vote``).
    func send(_ entry: OutboxEntry, in store: TimelineStore) async throws -> OutboxResult {
        let sync = try blueskySync(store)
        switch entry.change {
        case let .post(draft):
            var post = BlueskyPost(draft, recordKey: entry.key)
            // Each blob kept in the entry once uploaded: a try cut off before the record
            // uploads only what was not uploaded yet.
            post.pictures = try await sync.pictures(for: draft.pictures) { index, uploaded in
                try store.recordOutboxUpload(of: entry.sequence, picture: index, as: uploaded)
            }
            let posted = try await sync.post(post, retrying: entry.attempts > 1)
            await tellFeeds(draft, sync)
            return .posted(posted, media: post.pictures.map(\.blob.cid))
        case let .edit(id, text):
            return .edited(try await edit(id, text: text, in: store))
        case let .vote(id, choices):
            return .voted(try await vote(in: id, choices: choices, in: store))
        case let .follow(handle):
            return .following(try await sync.setFollowing(handle, true, recordKey: entry.key))
        case let .unfollow(handle):
            return .following(try await sync.setFollowing(handle, false))
        case let .delete(id):
            try await sync.deletePost(id)
            return .deleted(id)
        case let .mute(handle, _):
            return .moderated(try await sync.setMuted(handle, true))
        case let .unmute(handle):
            return .moderated(try await sync.setMuted(handle, false))
        case let .block(handle):
            return .moderated(try await sync.setBlocked(handle, true, recordKey: entry.key))
        case let .unblock(handle):
            return .moderated(try await sync.setBlocked(handle, false))
        case let .muteWord(word, until):
            return .moderated(try await sync.muteWord(word, until: until, id: entry.key))
        case let .unmuteWord(word):
            return .moderated(try await sync.unmuteWord(word))
        }
    }

    // MARK: Mute, block and report (issue 34)

    /// Its DID: Bluesky's users are stored by DID.
    func moderatableHandle(of user: User) -> String? {
        user.id.hasPrefix("did:") ? BlueskySync.followableHandle(user.id) : nil
    }

    /// The DID itself, or the stored users of that handle.
    func storedUserIDs(of handle: String, in store: TimelineStore) throws -> [String] {
        if handle.hasPrefix("did:") { return [handle] }
        return try store.users(handle: handle).map(\.id).filter { $0.hasPrefix("did:") }
    }

    func moderationLists(_ parts: ModerationLists.Parts, limit: Int, in store: TimelineStore) async throws -> ModerationLists {
        try await blueskySync(store).moderationLists(parts, limit: limit)
    }

    func report(_ messageID: String, reason: ReportReason, comment: String?, in store: TimelineStore) async throws -> ReportOutcome {
        try await blueskySync(store).report(messageID, reason: reason, comment: comment)
    }

    // MARK: Following accounts, server threads, tag and list timelines (issue 27)

    func followableHandle(_ text: String) -> String? { BlueskySync.followableHandle(text) }

    var handleForm: String { "name.bsky.social (a handle) or did:plc:…" }

    func setFollowing(_ handle: String, _ following: Bool, in store: TimelineStore) async throws -> FollowOutcome {
        try await blueskySync(store).setFollowing(handle, following)
    }

    func followedUsers(limit: Int, in store: TimelineStore) async throws -> [FollowedUser] {
        try await blueskySync(store).followedUsers(limit: limit)
    }

    func fetchThread(around messageID: String, limit: Int, in store: TimelineStore) async throws -> ThreadFetch {
        try await blueskySync(store).fetchThread(around: messageID, limit: limit)
    }

    func listID(_ text: String) -> String? { BlueskySync.listID(text) }

    func lists(in store: TimelineStore) async throws -> [TimelineList] {
        try await blueskySync(store).lists()
    }

    func editList(_ edit: ListEdit, in store: TimelineStore) async throws -> ListEditOutcome {
        try await blueskySync(store).editList(edit)
    }

    func fetchTimeline(_ source: TimelineSource, limit: Int, in store: TimelineStore) async throws -> [String] {
        try await blueskySync(store).fetchTimeline(source, limit: limit)
    }

    // MARK: Saved feeds (issue 37)

    func savedFeeds(in store: TimelineStore) async throws -> [SavedFeed] {
        try await blueskySync(store).savedFeeds()
    }

    @discardableResult
    func sendFeedInteraction(_ interaction: FeedInteraction, on messageID: String, in store: TimelineStore) async -> Bool {
        guard let sync = try? blueskySync(store) else { return false }
        return await sync.sendFeedInteraction(interaction, on: messageID)
    }

    // Editing and polls (issue 27): the defaults refuse them in the network's words
    // (its capabilities lack ``SourceAction/edit`` and ``SourceAction/vote``).

    func end() async -> SessionEnding {
        do {
            try await client.get().deleteSession()
            return .ended("Its session was ended at \(account.server).")
        } catch {
            return .leftToPerson("the session could not be ended (\(error)); revoke the app password in Bluesky's settings if it should stop working.")
        }
    }
}
