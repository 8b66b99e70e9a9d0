/// The one limit on message text of every import and sync, and the check that holds a text to
/// it. Here, below the formats, because each of them (JSON Lines, Mastodon, Twitter, Bluesky)
/// holds its texts to it, and a text cut to fit (`OverlongText`) names it.
enum MessageText {
    /// `text` longer than this many bytes of UTF-8 is refused: far beyond any service's limit
    /// (Mastodon allows 500 characters by default, a few thousand on some servers), while keeping
    /// a screenful of timeline cheap to hold and render.
    static let maximumBytes = 100_000

    /// `text` when it is no longer than `limit` bytes of UTF-8: the one limit on message text of
    /// every import (HTML content is held to its own before it is converted).
    static func checked(
        _ text: String, offset: Int?, field: @autoclosure () -> String, limit: Int = maximumBytes
    ) throws(JSONLineFailure) -> String {
        let length = text.utf8.count
        guard length <= limit else {
            throw JSONLineFailure(offset: offset, field: field(), problem: .textTooLong(bytes: length, limit: limit))
        }
        return text
    }
}

extension JSONObjectView {
    /// Message text made from the field `key`, held to the one limit of every import (or to
    /// `limit`: HTML content is held to its own before it is converted).
    func checkedText(_ text: String, key: String, limit: Int = MessageText.maximumBytes) throws(JSONLineFailure) -> String {
        try MessageText.checked(text, offset: field(key)?.offset ?? node.offset, field: path(key), limit: limit)
    }
}
