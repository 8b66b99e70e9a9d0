#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// What a source that does not implement an optional requirement of `AccountSession` does: it
// refuses with `SourceError.unsupported`, naming the action (`SourceAction`) and the source, in
// the network's own words where its capabilities have them. A requirement that asks a question
// answers "none", so that a command looking for the session that can act finds another or
// says none can. The command line reads the capabilities first and never reaches these for a
// source that says it lacks the action; they are what an embedder's tool meets when it calls
// the session directly, and what a source that claims an action without implementing it does.

extension AccountSession {
    /// The network's capabilities.
    public var capabilities: SessionCapabilities { account.network.capabilities }

    /// The account's own user as its network stores it (``Account/storedUserID``, known by its
    /// `acct`): the author of a waiting post's stand-in, until a sync stores the server's word.
    public var ownUser: User { User(id: account.storedUserID, handle: account.acct, name: account.acct) }

    /// Why this session cannot do `action`, or `nil` when it can (``capabilities``).
    public func refusal(of action: SourceAction) -> SourceError? {
        capabilities.refusal(of: action, source: account.network.displayName)
    }

    /// The refusal of `action`, for a default implementation: the network's words if it has them.
    private func unsupported(_ action: SourceAction) -> SourceError {
        .unsupported(action: action, source: account.network.displayName, reason: capabilities.refusals[action])
    }

    /// Refuses: the source does not follow live (``SourceAction/live``).
    public func follow(into store: TimelineStore, gate: SyncGate?, health: FollowHealth?,
                       onPolling: @escaping @Sendable (_ reason: ServerError, _ interval: Duration) -> Void) async throws {
        throw unsupported(.live)
    }

    /// Refuses: the source does not post (``SourceAction/post``).
    public func post(_ draft: PostDraft, in store: TimelineStore) async throws -> Message { throw unsupported(.post) }

    /// Refuses: the source keeps no read position (``SourceAction/readMarker``).
    public func syncReadMarker(in store: TimelineStore) async throws -> ReadMarkerSync { throw unsupported(.readMarker) }

    /// No message is one this session acts on.
    public func holds(messageID: String) -> Bool { false }

    /// Refuses: the source counts no notifications seen (``SourceAction/notificationsSeen``).
    public func markNotificationsSeen(at date: Date) async throws { throw unsupported(.notificationsSeen) }

    /// Refuses: the source deletes no post at a server (``SourceAction/delete``).
    public func deletePost(_ messageID: String, in store: TimelineStore) async throws { throw unsupported(.delete) }

    /// Refuses: the source has none of the actions (``SourceAction/favourite``, `.boost`, `.bookmark`).
    public func send(_ pending: PendingAction, in store: TimelineStore) async throws -> MessageActionOutcome {
        throw unsupported(SourceAction(pending.action.kind))
    }

    /// Sends the outbox's change through the session's own requirement for it (``post(_:in:)``,
    /// ``edit(_:text:in:)``, ``vote(in:choices:in:)``, ``setFollowing(_:_:in:)``,
    /// ``deletePost(_:in:)``), which refuse where the source lacks them; a mute or a block
    /// (``SourceAction/mute``, ``SourceAction/block``) is refused. The entry's key is not sent:
    /// a source whose retried post must not publish twice, or that mutes or blocks, implements
    /// this itself, as Mastodon's and Bluesky's do.
    public func send(_ entry: OutboxEntry, in store: TimelineStore) async throws -> OutboxResult {
        switch entry.change {
        case let .post(draft): return .posted(try await post(draft, in: store))
        case let .edit(id, text): return .edited(try await edit(id, text: text, in: store))
        case let .vote(id, choices): return .voted(try await vote(in: id, choices: choices, in: store))
        case let .follow(handle): return .following(try await setFollowing(handle, true, in: store))
        case let .unfollow(handle): return .following(try await setFollowing(handle, false, in: store))
        case let .delete(id):
            try await deletePost(id, in: store)
            return .deleted(id)
        case .mute, .unmute, .muteWord, .unmuteWord: throw unsupported(.mute)
        case .block, .unblock: throw unsupported(.block)
        }
    }

    /// Refuses: the source keeps no bookmarks (``SourceAction/bookmark``).
    public func bookmarks(limit: Int, in store: TimelineStore) async throws -> [String] { throw unsupported(.bookmark) }

    /// No text is a handle this source follows.
    public func followableHandle(_ text: String) -> String? { nil }

    /// Empty: the source has no handles to follow.
    public var handleForm: String { "" }

    /// Refuses: the source follows no accounts (``SourceAction/followAccounts``).
    public func setFollowing(_ handle: String, _ following: Bool, in store: TimelineStore) async throws -> FollowOutcome {
        throw unsupported(.followAccounts)
    }

    /// Refuses: the source follows no accounts (``SourceAction/followAccounts``).
    public func followedUsers(limit: Int, in store: TimelineStore) async throws -> [FollowedUser] { throw unsupported(.followAccounts) }

    /// Refuses: the source fetches no thread (``SourceAction/thread``).
    public func fetchThread(around messageID: String, limit: Int, in store: TimelineStore) async throws -> ThreadFetch {
        throw unsupported(.thread)
    }

    /// No text is a list of this source.
    public func listID(_ text: String) -> String? { nil }

    /// Refuses: the source has no lists (``SourceAction/lists``).
    public func lists(in store: TimelineStore) async throws -> [TimelineList] { throw unsupported(.lists) }

    /// Refuses: the source has no list (``SourceAction/lists``) or hashtag (``SourceAction/tags``) timelines.
    public func fetchTimeline(_ source: TimelineSource, limit: Int, in store: TimelineStore) async throws -> [String] {
        switch source {
        case .tag: throw unsupported(.tags)
        case .list: throw unsupported(.lists)
        }
    }

    /// Refuses: the source's posts cannot be edited (``SourceAction/edit``).
    public func editableText(of messageID: String, in store: TimelineStore) async throws -> String { throw unsupported(.edit) }

    /// Refuses: the source's posts cannot be edited (``SourceAction/edit``).
    public func edit(_ messageID: String, text: String, in store: TimelineStore) async throws -> Message { throw unsupported(.edit) }

    /// Refuses: the source has no polls (``SourceAction/vote``).
    public func vote(in messageID: String, choices: [Int], in store: TimelineStore) async throws -> PollVote { throw unsupported(.vote) }

    /// No stored user is one this source mutes or blocks.
    public func moderatableHandle(of user: User) -> String? { nil }

    /// None: the source mutes and blocks no one.
    public func storedUserIDs(of handle: String, in store: TimelineStore) throws -> [String] { [] }

    /// Refuses: the source lists no mutes or blocks (``SourceAction/moderationLists``).
    public func moderationLists(_ parts: ModerationLists.Parts, limit: Int, in store: TimelineStore) async throws -> ModerationLists {
        throw unsupported(.moderationLists)
    }

    /// Refuses: the source holds back no notifications (``SourceAction/notificationRequests``).
    public func notificationRequests(limit: Int, in store: TimelineStore) async throws -> (requests: [NotificationRequest], truncated: Bool) {
        throw unsupported(.notificationRequests)
    }

    /// Refuses: the source has no lists to make or change (``SourceAction/editLists``).
    public func editList(_ edit: ListEdit, in store: TimelineStore) async throws -> ListEditOutcome {
        throw unsupported(.editLists)
    }

    /// Refuses: the source has no moderators to report to (``SourceAction/report``).
    public func report(_ messageID: String, reason: ReportReason, comment: String?, in store: TimelineStore) async throws -> ReportOutcome {
        throw unsupported(.report)
    }

    /// Nothing to end: the source keeps no access at a server for a logout to end.
    public func end() async -> SessionEnding {
        .ended("\(account.network.displayName) keeps nothing at a server for timeline to end.")
    }
}
