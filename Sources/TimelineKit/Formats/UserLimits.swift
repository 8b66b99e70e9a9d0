/// How long a display name and a handle may be once imported: longer ones are cut, ending in `…`.
///
/// Names and handles come from strangers' servers and are drawn in every header: a name of
/// 50,000 flags, or a handle of a megabyte, would cost every `show` that draws it and can never
/// be read whole anyway. Real ones are far shorter: Mastodon allows 30 characters of display
/// name, Twitter 50, Bluesky 64; a Mastodon handle is a username of at most 30 characters, `@`
/// and a domain name of at most 253 bytes.
///
/// - A **name** keeps at most `maximumNameCharacters` (100) characters (grapheme clusters, what
///   a reader counts: `🇯🇵` and `é` are one each) and `maximumNameBytes` (1,000) bytes of UTF-8,
///   room for 100 of the longest emoji a name holds in practice. A longer one is cut to the
///   whole characters that fit with a final `…` (the `…` included in both limits), as every
///   interface shows a name too long for its place; a first character longer than the limit on
///   its own keeps the scalars that fit.
/// - A **handle** keeps at most `maximumHandleBytes` (300) bytes of UTF-8: every real handle
///   fits (30 + 1 + 253 = 284). A longer one is cut the same way, rather than refusing the whole
///   import for one impossible account; the user keeps their ID, which is what messages refer to.
///
/// Applied where users are decoded: the JSON Lines parser, and `DecodedTimeline.add(_:)`, which
/// the Mastodon and Twitter decoders go through. Cutting twice changes nothing, so importing the
/// same file again leaves the stored user as it is.
public enum UserLimits {
    /// The most characters (grapheme clusters) a display name keeps, its `…` included.
    public static let maximumNameCharacters = 100
    /// The most bytes of UTF-8 a display name keeps, its `…` included.
    public static let maximumNameBytes = 1_000
    /// The most bytes of UTF-8 a handle keeps, its `…` included.
    public static let maximumHandleBytes = 300

    /// `user` with its name and handle held to the limits.
    public static func applied(to user: User) -> User {
        var bounded = user
        bounded.name = cut(user.name, characters: maximumNameCharacters, bytes: maximumNameBytes)
        bounded.handle = cut(user.handle, characters: maximumHandleBytes, bytes: maximumHandleBytes)
        return bounded
    }

    private static let ellipsis: Character = "…"

    /// `text` when it has at most `characters` characters and `bytes` bytes, else the longest
    /// start of it that leaves room for `…` within both, and `…`. Time is linear in the length
    /// of `text`, and past the limits no more than one character is looked at.
    static func cut(_ text: String, characters: Int, bytes: Int) -> String {
        // No character is shorter than a byte, so a text within `characters` bytes is within both.
        if text.utf8.count <= min(characters, bytes) { return text }
        let room = (characters: characters - 1, bytes: bytes - ellipsis.utf8.count)
        var end = text.startIndex
        var kept = 0
        var count = 0
        var index = text.startIndex
        // Walking the string itself by subscript steps over each character once.
        while index < text.endIndex {
            let character = text[index]
            let next = text.utf8.index(index, offsetBy: character.utf8.count)
            let offset = text.utf8.distance(from: text.startIndex, to: next)
            count += 1
            if count > characters || offset > bytes { break }
            if count <= room.characters && offset <= room.bytes {
                end = next
                kept = count
            }
            index = next
        }
        if index == text.endIndex { return text }
        if kept == 0 {
            // Not one character fits (marks piled on one letter): keep the scalars of the first
            // that fit, rather than nothing. Byte `room.bytes` exists: that character ends after it.
            end = lastScalarBoundary(in: text, atOrBefore: room.bytes)
        }
        return String(text[..<end]) + String(ellipsis)
    }

    /// The start of the scalar that holds byte `offset`, or `offset` when a scalar starts there.
    private static func lastScalarBoundary(in text: String, atOrBefore offset: Int) -> String.Index {
        var index = text.utf8.index(text.utf8.startIndex, offsetBy: offset)
        // In bounds: `offset` is less than the text's length, and a UTF-8 continuation byte
        // (10xxxxxx) always follows a lead byte, so stepping back stops at one.
        while text.utf8[index] & 0xC0 == 0x80 { index = text.utf8.index(before: index) }
        return index
    }
}
