/// What a network's sessions can do beyond syncing, so that the command line refuses what a
/// network lacks, in the network's own words where it has them, before any request.
///
/// One value per network (``Account/Network/capabilities``): the ``actions`` it has, the parts of
/// a draft it publishes, and its own sentences for the actions it lacks. A source that gives
/// none has no action but its sync (``none``), and each of ``AccountSession``'s other
/// requirements refuses with ``SourceError/unsupported(action:source:reason:)``.
///
/// The actions are a `Set` of ``SourceAction`` rather than an `OptionSet` of bits: the same
/// enum names the action in the refusal, and a set of cases reads as the list it is.
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
        /// Media marked sensitive (issue 36).
        public static let sensitive = PostOptions(rawValue: 1 << 3)
        /// A named self-label (Bluesky's `sexual`, `nudity`, `porn`, `graphic-media`).
        public static let contentLabel = PostOptions(rawValue: 1 << 4)
        /// A poll.
        public static let poll = PostOptions(rawValue: 1 << 5)
        /// A time at which the server publishes it.
        public static let schedule = PostOptions(rawValue: 1 << 6)
        /// Every option.
        public static let all: PostOptions = [.contentWarning, .visibility, .idempotencyKey, .sensitive, .contentLabel, .poll, .schedule]
    }

    /// What the network's sessions do beyond syncing.
    public var actions: Set<SourceAction>
    /// The parts of a draft this network publishes.
    public var postOptions: PostOptions
    /// Said when a draft uses a part the network lacks (it names the options as typed:
    /// `--cw, --visibility and --idempotency-key are for Mastodon accounts; …`).
    public var postOptionsRefusal: String
    /// The network's own sentence for an action it lacks (what it cannot do, and what to do
    /// instead: `Bluesky posts cannot be edited (…); delete it and post it again.`); an action
    /// without one is refused in the words every source shares.
    public var refusals: [SourceAction: String]
    /// The network's own sentence for one option it lacks (keyed by the option's `rawValue`),
    /// said instead of ``postOptionsRefusal`` when the draft sets it: `Bluesky posts have no
    /// polls; …` (issue 36).
    public var postOptionRefusals: [Int: String] = [:]

    /// What a network's sessions can do: `actions`, the `postOptions` of a draft (a draft setting
    /// another is refused with `postOptionsRefusal`, or with its own sentence in
    /// `postOptionRefusals`), and `refusals`, the network's words for actions outside `actions`.
    public init(actions: Set<SourceAction> = [], postOptions: PostOptions = [], postOptionsRefusal: String = "",
                refusals: [SourceAction: String] = [:], postOptionRefusals: [Int: String] = [:]) {
        self.postOptionRefusals = postOptionRefusals
        self.actions = actions
        self.postOptions = postOptions
        self.postOptionsRefusal = postOptionsRefusal
        self.refusals = refusals
    }

    /// Nothing but the sync: a minimal source's capabilities.
    public static let none = SessionCapabilities()

    /// Why `action` cannot be done on `source` (a network's display name), or `nil` when it can.
    public func refusal(of action: SourceAction, source: String) -> SourceError? {
        actions.contains(action) ? nil : .unsupported(action: action, source: source, reason: refusals[action])
    }

    /// Why `draft` cannot be published as it is on this network, or `nil` when it can (posting
    /// at all is ``SourceAction/post``).
    public func refusal(of draft: PostDraft) -> String? {
        let lacking = draft.options.subtracting(postOptions)
        if lacking.isEmpty { return nil }
        // The lowest option with a sentence of its own, so the refusal names it.
        for bit in 0 ..< Int.bitWidth where lacking.rawValue & (1 << bit) != 0 {
            if let sentence = postOptionRefusals[1 << bit] { return sentence }
        }
        return postOptionsRefusal
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
        if sensitive { options.insert(.sensitive) }
        if contentLabel != nil { options.insert(.contentLabel) }
        if poll != nil { options.insert(.poll) }
        if scheduledAt != nil { options.insert(.schedule) }
        return options
    }
}
