#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A post to publish through an ``AccountSession``: its text and what goes with it. Each
/// network publishes the parts it has (``SessionCapabilities/postOptions``) and refuses a draft
/// that sets one it lacks, before any request (``SessionCapabilities/refusal(of:)-(PostDraft)``).
///
/// ```swift
/// var draft = PostDraft(text: "Shipping today 🚀", replyTo: "mastodon.social/1098…")
/// draft.languages = PostDraft.languages(locale: { getenv($0).map { String(cString: $0) } })
/// if let refusal = session.capabilities.refusal(of: draft) { print(refusal) }
/// let message = try await session.post(draft, in: store)
/// ```
public struct PostDraft: Sendable, Hashable {
    /// The text (the server counts and formats it).
    public var text: String
    /// The message replied to: a stored message's ID, or the server's own ID of the post.
    public var replyTo: String?
    /// The message quoted (shown inside the post): a stored message's ID, or the server's own ID
    /// of the post. Bluesky embeds it (`app.bsky.embed.record`); a Mastodon server quotes it where
    /// it has the quotes API (Mastodon 4.5), and refuses the draft elsewhere, before it is sent.
    public var quoteOf: String?
    /// A content warning, shown instead of the text until opened.
    public var contentWarning: String?
    /// Who may see it; the account's default when `nil`.
    public var visibility: PostVisibility?
    /// The key that makes a retry publish once; a new random one when `nil` (where the network
    /// has such keys; Bluesky's record key does the same without being asked).
    public var idempotencyKey: String?
    /// The languages it is written in (BCP 47: `en`, `pt`), where the network records them
    /// (Bluesky's language filters); none when `[]`.
    public var languages: [String]

    // MARK: Post options (issue 36): sensitive media, labels, polls, schedules, link cards

    /// Whether its media is marked sensitive (Mastodon's `sensitive`, shown behind a warning);
    /// on Bluesky a self-label, ``contentLabel`` or else ``SelfLabel/graphicMedia``.
    public var sensitive = false
    /// The Bluesky self-label it carries (`com.atproto.label.defs#selfLabels`), as the official
    /// app writes for a post's pictures; `nil` for none (or the one ``sensitive`` implies).
    public var contentLabel: SelfLabel?
    /// A poll to attach (Mastodon's); none when `nil`.
    public var poll: PollDraft?
    /// When the server is to publish it (Mastodon's `scheduled_at`); at once when `nil`.
    public var scheduledAt: Date?
    /// Whether a Bluesky post with a link gets the link's card (`app.bsky.embed.external`),
    /// built from the page when it is sent; `false` for `--no-card`.
    public var linkCard = true

    // Pictures (issue 36).

    /// The pictures to show with it, in order (`post --image`, at most
    /// 4); none when `[]`.
    public var pictures: [PostPicture] = []

    /// A draft of `text`; every other part is optional (see each property).
    public init(text: String, replyTo: String? = nil, quoteOf: String? = nil, contentWarning: String? = nil,
                visibility: PostVisibility? = nil, idempotencyKey: String? = nil, languages: [String] = []) {
        self.text = text
        self.replyTo = replyTo
        self.quoteOf = quoteOf
        self.contentWarning = contentWarning
        self.visibility = visibility
        self.idempotencyKey = idempotencyKey
        self.languages = languages
    }

    /// The language a post is written in, as the person's locale says it (`LC_ALL`,
    /// `LC_MESSAGES`, `LANG`, the first set: `pt_BR.UTF-8` gives `pt`); none for `C`, `POSIX`
    /// or an unset locale. `environment` reads a variable.
    public static func languages(locale environment: (String) -> String?) -> [String] {
        var locale = ""
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment(name), !value.isEmpty {
                locale = value
                break
            }
        }
        let language = locale.prefix { $0 != "_" && $0 != "." && $0 != "@" }
        guard (2 ... 3).contains(language.count), language.allSatisfy({ $0 >= "a" && $0 <= "z" }) else { return [] }
        return [String(language)]
    }
}
