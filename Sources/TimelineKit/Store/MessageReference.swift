/// What a person may type to name a stored message, told apart by its shape:
///
/// | form | example | names |
/// |---|---|---|
/// | the stored ID | `mastodon.social/112020325662720152`, `at://did:plc:…/app.bsky.feed.post/3kq…` | that message |
/// | a short reference, as `show` paints it | `bkd` (see ``ShortReference``) | the message stored with that sequence number |
/// | the server's own ID | `112020325662720152` (Mastodon, as its web page and toot show it), `3kq…` (a Bluesky record key) | the stored message whose ID ends with it |
/// | a Mastodon post's web address | `https://mastodon.social/@alice/112020325662720152` | the message with that URL, or `mastodon.social/ID` |
/// | a Bluesky post's web address | `https://bsky.app/profile/alice.bsky.social/post/3kq…` | that author's post with that record key |
/// | an AT URI with a handle | `at://alice.bsky.social/app.bsky.feed.post/3kq…` | the same, the handle read from the stored users |
///
/// Messages are looked up among those stored: a reference never reaches a server.
enum MessageReference: Equatable {
    /// Only the exact stored ID (a namespaced ID, or a DID's AT URI).
    case storedID(String)
    /// A server's own ID or record key (the last part of a stored ID), or a short reference.
    case serverID(String)
    /// A post's web address: the message whose URL it is, else the ID it ends with on `host`.
    case mastodonURL(url: String, host: String, id: String)
    /// A Bluesky post by handle (or DID) and record key.
    case blueskyPost(author: String, recordKey: String)

    /// The forms `text` may take, from its shape alone.
    init(_ text: String) {
        let lowered = text.lowercased()
        if lowered.hasPrefix("at://") {
            let parts = text.dropFirst(5).split(separator: "/", omittingEmptySubsequences: false)
            if parts.count == 3, !parts[0].hasPrefix("did:"), parts[1] == "app.bsky.feed.post", !parts[2].isEmpty {
                self = .blueskyPost(author: String(parts[0]), recordKey: String(parts[2]))
            } else {
                self = .storedID(text)
            }
            return
        }
        if lowered.hasPrefix("https://") || lowered.hasPrefix("http://") {
            let rest = text.drop { $0 != "/" }.dropFirst(2)
            var parts = rest.split(separator: "?", maxSplits: 1).first?.split(separator: "#", maxSplits: 1).first?
                .split(separator: "/", omittingEmptySubsequences: true) ?? []
            guard let host = parts.first else {
                self = .storedID(text)
                return
            }
            parts.removeFirst()
            if host.lowercased() == "bsky.app", parts.count == 4, parts[0] == "profile", parts[2] == "post" {
                self = .blueskyPost(author: String(parts[1]), recordKey: String(parts[3]))
            } else if let last = parts.last, parts.count >= 2 {
                self = .mastodonURL(url: text, host: host.lowercased(), id: String(last))
            } else {
                self = .storedID(text)
            }
            return
        }
        self = text.contains("/") || text.isEmpty ? .storedID(text) : .serverID(text)
    }
}
