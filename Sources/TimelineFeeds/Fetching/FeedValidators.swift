/// What a server said identifies the version of a feed it sent (RFC 9110 §8.8), kept exactly as
/// received, a weak `W/"…"` ETag included, and sent back on the next fetch so that an unchanged
/// feed costs a 304 and no parse.
public struct FeedValidators: Sendable, Hashable, Codable {
    /// The `ETag` header's value, as received.
    public var etag: String?
    /// The `Last-Modified` header's value, as received (an HTTP date, sent back unparsed).
    public var lastModified: String?

    /// Validators as a server sent them.
    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// Whether there is nothing to send back.
    public var isEmpty: Bool { etag == nil && lastModified == nil }
}
