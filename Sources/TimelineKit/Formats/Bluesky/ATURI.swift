/// The parts of an AT Protocol URI, `at://AUTHORITY/COLLECTION/RKEY`
/// (`at://did:plc:abc/app.bsky.feed.post/3kxyz`): the repository (a DID, or a handle in URIs
/// people write), the record's collection and its key.
///
/// Bluesky messages and users are stored under the network's own global IDs: a post's or a
/// repost's AT URI, a user's DID. Those never collide with a Mastodon server's `authority/id`
/// (no `at://`, no `did:` there) nor with IDs of imported files, and a post seen by two
/// accounts is one message.
struct ATURI: Hashable, Sendable {
    /// The repository: a DID (`did:plc:…`, `did:web:…`) or a handle.
    var authority: String
    /// The record's collection (`app.bsky.feed.post`), `nil` for a URI of a whole repository.
    var collection: String?
    /// The record's key, `nil` for a URI of a repository or a collection.
    var recordKey: String?

    /// Reads `text`; `nil` when it is not an `at://` URI with an authority.
    init?(_ text: String) {
        guard text.hasPrefix("at://") else { return nil }
        let parts = text.dropFirst(5).split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        guard let authority = parts.first, !authority.isEmpty else { return nil }
        self.authority = String(authority)
        collection = parts.count > 1 && !parts[1].isEmpty ? String(parts[1]) : nil
        recordKey = parts.count > 2 && !parts[2].isEmpty ? String(parts[2]) : nil
    }

    /// The author's DID, when the authority is one.
    var did: String? { authority.hasPrefix("did:") ? authority : nil }
}
