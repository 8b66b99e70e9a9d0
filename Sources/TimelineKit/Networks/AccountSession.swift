#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An account's session with its network: the one protocol of a source of accounts, and
/// everything `timeline` asks of a server for one account, whatever the network. Made by
/// ``AccountStore/session(for:transport:policy:clock:)`` through the account's
/// ``Account/Network``; the command line holds `any AccountSession` and never asks which
/// network it is.
///
/// ```swift
/// let accounts = try AccountStore.standard()
/// for account in try accounts.accounts() {
///     let session = try accounts.session(for: account, transport: CurlTransport())
///     let summary = try await session.sync(into: store, options: SyncOptions(homeDepth: 200))
/// }
/// ```
///
/// **What every source does**: ``account`` (whose session it is; the messages it stores carry
/// its network's ``Account/Network/source``) and ``sync(into:options:)``. Everything else is
/// optional: each requirement has a default that refuses with one typed error,
/// ``SourceError/unsupported(action:source:reason:)`` naming the ``SourceAction``, or answers
/// "none" where the requirement asks a question (``holds(messageID:)``: `false`;
/// ``followableHandle(_:)``: `nil`). A source that implements an action says so in its
/// network's ``SessionCapabilities/actions``, which the command line reads to refuse the others
/// before any request, in the network's own words (``SessionCapabilities/refusals``) or the
/// shared ones. A minimal source:
///
/// ```swift
/// struct WeatherSession: AccountSession {
///     let account: Account
///     func sync(into store: TimelineStore, options: SyncOptions) async throws -> SyncSummary {
///         try store.upsert(users: [station], messages: readings(source: account.network.source))
///         return SyncSummary(account: account.name)
///     }
/// }
/// ```
///
/// **Errors.** Methods throw the errors of the parts they use, so that a caller tells them
/// apart as it always has: ``AccountError`` when the account's token cannot be had (a
/// `token_command` that fails), ``ServerError`` for the server and the store (`.store`),
/// ``SourceError`` for an action the source lacks.
///
/// **Adding an action** (favourite, boost, bookmark, follow, edit, vote, a thread or a tag's
/// timeline from the server): one requirement here, taking and returning network-neutral values
/// (a stored message ID, a ``PostDraft``-like value), its default in
/// `AccountSession+Defaults.swift` refusing with a new ``SourceAction``, and one method in each
/// conformance that has it (`Mastodon/MastodonAccountSession.swift`,
/// `Bluesky/BlueskyAccountSession.swift`), whose network lists the action in its capabilities;
/// the command calls the requirement and checks the capability. No command names a network.
///
/// **Adding a network** (a source of accounts): a folder of its own with its conformance of
/// this protocol and its ``Account/Network`` value, and its registration: a line in
/// `Networks/NetworkRegistry.swift` for a built-in one, ``Account/Network/register(_:)`` for an
/// embedder's. See docs/architecture.md, "What a source costs".
public protocol AccountSession: Sendable {
    /// The account this session acts for.
    var account: Account { get }

    /// What the session can do beyond syncing (default: its network's; a conformance whose
    /// server may lack more says so itself).
    var capabilities: SessionCapabilities { get }

    /// Syncs the account's home timeline, notifications and (where the network keeps one) read
    /// position into `store`, as `timeline sync` does, and rewrites the snapshot once at the end.
    /// What was stored before a failure stays; the next sync goes on from it. Sends no queued
    /// action: `timeline sync` calls ``sendPendingActions(in:)`` first.
    func sync(into store: TimelineStore, options: SyncOptions) async throws -> SyncSummary

    /// Keeps `store` up to date from the server until the task is cancelled (`show -f`):
    /// listening where the network pushes, polling where it does not. Each sync holds `gate`'s
    /// lock or is left out while another process syncs; a server that stops answering is told
    /// to `health` once, and its return once more. `onPolling` is called once with the reason
    /// and the interval when a server that should push does not, and the follow polls instead.
    ///
    /// - Throws: `ServerError.cancelled` when the task is cancelled, errors that trying again
    ///   cannot cure (`.unauthorized`: log in again).
    func follow(into store: TimelineStore, gate: SyncGate?, health: FollowHealth?,
                onPolling: @escaping @Sendable (_ reason: ServerError, _ interval: Duration) -> Void) async throws

    /// Publishes `draft` as the account and stores the server's post in `store`, read (the
    /// person wrote it). A draft setting a part the network lacks
    /// (``SourceAction``) is refused by the caller first.
    ///
    /// - Throws: `ServerError.replyTargetElsewhere` when `replyTo` is not a post of this
    ///   network, `.rejected` with the server's reason (too long, empty).
    func post(_ draft: PostDraft, in store: TimelineStore) async throws -> Message

    /// Brings the home read position into step with the server both ways (Mastodon's markers),
    /// right after a local `mark-read`; a network without one answers
    /// ``ReadMarkerSync/serverLacksMarkers`` and sends nothing (``SourceAction/readMarker``).
    func syncReadMarker(in store: TimelineStore) async throws -> ReadMarkerSync

    /// Whether `messageID` (a stored ID) names a post of this account's server: the posts
    /// whose read state its read position is about.
    func holds(messageID: String) -> Bool

    /// Tells the server the person has seen the notifications up to `date`, where the network
    /// counts them (``SourceAction/notificationsSeen``); elsewhere nothing is sent.
    func markNotificationsSeen(at date: Date) async throws

    /// Deletes the account's own post `messageID` (a stored ID) at the server and then in
    /// `store`. A post the server no longer has is gone either way: it is forgotten here too.
    ///
    /// - Throws: `ServerError.replyTargetElsewhere` when it is not a post of this account's
    ///   server, the server's refusal (not yours).
    func deletePost(_ messageID: String, in store: TimelineStore) async throws

    /// Sends the queued action `pending` (``PendingAction``: a favourite, boost or bookmark of
    /// the stored message `pending.messageID`, or its undo) to its server once, as the account,
    /// and stores what the server then says of the message, the account's favourite, boost and
    /// bookmark (``TimelineStore/interaction(account:messageID:)``) and its counts, taking
    /// `pending` out of the queue in the same transaction. Sent with `pending.key` where the
    /// network has a use for it (Mastodon's `Idempotency-Key`; Bluesky's record key), so that
    /// a try whose answer was lost is not done twice; where the key does not make a retry
    /// harmless, a retry (`pending.attempts` above 1) looks at the server's state first. Doing
    /// what is already done changes nothing at the server and succeeds. Called by
    /// ``AccountSession/act(_:on:in:at:)`` and ``sendPendingActions(in:)``, which keep the queue; an action of a
    /// kind the network lacks (``SourceAction``) is refused by the caller.
    ///
    /// - Throws: `ServerError.replyTargetElsewhere` when it is not a message of this account's
    ///   network, `.rejected` with the server's reason (a deleted post: 404), `.store`; `pending`
    ///   stays queued then (the caller decides: ``PendingActionFailure``).
    func send(_ pending: PendingAction, in store: TimelineStore) async throws -> MessageActionOutcome

    /// Sends the outbox's change `entry` (``OutboxEntry``: a post, edit, vote, follow, unfollow
    /// or delete) to its server once, as the account, and stores what the server answers (a
    /// post's stand-in is taken out by the caller, with the entry). Sent with `entry.key` where
    /// the network has a use for it (a post's Mastodon `Idempotency-Key`; the record key of a
    /// Bluesky post or follow), so that a try whose answer was lost is not done twice; where the
    /// key does not make a retry harmless, a retry (`entry.attempts` above 1) looks at the
    /// server's state first (a vote already in the poll is done; a post already deleted is).
    /// Called by ``perform(_:in:at:)`` and ``sendPendingActions(in:)``, which keep the outbox.
    ///
    /// - Throws: as the method of the change would (``post(_:in:)``, ``edit(_:text:in:)``,
    ///   ``vote(in:choices:in:)``, ``setFollowing(_:_:in:)``, ``deletePost(_:in:)``); the entry
    ///   stays queued then (the caller decides: ``PendingActionFailure``).
    func send(_ entry: OutboxEntry, in store: TimelineStore) async throws -> OutboxResult

    /// The account's bookmarks, newest first, at most `limit` of them, fetched from the server and
    /// stored (the messages, and each one's bookmark); answers their stored IDs. A network without
    /// bookmarks (``SourceAction/bookmark``) is refused by the caller.
    func bookmarks(limit: Int, in store: TimelineStore) async throws -> [String]

    // MARK: Following accounts, server threads, tag and list timelines (issue 27)

    /// `text` as this network names an account to follow (`@alice@example.social` →
    /// `alice@example.social`, `@Alice.bsky.social` → `alice.bsky.social`), or `nil` when it is
    /// not one this network's handles can be (then say ``handleForm``). Nothing is sent.
    func followableHandle(_ text: String) -> String?

    /// How this network's handles are written, for the sentence that refuses one
    /// (`alice (on your server) or alice@example.social`).
    var handleForm: String { get }

    /// Follows (`following` true) or unfollows the account `handle` (as ``followableHandle(_:)``
    /// answered it) as this account, and says whom and how it now stands. Following someone
    /// already followed, or unfollowing someone not followed, changes nothing and succeeds.
    /// Nothing is written to `store`.
    ///
    /// - Throws: `ServerError.rejected` with status 404 naming the handle when the server knows
    ///   no such account, the server's refusal (a blocked account), `.notSupported` where the
    ///   server lacks the endpoint.
    func setFollowing(_ handle: String, _ following: Bool, in store: TimelineStore) async throws -> FollowOutcome

    /// The accounts this account follows, as the server lists them (newest follow first), at
    /// most `limit` of them: pages are asked for until `limit` or the end. `store` is the
    /// session's, as for every call; nothing is written to it.
    func followedUsers(limit: Int, in store: TimelineStore) async throws -> [FollowedUser]

    /// Fetches the conversation around the stored message `messageID` from its server (what it
    /// replies to, up to the root, and the replies to it and to them; a repost's through the post
    /// it reposts) and stores it as a sync stores what it fetches: users and messages inserted or
    /// replaced, so a second fetch adds nothing twice; the new ones stored read (the person is
    /// reading the thread), the snapshot rewritten once. At most `limit` posts
    /// (``ThreadFetch/maximumPosts`` at most) are stored; one request (Mastodon's context, Bluesky's
    /// `getPostThread` with a bounded depth).
    ///
    /// - Throws: `ServerError.replyTargetElsewhere` when it is not a post of this account's
    ///   server, `.notSupported` where the server lacks the endpoint, the server's refusal (a
    ///   deleted post), `.store`; nothing is stored then.
    func fetchThread(around messageID: String, limit: Int, in store: TimelineStore) async throws -> ThreadFetch

    /// `text` as the ID of one of this network's lists (Mastodon: the list's ID, letters and
    /// digits; Bluesky: the AT URI of a list or a feed generator), or `nil`. Nothing is sent.
    func listID(_ text: String) -> String?

    /// The lists the account keeps at its server (Mastodon's `GET /api/v1/lists`, Bluesky's
    /// `app.bsky.graph.getLists` of the account). Nothing is written to `store`.
    func lists(in store: TimelineStore) async throws -> [TimelineList]

    /// Fetches the newest posts of `source`, at most `limit` (pages as the network gives them,
    /// bounded), stores them in `store` as a sync stores what it fetches (insert or replace, the
    /// snapshot rewritten), and answers their stored IDs, newest first. `store` is the
    /// source's own database, not the home timeline's: the person reads them apart.
    ///
    /// - Throws: the server's refusal (an unknown list: 404), `.notSupported` where the server
    ///   lacks the endpoint, `.store`.
    func fetchTimeline(_ source: TimelineSource, limit: Int, in store: TimelineStore) async throws -> [String]

    // MARK: Editing and polls (issue 27)

    /// The text of the account's own post `messageID` (a stored ID) as its author wrote it, to
    /// start an edit from: Mastodon's source (`GET /api/v1/statuses/:id/source`), not the HTML
    /// made of it. A network whose posts cannot be edited (``SourceAction/edit``)
    /// is refused by the caller first.
    ///
    /// - Throws: `ServerError.replyTargetElsewhere` when it is not a post of this account's
    ///   server, `.rejected` with the server's reason (not yours: 403 or 404).
    func editableText(of messageID: String, in store: TimelineStore) async throws -> String

    /// Replaces the text of the account's own post `messageID` (a stored ID) at the server,
    /// keeping everything else it has (content warning, media, language), and stores the
    /// server's answer, edited (``Message/editedAt``), so the next paint marks it ` · edited`.
    /// Refused by the caller first where ``SourceAction/edit`` says so.
    ///
    /// - Throws: `ServerError.replyTargetElsewhere` when it is not a post of this account's
    ///   server, `.rejected` with the server's reason (not yours, too long), `.store`;
    ///   ``PostChangeRefusal/editWouldResetPoll`` for a post with a poll, before any change.
    func edit(_ messageID: String, text: String, in store: TimelineStore) async throws -> Message

    /// Votes in the poll of the stored message `messageID` (a repost: of its original) for
    /// `choices`, the options' positions counted from 0 in the order the poll lists them, and
    /// stores the message again with the poll's new counts. The poll is read from the server
    /// first (its ID, how many options, whether it takes several choices or has ended), so a
    /// choice that is not there is refused before any vote. Refused by the caller first where
    /// ``SourceAction/vote`` says so.
    ///
    /// - Throws: ``PostChangeRefusal`` for a post without a poll, a poll that has ended or
    ///   already has your vote, a choice that is not one of its options or several for a
    ///   one-choice poll; `ServerError` otherwise.
    func vote(in messageID: String, choices: [Int], in store: TimelineStore) async throws -> PollVote

    // MARK: Saved feeds (issue 37)

    /// The feeds the account saved at its server, pinned first as the server orders them
    /// (Bluesky's `#savedFeedsPrefV2`), with the names their generators give. Nothing is
    /// written to `store`. Refused by the caller first where ``SourceAction/feeds`` says so.
    func savedFeeds(in store: TimelineStore) async throws -> [SavedFeed]

    /// Tells the generator of the feed the stored message `messageID` was read in (kept in
    /// `store` when it was fetched) of `interaction`, as the network's own app does; best
    /// effort: nothing happens for a message read elsewhere, and a failure is dropped, never
    /// failing the action it follows. Answers whether it was sent.
    @discardableResult
    func sendFeedInteraction(_ interaction: FeedInteraction, on messageID: String, in store: TimelineStore) async -> Bool

    // MARK: Mute, block and report (issue 34)

    /// The stored user `user` as the handle a mute or block of it names (as
    /// ``followableHandle(_:)`` answers one: Mastodon's `acct`, a Bluesky DID), or `nil` when it
    /// is not an account of this account's network (another server's stored users). Nothing is sent.
    func moderatableHandle(of user: User) -> String?

    /// The stored users `handle` (as ``followableHandle(_:)`` answered it) may be among those
    /// `store` knows (Mastodon: this server's users of that `acct`; Bluesky: the DID, or the
    /// users of that handle), so that their stored posts are hidden at once, before any
    /// request. Nothing is sent.
    func storedUserIDs(of handle: String, in store: TimelineStore) throws -> [String]

    /// The `parts` of what the account muted and blocked, as the server lists them: the accounts
    /// muted, the accounts blocked (at most `limit` of each), the words muted (Mastodon: the
    /// keywords of the filters that hide; Bluesky: `#mutedWordsPref`). Nothing is written to `store`.
    ///
    /// - Throws: `ServerError.serverLacks` where the server has no such list (Takahē lacks the
    ///   lists of mutes and blocks), the server's errors.
    func moderationLists(_ parts: ModerationLists.Parts, limit: Int, in store: TimelineStore) async throws -> ModerationLists

    /// The accounts whose notifications the server's filters hold back, at most `limit`, newest
    /// first (Mastodon 4.3's notification requests), and whether the server had more. Nothing is
    /// written to `store`.
    ///
    /// - Throws: `ServerError.serverLacks` where the server has none (before Mastodon 4.3,
    ///   Takahē), the server's errors.
    func notificationRequests(limit: Int, in store: TimelineStore) async throws -> (requests: [NotificationRequest], truncated: Bool)

    /// Makes, changes or deletes one of the account's lists at its server, at once (not through
    /// the outbox: see ``ListEdit``). Nothing is written to `store`.
    ///
    /// - Throws: the server's errors; Mastodon refuses to add an account the account does not
    ///   follow (`ServerError.rejected`, status 422, its reason saying so).
    func editList(_ edit: ListEdit, in store: TimelineStore) async throws -> ListEditOutcome

    /// Reports the stored post `messageID` (a repost: the post it reposts) and its author to the
    /// server's moderators, for `reason`, with `comment` (at most 1,000 characters; `nil`:
    /// none). Sent at once, never queued: a report needs its server (docs/user-guide.md).
    ///
    /// - Throws: `ServerError.replyTargetElsewhere` when it is not a post of this account's
    ///   network, the server's refusal, the errors of a server that cannot be reached.
    func report(_ messageID: String, reason: ReportReason, comment: String?, in store: TimelineStore) async throws -> ReportOutcome

    // MARK: Scheduled posts (issue 36)

    /// The posts the server is to publish later, soonest first, at most `limit`
    /// (``SourceAction/schedule``). Nothing is written to `store`.
    func scheduledPosts(limit: Int, in store: TimelineStore) async throws -> [ScheduledPost]

    /// Cancels the scheduled post `id` (``ScheduledPost/id``): the server will not publish it.
    ///
    /// - Throws: the server's refusal (404 for an ID it does not have), the errors of a server
    ///   that cannot be reached: sent at once, never queued.
    func unschedule(_ id: String, in store: TimelineStore) async throws

    /// Ends the account's access at the server (logout): Mastodon revokes a token `login`
    /// created, Bluesky deletes the session. Never throws: a logout forgets the account
    /// whatever the server says; how it went is the answer.
    func end() async -> SessionEnding
}
