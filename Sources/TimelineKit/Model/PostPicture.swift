/// A picture a ``PostDraft`` carries (`post --image FILE --alt TEXT`): the file to send, its alt
/// text, and, once sent to the server, what the server called it.
///
/// A draft in the outbox names a copy of the person's file kept beside the database
/// (`TimelineStore/keepOutboxPictures(of:key:)`), so that the post is sent as it was asked
/// for even when the person has deleted or changed theirs since.
public struct PostPicture: Sendable, Hashable {
    /// The file: a path as the person gave it, or the outbox's copy.
    public var file: String
    /// The file as the person named it, for messages (a refusal names this, not the copy).
    public var name: String
    /// The alt text, sent byte for byte; `nil` sends none (`--no-alt`: no `description` on
    /// Mastodon, `alt: ""` on Bluesky, whose lexicon requires the field).
    public var alt: String?
    /// Whether a JPEG's EXIF location goes with it (`--keep-exif`); it is taken out otherwise.
    public var keepsLocation: Bool
    /// What the server made of it once uploaded, written by the network that sent it (a
    /// Mastodon media ID; a Bluesky blob) and kept in the outbox entry, so that a post
    /// interrupted between its uploads and its publication uploads each picture once.
    public var uploaded: String?

    public init(file: String, alt: String?, keepsLocation: Bool = false, uploaded: String? = nil, name: String? = nil) {
        self.file = file
        self.name = name ?? file
        self.alt = alt
        self.keepsLocation = keepsLocation
        self.uploaded = uploaded
    }
}
