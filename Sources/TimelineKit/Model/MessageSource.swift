#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// Where a message came from: a registered name (`mastodon`, `bluesky`, `feed`, `import`, or an
/// embedder's own), stored with the message and in the snapshot (issue 35). Rendering asks the
/// source for its mark (`🐘`, `🦋`) and label; nothing reads the shape of a message's ID.
///
/// A tool that stores messages of its own kind names them with a source of its own, and may
/// give it a mark to paint beside them:
///
/// ```swift
/// let source = try MessageSource("weather")
/// MessageSource.register(source, mark: "☁", asciiMark: "[weather]", label: "Weather")
/// let message = Message(id: "weather/2026-11-29", authorID: "station", text: "Rain at noon",
///                       createdAt: Date(), source: source)
/// ```
///
/// A name is 1 to 32 lowercase ASCII letters, digits and `-`, starting with a letter: it is
/// stored in every row and written by `show --json`, and a person may type it.
public struct MessageSource: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The name, as stored.
    public let rawValue: String

    /// A source named `rawValue`.
    ///
    /// - Throws: ``MessageSourceError/invalidName(_:)`` when the name is not 1 to 32 lowercase
    ///   ASCII letters, digits and `-` starting with a letter. Choose such a name.
    public init(_ rawValue: String) throws(MessageSourceError) {
        guard Self.isValidName(rawValue) else { throw .invalidName(rawValue) }
        self.rawValue = rawValue
    }

    /// A name known to be valid (the built-in ones, and names read back from a store: a store
    /// keeps what it was given).
    init(unchecked rawValue: String) {
        self.rawValue = rawValue
    }

    /// Whether `name` can name a source.
    public static func isValidName(_ name: String) -> Bool {
        let bytes = name.utf8
        guard let first = bytes.first, bytes.count <= 32, first >= 0x61, first <= 0x7A else { return false }
        return bytes.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
    }

    /// A Mastodon-API server's statuses (Mastodon, GoToSocial, Akkoma, Takahē, …).
    public static let mastodon = MessageSource(unchecked: "mastodon")
    /// Bluesky (AT Protocol) posts.
    public static let bluesky = MessageSource(unchecked: "bluesky")
    /// Items of RSS, Atom and JSON Feed subscriptions.
    public static let feed = MessageSource(unchecked: "feed")
    /// Messages of a JSON Lines file, or of any file or program that names no source: the default.
    public static let `import` = MessageSource(unchecked: "import")

    /// The name.
    public var description: String { rawValue }

    /// Written as its name, read from one (a name that is not valid fails the decoding).
    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(name)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension MessageSource {
    /// How messages of a source are painted beside their age: a mark (`🐘`) and its ASCII form
    /// (`[mastodon]`) where the timeline shows messages of more than one source, and a label
    /// (`Mastodon`) where a sentence names it.
    public struct Presentation: Sendable, Hashable {
        public var mark: String
        public var asciiMark: String
        public var label: String

        public init(mark: String, asciiMark: String, label: String) {
            self.mark = mark
            self.asciiMark = asciiMark
            self.label = label
        }
    }

    /// Gives `source` its mark and label, in this process (painting reads them; nothing is
    /// stored). Registering a source again replaces what it had. A source never registered is
    /// painted without a mark and labelled by its name.
    public static func register(_ source: MessageSource, mark: String, asciiMark: String, label: String) {
        presentations.withLock { $0[source] = Presentation(mark: mark, asciiMark: asciiMark, label: label) }
    }

    /// The mark and label of this source, if it has them.
    public var presentation: Presentation? {
        switch self {
        // The built-in ones without a lock: `show` asks for each message it paints.
        case .mastodon: Presentation(mark: "🐘", asciiMark: "[mastodon]", label: "Mastodon")
        case .bluesky: Presentation(mark: "🦋", asciiMark: "[bluesky]", label: "Bluesky")
        case .feed: Presentation(mark: "📰", asciiMark: "[feed]", label: "Feed")
        case .import: nil
        default: Self.presentations.withLock { $0[self] }
        }
    }

    /// What a source's name is painted as in a sentence: its label, else its name.
    public var label: String { presentation?.label ?? rawValue }

    private static let presentations = Mutex<[MessageSource: Presentation]>([:])

    /// The source of a message stored before sources were (migration 17, issue 35), told by its
    /// ID as before: Bluesky posts are stored under their AT URIs (`at://did:…/…`), statuses
    /// synced from a Mastodon-API server under `authority/id` (`MastodonNamespace`), where the
    /// authority is a host name with a dot or a port, or a bracketed IPv6 address; anything else
    /// was imported.
    static func toldByID(_ id: String) -> MessageSource {
        if id.utf8.starts(with: "at://".utf8) { return .bluesky }
        guard let slash = id.utf8.firstIndex(of: UInt8(ascii: "/")), slash != id.utf8.startIndex else { return .import }
        let authority = id.utf8[..<slash]
        let isHost = authority.allSatisfy { byte in
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2E || byte == 0x3A
                || byte == 0x5B || byte == 0x5D
        }
        let hasDotOrPort = authority.contains(0x2E) || authority.contains(0x3A)
        return isHost && hasDotOrPort ? .mastodon : .import
    }
}

/// Why a name cannot name a ``MessageSource``.
public enum MessageSourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name is not 1 to 32 lowercase ASCII letters, digits and `-`, starting with a letter.
    case invalidName(String)

    public var description: String {
        switch self {
        case let .invalidName(name):
            // `String(reflecting:)` quotes it with its control characters escaped: the name is untrusted.
            "\(String(reflecting: name)) cannot name a message source: use 1 to 32 lowercase ASCII letters, digits and '-', starting with a letter (for example 'weather')."
        }
    }
}
