/// A media attachment of a message. A terminal shows how many there are and whether each one
/// has a description (alt text) for people who cannot see it.
public struct Attachment: Sendable, Codable, Hashable {
    /// What the attachment is: `image`, `video`, `gifv`, `audio` or `unknown`, as Mastodon names them.
    public var kind: String
    /// Where the media lives, when known.
    public var url: String?
    /// The description (alt text), or `nil` when the author gave none.
    public var altText: String?

    enum CodingKeys: String, CodingKey {
        case kind, url
        case altText = "alt_text"
    }

    public init(kind: String, url: String? = nil, altText: String? = nil) {
        self.kind = kind
        self.url = url
        self.altText = altText
    }
}
