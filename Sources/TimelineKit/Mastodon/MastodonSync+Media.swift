extension MastodonSync {
    /// How many times a picture still being processed is looked at before the post gives up:
    /// with ``mediaProcessingInterval``, half a minute; a server whose processing takes longer
    /// leaves the post unsent, to be sent again (a new upload) by the next sync.
    public static let mediaProcessingChecks = 30
    /// The wait between two looks at a picture being processed.
    public static let mediaProcessingInterval: Duration = .seconds(1)
    /// How long one upload may take: 16 MB at 256 KB/s with room to spare.
    static let mediaUploadTimeout: Duration = .seconds(120)
    /// The most MIME types read from the server's list: Mastodon names about 40.
    static let mimeTypesLimit = 200

    /// What the server takes as a picture (`GET /api/v2/instance`,
    /// `configuration.media_attachments`: `supported_mime_types`, `image_size_limit`,
    /// `image_matrix_limit`); limits it does not say are `nil`, and a server without v2 of
    /// the instance (404, 410) says none.
    public func mediaLimits() async throws(ServerError) -> MediaLimits {
        let url = client.server.url("/api/v2/instance")
        var limits = MediaLimits(server: client.server.authority)
        guard let response = try await getUnlessGone(url) else { return limits }
        try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) in
            let instance = try JSONObjectView(document, path: "", expected: "an instance object")
            guard let media = try instance.object("configuration", expected: "an object")?
                .object("media_attachments", expected: "an object of media limits") else { return }
            if let types = try media.array("supported_mime_types", expected: "an array of MIME types") {
                limits.mimeTypes = Set(types.prefix(Self.mimeTypesLimit).compactMap(\.stringValue))
            }
            if media.field("image_size_limit")?.nonNull != nil { limits.imageSizeLimit = try media.count("image_size_limit") }
            if media.field("image_matrix_limit")?.nonNull != nil { limits.imageMatrixLimit = try media.count("image_matrix_limit") }
        }
        return limits
    }

    /// Uploads `picture` with its alt text (`POST /api/v2/media`, a multipart form of `file`
    /// and `description`; no description when `alt` is `nil`) and waits until the server has
    /// processed it: a `202` answer's picture has no `url` yet, and `GET /api/v1/media/:id`
    /// answers `206` until it has (at most ``mediaProcessingChecks`` looks). Returns the
    /// attachment's ID, for a status's `media_ids`.
    ///
    /// - Throws: `.rejected` with the server's reason (a type or size it refuses: 422; a 500
    ///   that outlasted the retries),
    ///   `.timelineBeingRebuilt` when the picture is still processed after the last look, or
    ///   any other `ServerError`.
    public func uploadMedia(_ picture: Picture, alt: String?) async throws(ServerError) -> String {
        var form = MultipartForm()
        form.addFile("file", fileName: "image." + picture.format.rawValue, contentType: picture.format.mimeType, bytes: picture.bytes)
        if let alt { form.addText("description", alt) }
        let (body, contentType) = form.encoded()
        let url = client.server.url("/api/v2/media")
        let response: HTTPResponse
        do {
            response = try await client.send(.post, url, body: body, contentType: contentType, timeout: Self.mediaUploadTimeout)
        } catch {
            // A 500 that outlasts the retries is the server failing on this upload, not a
            // server away (502, 503, 504 are): Takahē 0.11 answers every upload so ("Absolute
            // URL … is not absolute"). Refused, so the outbox does not upload it at every sync;
            // the sentence says that the post is not made, and what can be done instead.
            if case let .serverFailed(_, 500, attempts) = error {
                let tries = attempts > 1 ? " on each of \(attempts) tries" : ""
                throw .rejected(url: url, status: 500, reason: "the server failed on the upload\(tries), as a server does on every picture when it cannot store them (Takahē 0.11 does). Nothing was posted: post it without --image, or once the server's administrator has made its media storage work")
            }
            throw error
        }
        var (id, ready) = try Self.attachment(in: response, from: url)
        guard !ready else { return id }
        let check = client.server.url("/api/v1/media/" + FormEncoding.escape(id))
        for look in 1 ... Self.mediaProcessingChecks {
            do {
                try await client.clock.sleep(Self.mediaProcessingInterval)
            } catch {
                throw .cancelled
            }
            do {
                (id, ready) = try Self.attachment(in: try await client.send(.get, check), from: check)
                if ready { return id }
            } catch {
                // 206 answered as often as the requester retries: still processing.
                guard case .timelineBeingRebuilt = error, look < Self.mediaProcessingChecks else { throw error }
            }
        }
        throw .timelineBeingRebuilt(url: check, attempts: Self.mediaProcessingChecks)
    }

    /// A media attachment's ID, and whether it is processed (its `url` set).
    private static func attachment(in response: HTTPResponse, from url: String) throws(ServerError) -> (id: String, ready: Bool) {
        if response.status == 206 { throw .timelineBeingRebuilt(url: url, attempts: 1) }
        return try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) in
            let attachment = try JSONObjectView(document, path: "", expected: "a media attachment object")
            return (try attachment.requiredID("id"), try attachment.string("url") != nil)
        }
    }
}
