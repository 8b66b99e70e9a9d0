#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A Mastodon-API account's session (``AccountSession``): each call makes the ``MastodonSync``
/// it needs, with the account's token read then (a `token_command` runs when a request needs
/// it, never for a logout that sends none).
struct MastodonAccountSession: AccountSession {
    let account: Account
    let transport: any HTTPTransport
    let policy: RequestPolicy
    let clock: SyncClock

    /// The sync of this account into `store`, with `options` (the session's request policy).
    func mastodonSync(_ store: TimelineStore, _ options: MastodonSync.Options? = nil) throws -> MastodonSync {
        try MastodonSync(store: store, account: account, token: try account.accessToken(), transport: transport,
                         options: options ?? MastodonSync.Options(policy: policy), clock: clock)
    }

    func sync(into store: TimelineStore, options: SyncOptions) async throws -> SyncSummary {
        let sync = try mastodonSync(store, MastodonSync.Options(homeDepth: options.homeDepth, groupsNotifications: true, policy: policy,
                                                                      timeLimit: options.timeLimit))
        let summary = try await sync.run()
        // The server's mutes and blocks into the rules (issue 34), after the timelines.
        await refreshModerationRules(in: store)
        return summary
    }

    func follow(into store: TimelineStore, gate: SyncGate?, health: FollowHealth?,
                onPolling: @escaping @Sendable (ServerError, Duration) -> Void) async throws {
        try await mastodonSync(store).follow(gate: gate, health: health, onPolling: { reason in onPolling(reason, MastodonSync.pollInterval) })
    }

    /// Publishes the draft as a status, with its first language (`language`; the account's
    /// default when it has none), sensitive media and poll. A scheduled draft is refused here:
    /// it is no message until its server publishes it (``perform(_:in:at:)`` schedules it).
    func post(_ draft: PostDraft, in store: TimelineStore) async throws -> Message {
        var post = MastodonPost(draft, idempotencyKey: draft.idempotencyKey ?? MastodonPost.newIdempotencyKey())
        guard post.scheduledAt == nil else {
            throw PostOptionRefusal("a scheduled post is not a message until its server publishes it: queue it with perform(.post(draft)).")
        }
        let sync = try mastodonSync(store)
        try await sync.checkOptions(of: post, now: clock.now())
        post.mediaIDs = try await sync.mediaIDs(for: draft.pictures)
        return try await sync.post(post)
    }

    func syncReadMarker(in store: TimelineStore) async throws -> ReadMarkerSync {
        try await mastodonSync(store).syncReadMarker()
    }

    /// Whether the ID is in this server's namespace (`mastodon.social/1098…`).
    func holds(messageID: String) -> Bool {
        guard let server = try? ServerAddress(account.server) else { return false }
        return MastodonNamespace(server: server).serverID(of: messageID) != nil
    }

    /// Sends nothing: Mastodon's notifications are read with the home timeline's sync
    /// (its network lacks ``SourceAction/notificationsSeen``).
    func markNotificationsSeen(at date: Date) async throws {}

    func deletePost(_ messageID: String, in store: TimelineStore) async throws {
        try await mastodonSync(store).deleteStatus(messageID)
    }

    func send(_ pending: PendingAction, in store: TimelineStore) async throws -> MessageActionOutcome {
        try await mastodonSync(store).act(pending.action, on: pending.messageID, idempotencyKey: pending.key,
                                          checkingFirst: pending.attempts > 1, completing: pending.sequence)
    }

    /// A post carries the entry's key as its `Idempotency-Key` (Mastodon answers a repeated key
    /// with the status it made for it, for an hour, and some servers ignore it: a retry that may
    /// repeat a try which reached the server looks for the post among the account's statuses
    /// first: ``MastodonSync/postFromOutbox(_:queuedAt:mayHaveReachedServer:)``); an edit (`PUT`), a follow and an unfollow
    /// are the same however often they are sent; a vote's retry reads the poll first (voted:
    /// done); a delete the server answers 404 is done.
    func send(_ entry: OutboxEntry, in store: TimelineStore) async throws -> OutboxResult {
        let sync = try mastodonSync(store)
        switch entry.change {
        case let .post(draft):
            var post = MastodonPost(draft, idempotencyKey: entry.key)
            // Its poll within the server's limits, its time still far enough ahead (issue 36):
            // refused before it is sent (or a picture uploaded), so nothing is created.
            try await sync.checkOptions(of: post, now: clock.now())
            // Each picture's ID kept in the entry as soon as it is uploaded: a try cut off
            // before the status uploads only what was not uploaded yet.
            post.mediaIDs = try await sync.mediaIDs(for: draft.pictures) { index, id in
                try store.recordOutboxUpload(of: entry.sequence, picture: index, as: id)
            }
            if post.scheduledAt != nil {
                switch try await sync.schedule(post) {
                case let .scheduled(scheduled): return .scheduled(scheduled)
                case let .published(message): return .posted(message, media: post.mediaIDs)
                }
            }
            // An earlier try may have published it (attempts above 1, as a favourite's retry
            // reads first): the account's statuses say, where the key is not kept or honoured.
            let (message, widened) = try await sync.postingFromOutbox(post, queuedAt: entry.createdAt, mayHaveReachedServer: entry.attempts > 1)
            return .posted(message, widened: widened, media: post.mediaIDs)
        case let .edit(id, text):
            let (message, change) = try await sync.editing(id, text: text)
            return .edited(message, visibilityChange: change)
        case let .vote(id, choices):
            return .voted(try await sync.vote(in: id, choices: choices, retrying: entry.attempts > 1))
        case let .follow(handle):
            return .following(try await sync.setFollowing(handle, true))
        case let .unfollow(handle):
            return .following(try await sync.setFollowing(handle, false))
        case let .delete(id):
            try await sync.deleteStatus(id)
            return .deleted(id)
        case let .mute(handle, until):
            return .moderated(try await sync.moderate(handle, muting: true, on: true, until: until))
        case let .unmute(handle):
            return .moderated(try await sync.moderate(handle, muting: true, on: false))
        case let .block(handle):
            return .moderated(try await sync.moderate(handle, muting: false, on: true))
        case let .unblock(handle):
            return .moderated(try await sync.moderate(handle, muting: false, on: false))
        case let .muteWord(word, until):
            return .moderated(try await sync.muteWord(word, until: until))
        case let .unmuteWord(word):
            return .moderated(try await sync.unmuteWord(word))
        }
    }

    // MARK: Scheduled posts (issue 36)

    func scheduledPosts(limit: Int, in store: TimelineStore) async throws -> [ScheduledPost] {
        try await mastodonSync(store).scheduledPosts(limit: limit)
    }

    func unschedule(_ id: String, in store: TimelineStore) async throws {
        try await mastodonSync(store).unschedule(id)
    }

    // MARK: Mute, block and report (issue 34)

    /// Its `acct` when it is a user of this server's namespace.
    func moderatableHandle(of user: User) -> String? {
        guard let server = try? ServerAddress(account.server), MastodonNamespace(server: server).serverID(of: user.id) != nil else { return nil }
        return MastodonSync.followableHandle(user.handle)
    }

    /// This server's stored users whose `acct` is the handle: `alice@this.server` is stored as
    /// `alice`, as the server writes its own users.
    func storedUserIDs(of handle: String, in store: TimelineStore) throws -> [String] {
        guard let server = try? ServerAddress(account.server) else { return [] }
        let namespace = MastodonNamespace(server: server)
        var handles = [handle]
        let suffix = "@" + namespace.authority.lowercased()
        if handle.lowercased().hasSuffix(suffix) { handles.append(String(handle.dropLast(suffix.count))) }
        return try handles.flatMap { try store.users(handle: $0) }.map(\.id).filter { namespace.serverID(of: $0) != nil }
    }

    func moderationLists(_ parts: ModerationLists.Parts, limit: Int, in store: TimelineStore) async throws -> ModerationLists {
        try await mastodonSync(store).moderationLists(parts, limit: limit)
    }

    func editList(_ edit: ListEdit, in store: TimelineStore) async throws -> ListEditOutcome {
        try await mastodonSync(store).editList(edit)
    }

    func notificationRequests(limit: Int, in store: TimelineStore) async throws -> (requests: [NotificationRequest], truncated: Bool) {
        try await mastodonSync(store).notificationRequests(limit: limit)
    }

    func report(_ messageID: String, reason: ReportReason, comment: String?, in store: TimelineStore) async throws -> ReportOutcome {
        try await mastodonSync(store).report(messageID, reason: reason, comment: comment)
    }

    func bookmarks(limit: Int, in store: TimelineStore) async throws -> [String] {
        try await mastodonSync(store).bookmarks(limit: limit)
    }

    // MARK: Following accounts, server threads, tag and list timelines (issue 27)

    func followableHandle(_ text: String) -> String? { MastodonSync.followableHandle(text) }

    var handleForm: String { "user (an account of your server) or user@server.example" }

    func setFollowing(_ handle: String, _ following: Bool, in store: TimelineStore) async throws -> FollowOutcome {
        try await mastodonSync(store).setFollowing(handle, following)
    }

    func followedUsers(limit: Int, in store: TimelineStore) async throws -> [FollowedUser] {
        try await mastodonSync(store).followedUsers(limit: limit)
    }

    func fetchThread(around messageID: String, limit: Int, in store: TimelineStore) async throws -> ThreadFetch {
        try await mastodonSync(store).fetchThread(around: messageID, limit: limit)
    }

    func listID(_ text: String) -> String? { MastodonSync.listID(text) }

    func lists(in store: TimelineStore) async throws -> [TimelineList] {
        try await mastodonSync(store).lists()
    }

    func fetchTimeline(_ source: TimelineSource, limit: Int, in store: TimelineStore) async throws -> [String] {
        try await mastodonSync(store).fetchTimeline(source, limit: limit)
    }

    // MARK: Editing and polls (issue 27)

    func editableText(of messageID: String, in store: TimelineStore) async throws -> String {
        try await mastodonSync(store).editableText(of: messageID)
    }

    func edit(_ messageID: String, text: String, in store: TimelineStore) async throws -> Message {
        try await mastodonSync(store).edit(messageID, text: text)
    }

    func vote(in messageID: String, choices: [Int], in store: TimelineStore) async throws -> PollVote {
        try await mastodonSync(store).vote(in: messageID, choices: choices)
    }

    /// Revokes the token when `timeline login` created it (the account keeps its OAuth
    /// application); a token made in the server's settings is revoked there.
    func end() async -> SessionEnding {
        guard let client = account.client else {
            return .leftToPerson("the token was made in the server's settings (--token-stdin or --token-command); revoke it there if it should stop working.")
        }
        do {
            let token = try account.accessToken()
            let login = try MastodonAuthorization(server: account.server, transport: transport)
            try await login.revoke(token, client: client)
            return .ended("The token was revoked at \(account.server).")
        } catch {
            return .leftToPerson("the token could not be revoked (\(error)); revoke it in the server's settings (authorized apps).")
        }
    }
}
