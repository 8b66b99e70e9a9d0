/// What a network's sessions can do beyond syncing, following, posting text and deleting the
/// account's own posts, so that the command line can refuse what a network lacks in the
/// network's own words, before any request.
public struct SessionCapabilities: Sendable, Hashable {
    /// The parts of a ``PostDraft`` a network may lack.
    public struct PostOptions: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        /// The options whose bits `rawValue` sets.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// A content warning shown instead of the text.
        public static let contentWarning = PostOptions(rawValue: 1 << 0)
        /// Who may see the post.
        public static let visibility = PostOptions(rawValue: 1 << 1)
        /// A key that makes a retried post publish once.
        public static let idempotencyKey = PostOptions(rawValue: 1 << 2)
        /// Every option.
        public static let all: PostOptions = [.contentWarning, .visibility, .idempotencyKey]
    }

    /// The session keeps a read position of the home timeline at the server (Mastodon's
    /// markers), which ``AccountSession/syncReadMarker(in:)`` moves.
    public var readMarker: Bool
    /// The session can tell the server the notifications were seen
    /// (``AccountSession/markNotificationsSeen(at:)``).
    public var notificationsSeen: Bool
    /// The parts of a draft this network publishes.
    public var postOptions: PostOptions
    /// Said when a draft uses a part the network lacks (it names the options as typed:
    /// `--cw, --visibility and --idempotency-key are for Mastodon accounts; …`).
    public var postOptionsRefusal: String
    /// The actions of ``AccountSession/act(_:on:in:)`` this network has, by what they set
    /// (favourite and boost are everywhere; bookmarks are Mastodon's in the API `timeline` uses).
    public var interactions: Set<MessageInteraction.Kind>
    /// Said when an action of a kind outside `interactions` is asked for, or the bookmarks.
    public var interactionsRefusal: String

    // Editing and polls (issue 27): what `edit` and `vote` need, refused in the network's words.
    /// Said when a post of this network is to be edited (``AccountSession/edit(_:text:in:)``),
    /// `nil` where posts can be edited.
    public var editRefusal: String?
    /// Said when a vote in a poll is asked for (``AccountSession/vote(in:choices:in:)``), `nil`
    /// where posts have polls.
    public var pollRefusal: String?
    /// Said when a mute of an account is asked to end by itself (`mute --for`), `nil` where the
    /// network keeps a mute's end (issue 34: Mastodon's `duration`; Bluesky's mutes have none).
    public var timedMuteRefusal: String?

    /// What a network's sessions can do; `postOptionsRefusal` is said for a draft that sets an
    /// option outside `postOptions`, `interactionsRefusal` for an action outside `interactions`,
    /// `editRefusal` for an edit and `pollRefusal` for a vote where the network has none.
    public init(readMarker: Bool, notificationsSeen: Bool, postOptions: PostOptions, postOptionsRefusal: String = "",
                interactions: Set<MessageInteraction.Kind> = Set(MessageInteraction.Kind.allCases), interactionsRefusal: String = "",
                editRefusal: String? = nil, pollRefusal: String? = nil, timedMuteRefusal: String? = nil) {
        self.readMarker = readMarker
        self.notificationsSeen = notificationsSeen
        self.postOptions = postOptions
        self.postOptionsRefusal = postOptionsRefusal
        self.interactions = interactions
        self.interactionsRefusal = interactionsRefusal
        self.editRefusal = editRefusal
        self.pollRefusal = pollRefusal
        self.timedMuteRefusal = timedMuteRefusal
    }

    /// Why `action` cannot be done on this network, or `nil` when it can.
    public func refusal(of action: MessageAction) -> String? {
        interactions.contains(action.kind) ? nil : interactionsRefusal
    }

    /// Why `draft` cannot be published as it is on this network, or `nil` when it can.
    public func refusal(of draft: PostDraft) -> String? {
        draft.options.isSubset(of: postOptions) ? nil : postOptionsRefusal
    }
}

extension PostDraft {
    /// The optional parts this draft sets (a draft is a value of Model/, below the sessions:
    /// what a network makes of its parts is said here).
    var options: SessionCapabilities.PostOptions {
        var options: SessionCapabilities.PostOptions = []
        if contentWarning != nil { options.insert(.contentWarning) }
        if visibility != nil { options.insert(.visibility) }
        if idempotencyKey != nil { options.insert(.idempotencyKey) }
        return options
    }
}
