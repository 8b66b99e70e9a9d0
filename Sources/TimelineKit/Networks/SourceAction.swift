/// What a source's session may do beyond syncing (``AccountSession/sync(into:options:)``, which
/// every source does): one case per optional requirement of ``AccountSession``, or per group of
/// requirements that only make sense together (following accounts: the handle, the follow, the
/// list of whom the account follows).
///
/// A source says which it can do in its ``SessionCapabilities/actions``; the command line reads
/// them and refuses the others before any request, and the default implementation of each
/// requirement refuses with ``SourceError/unsupported(action:source:reason:)`` naming the case.
/// The same case names the action in both places, so the refusal a person reads does not
/// depend on which of the two stopped it.
public enum SourceAction: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Keeping the timeline up to date while `show -f` runs (``AccountSession/follow(into:gate:health:onPolling:)``).
    case live
    /// Publishing a post, reply or quote (``AccountSession/post(_:in:)``).
    case post
    /// Deleting the account's own post at the server (``AccountSession/deletePost(_:in:)``).
    case delete
    /// Favouriting a post, or undoing it (``AccountSession/act(_:on:in:at:)``).
    case favourite
    /// Boosting (reposting) a post, or undoing it.
    case boost
    /// Bookmarking a post, or undoing it, and listing the bookmarks (``AccountSession/bookmarks(limit:in:)``).
    case bookmark
    /// Following and unfollowing accounts, and listing whom the account follows
    /// (``AccountSession/followableHandle(_:)``, ``AccountSession/setFollowing(_:_:in:)``,
    /// ``AccountSession/followedUsers(limit:in:)``).
    case followAccounts
    /// Fetching a post's conversation from the server (``AccountSession/fetchThread(around:limit:in:)``).
    case thread
    /// Reading the account's lists and their timelines (``AccountSession/lists(in:)``,
    /// ``AccountSession/fetchTimeline(_:limit:in:)`` with ``TimelineSource/list(_:)``).
    case lists
    /// Reading a hashtag's timeline (``AccountSession/fetchTimeline(_:limit:in:)`` with ``TimelineSource/tag(_:)``).
    case tags
    /// Editing the account's own post (``AccountSession/editableText(of:in:)``, ``AccountSession/edit(_:text:in:)``).
    case edit
    /// Voting in a poll (``AccountSession/vote(in:choices:in:)``).
    case vote
    /// Keeping the home timeline's read position at the server (``AccountSession/syncReadMarker(in:)``).
    case readMarker
    /// Telling the server the notifications were seen (``AccountSession/markNotificationsSeen(at:)``).
    case notificationsSeen
    /// Muting an account or a word, or ending the mute (``AccountSession/moderate(_:userIDs:in:at:)``).
    case mute
    /// Muting an account for a time only (`mute --for`).
    case timedMute
    /// Blocking an account, or ending the block.
    case block
    /// Listing what the account muted and blocked (``AccountSession/moderationLists(_:limit:in:)``).
    case moderationLists
    /// Reporting a post to the server's moderators (``AccountSession/report(_:reason:comment:in:)``).
    case report
    /// Reading the account's saved and pinned feeds and one feed's posts, and making one the
    /// home timeline (``AccountSession/savedFeeds(in:)``, issue 37): Bluesky's custom feeds.
    case feeds
    /// Listing the notifications the server's filters hold back (``AccountSession/notificationRequests(limit:in:)``).
    case notificationRequests
    /// Making, changing and deleting the account's lists (``AccountSession/editList(_:in:)``).
    case editLists
    /// Listing and cancelling the posts the server is to publish later (``AccountSession/scheduledPosts(limit:in:)``,
    /// issue 36; posting one is a draft's ``PostDraft/scheduledAt``).
    case schedule

    /// The action as a sentence says what an account cannot do: `edit a post`.
    public var description: String {
        switch self {
        case .live: "follow its timeline live (show -f)"
        case .post: "post"
        case .delete: "delete a post at its server"
        case .favourite: "favourite a post"
        case .boost: "boost a post"
        case .bookmark: "bookmark a post or list bookmarks"
        case .followAccounts: "follow or unfollow an account, or list whom it follows"
        case .thread: "fetch a post's thread from its server"
        case .lists: "read lists"
        case .tags: "read a hashtag's timeline"
        case .edit: "edit a post"
        case .vote: "vote in a poll"
        case .readMarker: "keep a read position at its server"
        case .notificationsSeen: "mark notifications seen at its server"
        case .mute: "mute an account or a word"
        case .timedMute: "mute an account for a time (--for)"
        case .block: "block an account"
        case .moderationLists: "list its mutes and blocks"
        case .report: "report a post"
        case .feeds: "read saved feeds (custom feeds)"
        case .notificationRequests: "list the notifications its server's filters hold back"
        case .editLists: "make or change lists"
        case .schedule: "list or cancel scheduled posts"
        }
    }

    /// The action that sets `kind` of a message's interaction (a favourite, a boost, a bookmark).
    public init(_ kind: MessageInteraction.Kind) {
        switch kind {
        case .favourite: self = .favourite
        case .boost: self = .boost
        case .bookmark: self = .bookmark
        }
    }
}
