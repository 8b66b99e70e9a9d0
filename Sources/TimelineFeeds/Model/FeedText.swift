import TimelineKit

/// A text of an item as the feed gives it: HTML, or plain text.
public enum FeedText: Sendable, Hashable {
    /// HTML (RSS `description`, Atom `type="html"` or `"xhtml"`, JSON Feed `content_html`).
    case html(String)
    /// Plain text (Atom `type="text"`, JSON Feed `content_text` and `summary`).
    case plain(String)

    /// The text as plain text for a terminal: HTML converted as Mastodon's is
    /// (`MastodonHTML.plainText`: paragraphs, line breaks, lists, references decoded).
    public var plainText: String {
        switch self {
        case let .html(html): MastodonHTML.plainText(html)
        case let .plain(text): text
        }
    }

    /// The text as the feed wrote it, markup and all.
    var source: String {
        switch self {
        case let .html(text), let .plain(text): text
        }
    }
}
