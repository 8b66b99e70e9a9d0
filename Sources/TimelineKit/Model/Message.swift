#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One message (a status, a post, a tweet) in the timeline.
///
/// The timeline is ordered newest first by `createdAt`, ties broken by `id` (descending, compared
/// as strings byte by byte), so the order is total and stable across calls.
public struct Message: Sendable, Codable, Hashable, Identifiable {
    /// The ID exactly as the source gives it. Never interpreted as a number.
    public var id: String
    /// The `User.id` of the author. A user with this ID must be stored by the end of the
    /// transaction that stores the message.
    public var authorID: String
    /// The text as plain Unicode. Untrusted: neutralise before writing it to a terminal.
    /// A repost's own text is usually empty; the reposted message is shown instead.
    public var text: String
    /// When the message was written. Stored with millisecond precision.
    public var createdAt: Date
    /// When the message was last edited, if ever.
    public var editedAt: Date?
    /// The message this one replies to; it may not be stored.
    public var replyToID: String?
    /// The author of the message this one replies to, when the source says.
    public var replyToUserID: String?
    /// The message this one reposts (boosts, retweets).
    public var repostOfID: String?
    /// The message this one quotes.
    public var quoteOfID: String?
    /// A content warning (Mastodon's `spoiler_text`): shown instead of the text until asked for.
    public var contentWarning: String?
    /// The message's web address, when known.
    public var url: String?
    /// Media attached to the message.
    public var attachments: [Attachment]
    /// Likes (favourites) as last reported by the source.
    public var likeCount: Int
    /// Reposts (boosts, retweets) as last reported by the source.
    public var repostCount: Int
    /// Replies as last reported by the source.
    public var replyCount: Int
    /// Whether the person has read it. Local state: sources never send it.
    public var isRead: Bool
    /// The short name a person can type for this message, where it was read from a store
    /// (``ShortReference/none`` otherwise). Ignored by `==`: see ``ShortReference``.
    public var shortReference: ShortReference
    /// Who may see it, where the source says (Mastodon's `visibility`); `nil` where it does not
    /// (a Bluesky post, an RSS item, an old import): public.
    public var visibility: PostVisibility?
    /// What its server said that the person's own rules read: labels, filters matched (issue 34).
    public var moderation: ModerationFacts
    /// Why it is painted collapsed by the person's own rules (`Filtered: TITLE`, a label), beside
    /// or instead of its ``contentWarning``. Set by the store from ``ModerationRules`` when the
    /// message is written: a value given to the store is replaced.
    public var warning: String?
    /// Where it came from (issue 35): `mastodon`, `bluesky`, `feed`, `import`, or an embedder's
    /// own ``MessageSource``. A message stored before sources were is told by its ID.
    public var source: MessageSource
    /// Why the person's own rules hide it, as the store decided when it was written: readers of
    /// the timeline never return a hidden message, so this is `nil` but for a message looked up
    /// by its ID or reference (a command can then say why it is not painted).
    public internal(set) var hiddenBecause: String?
    /// The web links the post makes, in order, each once (issue 37): Mastodon's anchors that
    /// are neither mentions nor hashtags, Bluesky's link facets then its link card. Kept by
    /// ``MessageLinks``' rule (`http` and `https` only, bounded); empty where the source gave
    /// none, and for a message stored before links were (``webLinks`` reads its text then).
    public var links: [String]

    public init(
        id: String,
        authorID: String,
        text: String,
        createdAt: Date,
        editedAt: Date? = nil,
        replyToID: String? = nil,
        replyToUserID: String? = nil,
        repostOfID: String? = nil,
        quoteOfID: String? = nil,
        contentWarning: String? = nil,
        url: String? = nil,
        attachments: [Attachment] = [],
        likeCount: Int = 0,
        repostCount: Int = 0,
        replyCount: Int = 0,
        isRead: Bool = false,
        shortReference: ShortReference = .none,
        visibility: PostVisibility? = nil,
        moderation: ModerationFacts = .none,
        warning: String? = nil,
        source: MessageSource = .import,
        links: [String] = []
    ) {
        self.id = id
        self.authorID = authorID
        self.text = text
        self.createdAt = createdAt
        self.editedAt = editedAt
        self.replyToID = replyToID
        self.replyToUserID = replyToUserID
        self.repostOfID = repostOfID
        self.quoteOfID = quoteOfID
        self.contentWarning = contentWarning
        self.url = url
        self.attachments = attachments
        self.likeCount = likeCount
        self.repostCount = repostCount
        self.replyCount = replyCount
        self.isRead = isRead
        self.shortReference = shortReference
        self.visibility = visibility
        self.moderation = moderation
        self.warning = warning
        self.source = source
        self.links = links
    }

    /// Every stored property but `hiddenBecause`, which is the store's verdict and never leaves it.
    private enum CodingKeys: String, CodingKey {
        case id, authorID, text, createdAt, editedAt, replyToID, replyToUserID, repostOfID, quoteOfID, contentWarning,
             url, attachments, likeCount, repostCount, replyCount, isRead, shortReference, visibility, moderation, warning,
             source, links
    }

    /// Reads what `encode(to:)` writes. The fields added since the first version (`visibility`,
    /// `moderation`, `warning`, `source`, `links`) may be missing, as in JSON an older version
    /// wrote: they read as unknown, none, none, `import` and none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            authorID: try container.decode(String.self, forKey: .authorID),
            text: try container.decode(String.self, forKey: .text),
            createdAt: try container.decode(Date.self, forKey: .createdAt),
            editedAt: try container.decodeIfPresent(Date.self, forKey: .editedAt),
            replyToID: try container.decodeIfPresent(String.self, forKey: .replyToID),
            replyToUserID: try container.decodeIfPresent(String.self, forKey: .replyToUserID),
            repostOfID: try container.decodeIfPresent(String.self, forKey: .repostOfID),
            quoteOfID: try container.decodeIfPresent(String.self, forKey: .quoteOfID),
            contentWarning: try container.decodeIfPresent(String.self, forKey: .contentWarning),
            url: try container.decodeIfPresent(String.self, forKey: .url),
            attachments: try container.decode([Attachment].self, forKey: .attachments),
            likeCount: try container.decode(Int.self, forKey: .likeCount),
            repostCount: try container.decode(Int.self, forKey: .repostCount),
            replyCount: try container.decode(Int.self, forKey: .replyCount),
            isRead: try container.decode(Bool.self, forKey: .isRead),
            shortReference: try container.decode(ShortReference.self, forKey: .shortReference),
            visibility: try container.decodeIfPresent(PostVisibility.self, forKey: .visibility),
            moderation: try container.decodeIfPresent(ModerationFacts.self, forKey: .moderation) ?? .none,
            warning: try container.decodeIfPresent(String.self, forKey: .warning),
            source: try container.decodeIfPresent(MessageSource.self, forKey: .source) ?? .import,
            links: try container.decodeIfPresent([String].self, forKey: .links) ?? [])
    }

    /// The position of this message in the timeline order, usable as a page cursor.
    public var cursor: TimelineCursor { TimelineCursor(createdAt: createdAt, id: id) }
}
