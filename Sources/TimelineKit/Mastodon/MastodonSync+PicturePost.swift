extension MastodonSync {
    /// The media IDs of a draft's pictures, in their order: each one not uploaded yet is read,
    /// checked against the server's limits (all of them before the first upload, so a refused
    /// picture leaves nothing uploaded) and uploaded with its alt text; `recording` receives
    /// each new ID at once (the outbox keeps it, so a post interrupted before its publication
    /// does not upload it again).
    ///
    /// - Throws: ``PictureError`` naming a file the server would not take, before any upload;
    ///   the upload's `ServerError`; what `recording` throws.
    func mediaIDs(for pictures: [PostPicture], recording: (Int, String) throws -> Void = { _, _ in }) async throws -> [String] {
        guard !pictures.isEmpty else { return [] }
        var read: [Int: Picture] = [:]
        for (index, picture) in pictures.enumerated() where picture.uploaded == nil {
            read[index] = try Picture(file: picture.file, named: picture.name, keepingLocation: picture.keepsLocation)
        }
        if pictures.count > MediaLimits.picturesPerPostLimit {
            throw PictureError.tooMany(count: pictures.count, limit: MediaLimits.picturesPerPostLimit)
        }
        if !read.isEmpty, let refusal = try await mediaLimits().refusal(of: read.keys.sorted().compactMap { read[$0] }) {
            throw refusal
        }
        var ids: [String] = []
        for (index, picture) in pictures.enumerated() {
            if let uploaded = picture.uploaded {
                ids.append(uploaded)
            } else if let bytes = read[index] {
                let id = try await uploadMedia(bytes, alt: picture.alt)
                try recording(index, id)
                ids.append(id)
            }
        }
        return ids
    }
}
