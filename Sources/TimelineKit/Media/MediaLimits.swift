/// What a server takes as a picture, checked before anything is sent so that a refusal names
/// the file and says what to do, instead of a server's error after half a post went out.
///
/// Mastodon says its own (`GET /api/v2/instance`, `configuration.media_attachments`:
/// `supported_mime_types`, `image_size_limit`, `image_matrix_limit`); Bluesky's are the
/// lexicon's (``bluesky``).
public struct MediaLimits: Sendable, Hashable {
    /// The server's name in refusals (`mastodon.social`, `Bluesky`).
    public var server: String
    /// The MIME types it takes; `nil` when it does not say (then every ``PictureFormat`` is tried).
    public var mimeTypes: Set<String>?
    /// The most bytes a picture may be; `nil` when it does not say.
    public var imageSizeLimit: Int?
    /// The most pixels (width × height) a picture may have; `nil` when it does not say.
    public var imageMatrixLimit: Int?
    /// The most pictures a post holds: 4 on both networks.
    public var picturesPerPost: Int

    /// The most pictures a post of either network holds (Mastodon's `max_media_attachments`
    /// default, `app.bsky.embed.images`'s `maxLength`).
    public static let picturesPerPostLimit = 4

    public init(server: String, mimeTypes: Set<String>? = nil, imageSizeLimit: Int? = nil, imageMatrixLimit: Int? = nil,
                picturesPerPost: Int = MediaLimits.picturesPerPostLimit) {
        self.server = server
        self.mimeTypes = mimeTypes
        self.imageSizeLimit = imageSizeLimit
        self.imageMatrixLimit = imageMatrixLimit
        self.picturesPerPost = picturesPerPost
    }

    /// Bluesky's: `app.bsky.embed.images` takes `image/*` blobs of at most 1,000,000 bytes
    /// (the lexicon's `maxSize`), 4 to a post.
    public static let bluesky = MediaLimits(server: "Bluesky", mimeTypes: Set(PictureFormat.allCases.map(\.mimeType)),
                                            imageSizeLimit: 1_000_000)

    /// The first refusal of `pictures` (too many, then each picture in order), `nil` when all pass.
    public func refusal(of pictures: [Picture]) -> PictureError? {
        if pictures.count > picturesPerPost { return .tooMany(count: pictures.count, limit: picturesPerPost) }
        for picture in pictures {
            if let mimeTypes, !mimeTypes.contains(picture.format.mimeType) {
                return .typeRefused(file: picture.file, mimeType: picture.format.mimeType, server: server,
                                    accepted: mimeTypes.filter { $0.hasPrefix("image/") }.sorted())
            }
            if let imageSizeLimit, picture.bytes.count > imageSizeLimit {
                return .tooLarge(file: picture.file, bytes: picture.bytes.count, limit: imageSizeLimit, server: server)
            }
            let (pixels, overflow) = picture.width.multipliedReportingOverflow(by: picture.height)
            if let imageMatrixLimit, overflow || pixels > imageMatrixLimit {
                return .tooManyPixels(file: picture.file, width: picture.width, height: picture.height,
                                      limit: imageMatrixLimit, server: server)
            }
        }
        return nil
    }
}
