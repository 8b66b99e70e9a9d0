/// Which network a stored message came from, told by its ID alone (no column, nothing more to
/// read at launch): Bluesky posts are stored under their AT URIs (`at://did:…/…`), statuses
/// synced from a Mastodon-API server under `authority/id` (`MastodonNamespace`), where the
/// authority is a host name with a dot or a port, or a bracketed IPv6 address.
/// Anything else (JSON Lines imports, local posts, Mastodon files imported without an account)
/// is `other`.
enum MessageOrigin: Equatable {
    case bluesky
    case mastodon
    case other

    /// Whether `id` is a Bluesky post's: the one test `show` makes of every ID of a page, so it
    /// reads five bytes and no more.
    static func isBluesky(_ id: String) -> Bool {
        id.utf8.starts(with: "at://".utf8)
    }

    init(id: String) {
        if Self.isBluesky(id) {
            self = .bluesky
            return
        }
        guard let slash = id.utf8.firstIndex(of: UInt8(ascii: "/")), slash != id.utf8.startIndex else {
            self = .other
            return
        }
        let authority = id.utf8[..<slash]
        let isHost = authority.allSatisfy { byte in
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2E || byte == 0x3A
                || byte == 0x5B || byte == 0x5D
        }
        let hasDotOrPort = authority.contains(0x2E) || authority.contains(0x3A)
        self = isHost && hasDotOrPort ? .mastodon : .other
    }
}
