/// A blob a PDS holds for the account, as `com.atproto.repo.uploadBlob` answers it: what a
/// record that shows it (a picture of `app.bsky.embed.images`, a link card's thumbnail) names.
///
/// The record carries it back as the server wrote it, `{"$type":"blob","ref":{"$link":CID},
/// "mimeType":…,"size":…}` (``recordJSON``): the PDS keeps an uploaded blob only when a record
/// written within the hour names it by that CID.
public struct BlueskyBlob: Sendable, Hashable {
    /// The blob's content identifier (`bafkrei…`): a CID in base32, as the `$link` holds it.
    public var cid: String
    /// The MIME type the server stored (`image/jpeg`).
    public var mimeType: String
    /// Its length in bytes.
    public var size: Int

    /// The largest image blob `app.bsky.embed.images` accepts: its lexicon says `maxSize:
    /// 1000000` for `image`, and a PDS refuses a record naming a larger one.
    public static let imageSizeLimit = 1_000_000

    /// The longest CID read from an answer: a CIDv1 of a SHA-256 in base32 is 59 characters;
    /// what is far longer is not a CID and would only grow every record that names it.
    static let cidLengthLimit = 128

    public init(cid: String, mimeType: String, size: Int) {
        self.cid = cid
        self.mimeType = mimeType
        self.size = size
    }

    /// The blob as a record names it: the lexicon's `blob` type, the answer's fields unchanged.
    public var recordJSON: [UInt8] {
        var bytes: [UInt8] = Array(#"{"$type":"blob","ref":{"$link":"#.utf8)
        JSONLineEncoder.appendString(cid, to: &bytes)
        bytes += Array(#"},"mimeType":"#.utf8)
        JSONLineEncoder.appendString(mimeType, to: &bytes)
        bytes += Array(#","size":\#(size)}"#.utf8)
        return bytes
    }

    /// Reads an `uploadBlob` answer, `{"blob": {…}}`: a CID of base32 letters and digits
    /// (bounded), a MIME type, a size.
    static func read(answer document: JSONNode) throws(JSONLineFailure) -> BlueskyBlob {
        let answer = try JSONObjectView(document, path: "", expected: "an uploadBlob answer")
        guard let blob = try answer.object("blob", expected: "a blob object") else { throw answer.missing("blob") }
        guard let ref = try blob.object("ref", expected: "a CID link object") else { throw blob.missing("ref") }
        let cid = try ref.requiredString("$link")
        guard !cid.isEmpty, cid.utf8.count <= cidLengthLimit,
              cid.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) }) else {
            throw ref.unexpected("\(QuotedValue.quoted(cid)) is not a CID (letters and digits, at most \(cidLengthLimit))")
        }
        let mimeType = try blob.requiredString("mimeType")
        guard blob.has("size") else { throw blob.missing("size") }
        return BlueskyBlob(cid: cid, mimeType: mimeType, size: try blob.count("size"))
    }
}
