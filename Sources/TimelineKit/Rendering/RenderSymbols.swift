/// The symbols the renderer decorates entries with: Unicode for terminals that show UTF-8, and
/// plain ASCII for those that do not (`LANG=C`, an ISO-8859 locale), where `●` would arrive as
/// three bytes of mojibake. Message text itself is left as it is: it is the author's.
public struct RenderSymbols: Sendable, Hashable {
    /// In the first column of an unread message.
    public var unread: String
    /// Between header parts (`Alice @alice · 3m`), with its spaces.
    public var separator: String
    /// Before `Alice reposted`.
    public var repost: String
    /// Before `reply to @handle`.
    public var reply: String
    /// Before a quoted message.
    public var quote: String
    /// Before an attachment's line.
    public var attachment: String
    /// The footer's labels for replies, reposts and likes.
    public var replies: String
    public var reposts: String
    public var likes: String
    /// After the age of a Bluesky post, and of a Mastodon status, in a timeline mixing them.
    public var bluesky: String
    public var mastodon: String
    /// After the counts, what one of the person's accounts did to the message (issue 27):
    /// favourited (liked), boosted (reposted), bookmarked.
    public var favourited: String
    public var boosted: String
    public var bookmarked: String
    /// After those, when an action on the message waits for its server (issue 27): the marks
    /// before it show what was asked for, which is not done yet.
    public var pending: String
    /// On its own line under the header of a direct message, and of a followers-only post
    /// (issue 34).
    public var direct: String
    public var followersOnly: String
    /// Whether these are the ASCII symbols: a source's mark is then its ASCII form.
    public var asciiOnly = false

    public static let unicode = RenderSymbols(
        unread: "●", separator: " · ", repost: "⟲", reply: "↩", quote: "❝", attachment: "📎",
        replies: "↩", reposts: "⟲", likes: "♥", bluesky: "🦋", mastodon: "🐘",
        favourited: "♥ favourited", boosted: "⟲ boosted", bookmarked: "🔖 bookmarked", pending: "⋯ pending",
        direct: "✉ direct", followersOnly: "🔒 followers only")

    public static let ascii = RenderSymbols(
        unread: "*", separator: " - ", repost: "RT", reply: "<-", quote: ">", attachment: "[media]",
        replies: "re", reposts: "rt", likes: "fav", bluesky: "bsky", mastodon: "masto",
        favourited: "[favourited]", boosted: "[boosted]", bookmarked: "[bookmarked]", pending: "[pending]",
        direct: "[direct]", followersOnly: "[followers only]", asciiOnly: true)

    /// The mark painted after the age of a message from `source` where a timeline mixes
    /// sources: `bluesky` and `mastodon` for theirs, a registered source's own mark
    /// (``MessageSource/register(_:mark:asciiMark:label:)``), the name of a source this process
    /// has not registered (an embedder's, read from its messages), and `nil` for `import`.
    public func mark(for source: MessageSource) -> String? {
        switch source {
        case .bluesky: return bluesky
        case .mastodon: return mastodon
        case .import: return nil
        default:
            if let presentation = source.presentation { return asciiOnly ? presentation.asciiMark : presentation.mark }
            // Checked again: a snapshot's names are read unchecked, and this one reaches the terminal.
            return MessageSource.isValidName(source.rawValue) ? source.rawValue : nil
        }
    }

    /// The symbols a terminal with this environment shows, decided as the C library decides
    /// the character set: the first of `LC_ALL`, `LC_CTYPE` and `LANG` that is set and not
    /// empty names the locale; UTF-8 unless that locale is `C`, `POSIX` or names another
    /// character set (`en_US.ISO-8859-1`). With none set, Unicode: terminals today are UTF-8,
    /// and a missing locale is more often a bare environment (`env -i`, a service) than a
    /// terminal that cannot show it. Reads three variables, nothing else.
    public static func forLocale(_ environment: (String) -> String?) -> RenderSymbols {
        var found: String?
        for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
            if let value = environment(name), !value.isEmpty {
                found = value
                break
            }
        }
        guard let locale = found else { return .unicode }
        if locale == "C" || locale == "POSIX" { return .ascii }
        guard let dot = locale.firstIndex(of: ".") else { return .unicode }
        var charset = locale[locale.index(after: dot)...]
        if let at = charset.firstIndex(of: "@") { charset = charset[..<at] }
        let name = charset.lowercased().filter { $0 != "-" }
        return name == "utf8" ? .unicode : .ascii
    }
}
