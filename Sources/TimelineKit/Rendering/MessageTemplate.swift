#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A line of text per message, from a template such as `{handle}: {text}`, for scripts that
/// pass messages on (`notify-send`, a status bar, `grep`): `show --format`, `search --format`.
///
/// Every value is untrusted text and goes in neutralised as one line (`TerminalText.line`):
/// control and escape sequences become inert symbols, line breaks and tabs become spaces, so a
/// message can neither reach a terminal or a desktop notification with its escapes intact nor
/// break the one-line-per-message contract. The template itself is the user's and goes out as
/// written; `{{` and `}}` stand for braces.
///
/// Fields (`MessageTemplate.fields`): `id` (the entry's ID, what `mark-read`, `delete`,
/// `thread` and `post --reply-to` take), `handle`, `name`, `text`, `cw` (the content warning),
/// `created_at` (RFC 3339, UTC), `url`, `read` (`true` or `false`), `reposted_by` (the handle of
/// who reposted it, else empty), `ref` (the short reference `show` paints, which every command
/// that takes a message takes too; empty outside a store), `favourited`, `boosted`, `bookmarked`
/// (`true` when one of the accounts did it, as its server last said or an action here set it)
/// and `pending` (`true` while an action on it waits for its server). A repost shows what the timeline shows: the original's author,
/// text, warning, URL and time, with `reposted_by` set and `id` the repost's own.
public struct MessageTemplate: Sendable, Hashable {
    private enum Part: Sendable, Hashable {
        case literal(String)
        case field(Field)
    }

    /// The fields a template can name.
    public enum Field: String, Sendable, CaseIterable {
        case id, handle, name, text, cw
        case createdAt = "created_at"
        case url, read
        case repostedBy = "reposted_by"
        case ref
        case favourited, boosted, bookmarked, pending
    }

    /// Why a template was refused, naming the place.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        public let description: String
    }

    /// The field names, in the order the documentation lists them.
    public static var fields: [String] { Field.allCases.map(\.rawValue) }

    private let parts: [Part]

    /// Parses `template`.
    ///
    /// - Throws: `ParseError` for an unknown field (naming the known ones), a `{` that is never
    ///   closed, or a lone `}`.
    public init(_ template: String) throws(ParseError) {
        var parts: [Part] = []
        var literal = ""
        var rest = template[...]
        while let character = rest.first {
            rest = rest.dropFirst()
            switch character {
            case "{" where rest.first == "{":
                rest = rest.dropFirst()
                literal.append("{")
            case "}" where rest.first == "}":
                rest = rest.dropFirst()
                literal.append("}")
            case "{":
                guard let close = rest.firstIndex(of: "}") else {
                    throw ParseError(description: "a '{' is not closed; write {{ for a brace itself")
                }
                let name = String(rest[..<close])
                guard let field = Field(rawValue: name) else {
                    throw ParseError(description: "no field is called {\(TerminalText.line(name))}; the fields are "
                                     + Self.fields.map { "{\($0)}" }.joined(separator: " "))
                }
                if !literal.isEmpty { parts.append(.literal(literal)) }
                literal = ""
                parts.append(.field(field))
                rest = rest[rest.index(after: close)...]
            case "}":
                throw ParseError(description: "a '}' closes nothing; write }} for a brace itself")
            default:
                literal.append(character)
            }
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        self.parts = parts
    }

    /// The line for `message` of `page` (which holds what it reposts and its authors), without
    /// its line feed.
    public func line(for message: Message, in page: TimelinePage) -> String {
        line(for: message, users: page.usersByID, messages: page.messagesByID, interactions: page.interactionsByID)
    }

    private func line(for message: Message, users: [String: User], messages: [String: Message],
                      interactions: [String: MessageInteraction]) -> String {
        let interaction = TimelinePage.interaction(shownWith: message, in: interactions)
        var shown = message
        var repostedBy = ""
        if let originalID = message.repostOfID {
            repostedBy = users[message.authorID]?.handle ?? ""
            if let original = messages[originalID] { shown = original }
        }
        let author = users[shown.authorID]
        var line = ""
        for part in parts {
            switch part {
            case let .literal(text):
                line += text
            case let .field(field):
                let value: String = switch field {
                case .id: message.id
                case .handle: author?.handle ?? ""
                case .name: author?.name ?? ""
                case .text: shown.text
                case .cw: shown.contentWarning ?? ""
                case .createdAt: shown.createdAt.formatted(.iso8601)
                case .url: shown.url ?? ""
                case .read: message.isRead ? "true" : "false"
                case .repostedBy: repostedBy
                case .ref: shown.shortReference.text
                case .favourited: interaction?.favourited == true ? "true" : "false"
                case .boosted: interaction?.boosted == true ? "true" : "false"
                case .bookmarked: interaction?.bookmarked == true ? "true" : "false"
                case .pending: interaction?.pending == true ? "true" : "false"
                }
                line += TerminalText.line(value)
            }
        }
        return line
    }

    /// One line per message of `page`, each ending in a line feed.
    public func text(for page: TimelinePage) -> String {
        let users = page.usersByID, messages = page.messagesByID, interactions = page.interactionsByID
        var text = ""
        for message in page.messages {
            text += line(for: message, users: users, messages: messages, interactions: interactions)
            text += "\n"
        }
        return text
    }
}
