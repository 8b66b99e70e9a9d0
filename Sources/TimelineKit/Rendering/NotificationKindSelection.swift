/// The kinds of notification a person asked to see (`show --notifications --only mentions,follows`),
/// read from a comma-separated list of words.
///
/// A word is a ``NotificationKind``'s name (`mention`, `follow_request`), its plural
/// (`mentions`, `replies`), or another network's word for the same thing (`like`, `boost`,
/// `repost`, `edit`), so that what a person reads in the lines (`liked`, `boosted`) is what they
/// can type. Mastodon calls a reply a mention; Bluesky tells them apart, so `mentions,replies`
/// asks for both everywhere.
///
/// ```swift
/// let selection = try NotificationKindSelection(parsing: "mentions,replies")
/// let mentions = try store.notifications(kinds: selection.kinds, limit: 20)
/// ```
public struct NotificationKindSelection: Sendable, Hashable {
    /// The kinds asked for, never empty.
    public let kinds: Set<NotificationKind>

    /// Reads `list`: words separated by commas, white space around them ignored, any case.
    ///
    /// - Throws: ``NotificationKindSelectionError`` for an empty list or a word that names no kind,
    ///   naming the words that do.
    public init(parsing list: String) throws(NotificationKindSelectionError) {
        var kinds = Set<NotificationKind>()
        for part in list.split(separator: ",", omittingEmptySubsequences: false) {
            let word = part.trimmingWhiteSpace().lowercased()
            guard let kind = Self.kind(named: word) else {
                if word.isEmpty { throw .empty }
                throw .unknown(word)
            }
            kinds.insert(kind)
        }
        guard !kinds.isEmpty else { throw .empty }
        self.kinds = kinds
    }

    /// The kinds a person may name, each by the word the error messages and help give first.
    public static let words: [(word: String, kind: NotificationKind)] = [
        ("mentions", .mention), ("replies", .reply), ("quotes", .quote), ("favourites", .favourite),
        ("boosts", .reblog), ("follows", .follow), ("follow_requests", .followRequest), ("polls", .poll),
        ("updates", .update), ("statuses", .status),
    ]

    /// Other words for the same kinds: the singulars, the server's own names and Bluesky's.
    static let synonyms: [String: NotificationKind] = [
        "mention": .mention, "reply": .reply, "quote": .quote, "favourite": .favourite, "favorite": .favourite,
        "favorites": .favourite, "like": .favourite, "likes": .favourite, "reblog": .reblog, "reblogs": .reblog,
        "boost": .reblog, "repost": .reblog, "reposts": .reblog, "follow": .follow, "follow_request": .followRequest,
        "poll": .poll, "update": .update, "edit": .update, "edits": .update, "status": .status, "post": .status,
        "posts": .status,
    ]

    static func kind(named word: String) -> NotificationKind? {
        words.first { $0.word == word }?.kind ?? synonyms[word]
    }
}

/// Why a list of notification kinds (`--only`) was refused.
public enum NotificationKindSelectionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The list named no kind at all (`--only ''`, `--only ,`).
    case empty
    /// A word that names no kind, as given (lowercased).
    case unknown(String)

    public var description: String {
        let valid = NotificationKindSelection.words.map(\.word).joined(separator: ", ")
        switch self {
        case .empty:
            return "no notification kind given: name one or more of \(valid), separated by commas."
        case let .unknown(word):
            return "\(QuotedValue.quoted(word)) is not a kind of notification: use \(valid) (singulars, like, repost and edit are taken too)."
        }
    }
}

private extension Substring {
    func trimmingWhiteSpace() -> Substring {
        var result = self
        while let first = result.first, first.isWhitespace { result.removeFirst() }
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return result
    }
}
