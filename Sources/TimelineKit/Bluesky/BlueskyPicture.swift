/// A picture of a Bluesky post once uploaded: its blob, its alt text and its aspect ratio,
/// what `app.bsky.embed.images` holds for it.
public struct BlueskyPicture: Sendable, Hashable {
    public var blob: BlueskyBlob
    /// The alt text; `""` for none (`--no-alt`): the lexicon requires the field.
    public var alt: String
    /// Size in pixels, written as the image's `aspectRatio` so that apps lay it out before
    /// they have it.
    public var width: Int
    public var height: Int

    public init(blob: BlueskyBlob, alt: String, width: Int, height: Int) {
        self.blob = blob
        self.alt = alt
        self.width = width
        self.height = height
    }

    /// One element of `app.bsky.embed.images`'s `images`.
    var recordJSON: [UInt8] {
        var bytes: [UInt8] = Array(#"{"alt":"#.utf8)
        JSONLineEncoder.appendString(alt, to: &bytes)
        bytes += Array(#","image":"#.utf8) + blob.recordJSON
        bytes += Array(#","aspectRatio":{"width":\#(width),"height":\#(height)}}"#.utf8)
        return bytes
    }

    /// The `app.bsky.embed.images` object of `pictures`.
    static func embedJSON(_ pictures: [BlueskyPicture]) -> [UInt8] {
        var bytes: [UInt8] = Array(#"{"$type":"app.bsky.embed.images","images":["#.utf8)
        for (index, picture) in pictures.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += picture.recordJSON
        }
        bytes += Array("]}".utf8)
        return bytes
    }

    /// How the outbox keeps an uploaded picture's blob and size (``PostPicture/uploaded``):
    /// `CID MIME SIZE WIDTH HEIGHT`, none of which holds a space.
    var uploadRecord: String { "\(blob.cid) \(blob.mimeType) \(blob.size) \(width) \(height)" }

    /// The picture an ``uploadRecord`` names, with `alt`; `nil` for what is not one.
    init?(uploadRecord: String, alt: String) {
        let fields = uploadRecord.split(separator: " ").map(String.init)
        guard fields.count == 5, let size = Int(fields[2]), let width = Int(fields[3]), let height = Int(fields[4]) else { return nil }
        self.init(blob: BlueskyBlob(cid: fields[0], mimeType: fields[1], size: size), alt: alt, width: width, height: height)
    }
}

extension BlueskySync {
    /// The draft's pictures uploaded (those not uploaded yet: each read, all checked against
    /// ``MediaLimits/bluesky`` before the first upload, then `uploadBlob`), in order;
    /// `recording` receives each new upload at once, for the outbox.
    ///
    /// - Throws: ``PictureError`` naming a file, before any upload; the upload's `ServerError`.
    func pictures(for pictures: [PostPicture], recording: (Int, String) throws -> Void = { _, _ in }) async throws -> [BlueskyPicture] {
        guard !pictures.isEmpty else { return [] }
        if pictures.count > MediaLimits.bluesky.picturesPerPost {
            throw PictureError.tooMany(count: pictures.count, limit: MediaLimits.bluesky.picturesPerPost)
        }
        var read: [Int: Picture] = [:]
        for (index, picture) in pictures.enumerated() {
            if let uploaded = picture.uploaded, BlueskyPicture(uploadRecord: uploaded, alt: "") != nil { continue }
            read[index] = try Picture(file: picture.file, named: picture.name, keepingLocation: picture.keepsLocation)
        }
        if let refusal = MediaLimits.bluesky.refusal(of: read.keys.sorted().compactMap { read[$0] }) { throw refusal }
        var result: [BlueskyPicture] = []
        for (index, picture) in pictures.enumerated() {
            if let uploaded = picture.uploaded, let kept = BlueskyPicture(uploadRecord: uploaded, alt: picture.alt ?? "") {
                result.append(kept)
            } else if let bytes = read[index] {
                let blob = try await uploadBlob(bytes.bytes, mimeType: bytes.format.mimeType)
                let uploaded = BlueskyPicture(blob: blob, alt: picture.alt ?? "", width: bytes.width, height: bytes.height)
                try recording(index, uploaded.uploadRecord)
                result.append(uploaded)
            }
        }
        return result
    }
}
