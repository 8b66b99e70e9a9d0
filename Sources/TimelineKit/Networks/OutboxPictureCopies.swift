/// Copies of a post's pictures for the outbox (issue 36, "Offline"): written before the post
/// is queued, beside the database (``TimelineStore/outboxPicturesDirectory``), so that the
/// post is sent as it was asked for whatever happens to the person's files meanwhile. The copy
/// holds the bytes that will be sent (a JPEG's location already taken out unless kept), so it
/// never holds what was not to leave the machine. Deleted when the entry leaves the outbox.
enum OutboxPictureCopies {
    /// `draft` with each picture read (refused naming the file, as ``Picture`` refuses) and
    /// copied to `KEY-N.EXT` in `directory` (made private, 0700, files 0600), its `file` the
    /// copy's path. Nothing is left behind when one fails.
    static func keep(_ draft: PostDraft, key: String, in directory: String) throws -> PostDraft {
        guard !draft.pictures.isEmpty else { return draft }
        if draft.pictures.count > MediaLimits.picturesPerPostLimit {
            throw PictureError.tooMany(count: draft.pictures.count, limit: MediaLimits.picturesPerPostLimit)
        }
        let pictures = try draft.pictures.map { picture throws(PictureError) in
            (picture, try Picture(file: picture.file, named: picture.name, keepingLocation: picture.keepsLocation))
        }
        _ = try FileSystem.createDirectories(directory, permissions: 0o700)
        // The key is ours (``PendingAction/newKey(at:)``) or a script's --idempotency-key:
        // only its letters, digits and dashes go into a file name.
        let stem = String(key.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0" ... "9").contains($0) || $0 == "-") }.prefix(80))
        var kept = draft
        var written: [String] = []
        do {
            for (index, (picture, read)) in pictures.enumerated() {
                let copy = "\(directory)/\(stem)-\(index).\(read.format.rawValue)"
                try? FileSystem.remove(copy)  // a stale copy of an earlier run of the same key
                try FileSystem.writeNewFile(copy, read.bytes, permissions: 0o600)
                written.append(copy)
                kept.pictures[index] = PostPicture(file: copy, alt: picture.alt, keepsLocation: true, uploaded: nil, name: picture.name)
            }
        } catch {
            for file in written { try? FileSystem.remove(file) }
            throw error
        }
        return kept
    }
}
