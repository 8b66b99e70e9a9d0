#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Says a notification in words, one line each: who did what, and to which post.
///
/// ```
/// ♥ Alice liked your post "Shipping today 🚀" · 3m · bkd
/// ⇄ Bob boosted your post "Shipping today 🚀" · 5m · bkd
/// @ Carol mentioned you: "@alice are you coming tonight?" · 1h · bkf
/// ↩ Carol replied to you: "Same here" · 1h · bkg
/// + Dan followed you · 2d
/// ▤ A poll by Eve has ended: "Tabs or spaces?" · Nov 3 · bhz
/// ✎ Frank edited a post you boosted: "Fixed the link" · now · bjq
/// ```
///
/// A line about a stored post ends with the post's short reference, as a timeline line does, so
/// the commands that take one (`post --reply-to bkf`, `favourite bkf`, `open bkf`) act on it.
///
/// Names and texts come from other people: they go through `TerminalText.line`, so no escape
/// sequence, control character or bidirectional override in them reaches the terminal, and a
/// text with line breaks stays on the line. A post behind a content warning is quoted by its
/// warning (`CW: spoilers`), not its text. A kind this version does not know is said generally
/// (`· Gina: pleroma:emoji_reaction "…"`), never dropped.
public struct NotificationRenderer: Sendable {
    /// The widest a quoted post may be, in terminal columns, before it is cut with `…`.
    public var excerptWidth: Int
    /// Unicode marks, or ASCII ones (`fav`, `rt`, `-`) for a terminal that does not show UTF-8.
    public var symbols: RenderSymbols

    public init(excerptWidth: Int = 60, symbols: RenderSymbols = .unicode) {
        self.excerptWidth = max(1, excerptWidth)
        self.symbols = symbols
    }

    /// The notification as one line, its age at the end (`· 3m`, as `show` writes ages), then
    /// the short reference of its post when the post is stored (`· bkd`). With `width`, the
    /// line fits it: the quoted post gives way first, then the sentence is cut (`…`), and the
    /// age and reference stay while there is room for them.
    public func line(for notification: TimelineNotification, now: Date, width: Int? = nil) -> String {
        var age = symbols.separator + RelativeTime.string(for: notification.createdAt, now: now)
        if let reference = notification.message?.shortReference, !reference.isNone {
            age += symbols.separator + reference.text
        }
        var sentence = sentence(for: notification)
        guard let width else { return sentence + age }
        let room = width - DisplayWidth.of(age)
        guard room >= 8 else { return cut(sentence + age, to: max(1, width)) }
        let overflow = DisplayWidth.of(sentence) - room
        if overflow > 0 {
            var narrower = self
            narrower.excerptWidth = max(8, excerptWidth - overflow)
            sentence = narrower.sentence(for: notification)
            if DisplayWidth.of(sentence) > room { sentence = cut(sentence, to: room) }
        }
        return sentence + age
    }

    /// The mark before a sentence; in ASCII the Unicode ones become short words.
    private func mark(_ unicode: String) -> String {
        guard symbols == .ascii else { return unicode }
        return switch unicode {
        case "♥": "fav"
        case "⇄": "rt"
        case "❝": ">"
        case "•": "*"
        case "▤": "poll"
        case "✎": "edit"
        case "↩": "re"
        case "·": "-"
        default: unicode
        }
    }

    /// The notification as one sentence, without its age.
    public func sentence(for notification: TimelineNotification) -> String {
        var who = notification.actor.map(Self.name) ?? "Someone"
        // A group (Mastodon 4.3): the first of its accounts, and how many more.
        if notification.count > 1 { who += " and \(Counted(notification.count - 1, "other"))" }
        let post = excerpt(notification)
        switch notification.kind {
        case .favourite: return "\(mark("♥")) \(who) liked your post\(post.map { " " + $0 } ?? "")"
        case .reblog: return "\(mark("⇄")) \(who) boosted your post\(post.map { " " + $0 } ?? "")"
        case .quote: return "\(mark("❝")) \(who) quoted your post\(post.map { ": " + $0 } ?? "")"
        case .mention: return "@ \(who) mentioned you\(post.map { ": " + $0 } ?? "")"
        case .reply: return "\(mark("↩")) \(who) replied to you\(post.map { ": " + $0 } ?? "")"
        case .status: return "\(mark("•")) \(who) posted\(post.map { ": " + $0 } ?? "")"
        case .follow: return "+ \(who) followed you"
        case .followRequest: return "? \(who) asked to follow you"
        case .poll:
            let owner = notification.actor.map { "A poll by \(Self.name($0))" } ?? "A poll"
            return "\(mark("▤")) \(owner) has ended\(post.map { ": " + $0 } ?? "")"
        case .update: return "\(mark("✎")) \(who) edited a post you boosted\(post.map { ": " + $0 } ?? "")"
        case .adminSignUp: return "+ \(who) signed up"
        case .adminReport: return "! \(who) filed a report"
        default:
            return "\(mark("·")) \(who): \(TerminalText.line(notification.kind.rawValue))\(post.map { " " + $0 } ?? "")"
        }
    }

    /// A person as the timeline names them: the display name, else the handle.
    private static func name(_ user: User) -> String {
        let name = TerminalText.line(user.name)
        return name.isEmpty ? "@" + TerminalText.line(user.handle) : name
    }

    /// The post in quotes, cut to `excerptWidth` columns; its content warning instead of its
    /// text when it has one; `nil` for a notification without a post, `(a deleted post)` for
    /// one whose post is no longer stored.
    private func excerpt(_ notification: TimelineNotification) -> String? {
        guard let message = notification.message else {
            return notification.messageID == nil ? nil : "(a deleted post)"
        }
        // A direct message says so before its words (issue 34): a mention in private.
        let audience = message.visibility == .direct ? symbols.direct + " " : ""
        if let warning = message.warning ?? message.contentWarning {
            let label = message.warning == nil ? "CW: " : ""
            return audience + "\"" + label + cut(TerminalText.line(warning), to: excerptWidth - 4) + "\""
        }
        let text = TerminalText.line(message.text)
        if text.isEmpty {
            return audience + (message.attachments.isEmpty ? "(a post without text)" : "(\(TimelineRenderer.attachmentSummary(message.attachments)))")
        }
        return audience + "\"" + cut(text, to: excerptWidth) + "\""
    }

    /// `text` cut to `width` columns, ending with `…` when it was longer.
    private func cut(_ text: String, to width: Int) -> String {
        guard DisplayWidth.of(text) > width else { return text }
        var result = ""
        var used = 0
        for character in text {
            let columns = DisplayWidth.of(character: character)
            if used + columns > max(0, width - 1) { break }
            result.append(character)
            used += columns
        }
        return result + "…"
    }
}
