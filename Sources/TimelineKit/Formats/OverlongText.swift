/// What is done with a text longer than timeline keeps (``JSONLinesImporter/maximumTextBytes``):
/// a file being imported is refused with an error naming the place, so nothing is half-imported;
/// a server's answer is cut, so one post — which any account the person follows can write —
/// never stops a sync of the other posts, the notifications and the read marker (issue 24).
///
/// A cut text keeps whole characters up to the limit, mark included, and ends with
/// ``cutMark(originalBytes:)``, so a reader sees that something is missing and how much, and
/// the post's link leads to all of it.
public enum OverlongText: Sendable, Hashable {
    /// A longer text is an error (import).
    case refuse
    /// A longer text is cut with a mark (sync, the event stream).
    case cut

    /// The text kept of a `text` of `bytes` UTF-8 bytes: what ends a cut text.
    public static func cutMark(originalBytes bytes: Int) -> String {
        "… [cut by timeline: the post has \(bytes) bytes; the first \(MessageText.maximumBytes) are kept]"
    }

    /// `text` itself when it has at most `limit` UTF-8 bytes; otherwise its first whole
    /// characters and the mark, `limit` bytes at most in all.
    public static func cut(_ text: String, limit: Int) -> String {
        let length = text.utf8.count
        guard length > limit else { return text }
        let mark = cutMark(originalBytes: length)
        let room = max(0, limit - mark.utf8.count)
        var kept = 0
        var end = text.startIndex
        for index in text.indices {
            let size = text[index].utf8.count
            if kept + size > room { break }
            kept += size
            end = text.index(after: index)
        }
        return String(text[..<end]) + mark
    }

    /// `text` within `limit` bytes as this policy says: cut, or refused with the failure
    /// `refusal` describes.
    func apply(_ text: String, limit: Int, refusal: () throws(JSONLineFailure) -> String) throws(JSONLineFailure) -> String {
        switch self {
        case .refuse: try refusal()
        case .cut: Self.cut(text, limit: limit)
        }
    }
}
