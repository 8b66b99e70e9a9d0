/// A poll to attach to a post (Mastodon's `poll`): its options in order, how long it is open,
/// and whether a voter may choose several.
///
/// ```swift
/// var draft = PostDraft(text: "Tabs or spaces?")
/// draft.poll = PollDraft(options: ["Tabs", "Spaces"], expiresIn: 3 * 86_400)
/// if let refusal = draft.poll?.refusal(under: .mastodonDefaults) { print(refusal) }
/// ```
public struct PollDraft: Sendable, Hashable {
    /// The options, in the order voters see them.
    public var options: [String]
    /// Seconds from publication until the poll closes (Mastodon requires one).
    public var expiresIn: Int
    /// Whether a voter may choose several options.
    public var multiple: Bool

    /// How long a poll is open when nothing says: one day. Mastodon refuses a poll without
    /// `expires_in`, so one is always sent.
    public static let defaultExpiresIn = 86_400

    /// A poll of `options`, open `expiresIn` seconds (one day by default).
    public init(options: [String], expiresIn: Int = PollDraft.defaultExpiresIn, multiple: Bool = false) {
        self.options = options
        self.expiresIn = expiresIn
        self.multiple = multiple
    }

    /// Why the poll cannot be posted where `limits` hold, in one sentence that says what to
    /// change; `nil` when it can.
    public func refusal(under limits: PollLimits) -> String? {
        if options.count < 2 { return "a poll needs at least 2 options (--poll OPTION, once for each); it has \(options.count)." }
        if options.count > limits.maxOptions {
            return "a poll has at most \(limits.maxOptions) options \(limits.origin); it has \(options.count)."
        }
        if let empty = options.firstIndex(where: { $0.allSatisfy(\.isWhitespace) }) {
            return "poll option \(empty + 1) is empty: give each --poll some text."
        }
        if let long = options.firstIndex(where: { $0.count > limits.maxCharactersPerOption }) {
            return "poll option \(long + 1) is \(options[long].count) characters long; an option has at most \(limits.maxCharactersPerOption) \(limits.origin)."
        }
        var seen = Set<String>()
        if let repeated = options.first(where: { !seen.insert($0).inserted }) {
            return "the poll has the option \u{201C}\(repeated)\u{201D} twice: each option must differ."
        }
        if expiresIn < limits.minExpiration || expiresIn > limits.maxExpiration {
            return "a poll stays open between \(PollLimits.spoken(limits.minExpiration)) and \(PollLimits.spoken(limits.maxExpiration)) \(limits.origin); --poll-expires asks for \(PollLimits.spoken(expiresIn))."
        }
        return nil
    }
}

/// What a server allows in a poll (Mastodon's `configuration.polls` in `GET /api/v2/instance`).
public struct PollLimits: Sendable, Hashable {
    /// The most options (Mastodon: 4).
    public var maxOptions: Int
    /// The longest option, in characters (Mastodon: 50).
    public var maxCharactersPerOption: Int
    /// The shortest time open, in seconds (Mastodon: 300).
    public var minExpiration: Int
    /// The longest time open, in seconds (Mastodon: 2,629,746, a month).
    public var maxExpiration: Int
    /// Whose limits these are, for a refusal: `(Mastodon's default)`, `(at mastodon.social)`.
    public var origin: String

    /// Limits, with `origin` naming whose they are.
    public init(maxOptions: Int, maxCharactersPerOption: Int, minExpiration: Int, maxExpiration: Int, origin: String) {
        self.maxOptions = maxOptions
        self.maxCharactersPerOption = maxCharactersPerOption
        self.minExpiration = minExpiration
        self.maxExpiration = maxExpiration
        self.origin = origin
    }

    /// Mastodon's own defaults, taken where a server says nothing.
    public static let mastodonDefaults = PollLimits(maxOptions: 4, maxCharactersPerOption: 50, minExpiration: 300,
                                                    maxExpiration: 2_629_746, origin: "(Mastodon's default)")

    /// What the command line checks before any server is asked (which then says its own
    /// limits): at most ``hardMaxOptions`` options of at most 1,000 characters, open one minute
    /// to a year.
    public static let anyServer = PollLimits(maxOptions: hardMaxOptions, maxCharactersPerOption: 1_000, minExpiration: 60,
                                             maxExpiration: 366 * 86_400, origin: "(the most timeline asks any server for)")

    /// The most options any server is asked for: the command line refuses more before it asks
    /// the server (which then says its own limit), and an outbox entry never holds a list that
    /// grows without bound.
    public static let hardMaxOptions = 100

    /// `seconds` as a person says it: `5 minutes`, `1 day`, `30 days`, `90 seconds`.
    public static func spoken(_ seconds: Int) -> String {
        for (size, unit) in [(86_400, "day"), (3_600, "hour"), (60, "minute")] where seconds >= size && seconds % size == 0 {
            let count = seconds / size
            return "\(count) \(unit)\(count == 1 ? "" : "s")"
        }
        if seconds >= 86_400 { return "\(seconds / 86_400) days" }
        return "\(seconds) second\(seconds == 1 ? "" : "s")"
    }
}
