#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes a message straight from the reader: it is most of a snapshot (see `BinaryDecodable`).
/// The fields are read in the order of the synthesized `CodingKeys`, which is declaration order.
extension Message: BinaryDecodable {
    static func decode(binary reader: BinaryReader) throws -> Message {
        let id = try reader.decode(String.self, forKey: "id")
        let authorID = try reader.decode(String.self, forKey: "authorID")
        let text = try reader.decode(String.self, forKey: "text")
        let createdAt = try reader.decode(Date.self, forKey: "createdAt")
        let editedAt = try reader.decodeIfPresent(Date.self, forKey: "editedAt")
        let replyToID = try reader.decodeIfPresent(String.self, forKey: "replyToID")
        let replyToUserID = try reader.decodeIfPresent(String.self, forKey: "replyToUserID")
        let repostOfID = try reader.decodeIfPresent(String.self, forKey: "repostOfID")
        let quoteOfID = try reader.decodeIfPresent(String.self, forKey: "quoteOfID")
        let contentWarning = try reader.decodeIfPresent(String.self, forKey: "contentWarning")
        let url = try reader.decodeIfPresent(String.self, forKey: "url")
        let attachments = try reader.decode([Attachment].self, forKey: "attachments")
        let likeCount = try reader.decode(Int.self, forKey: "likeCount")
        let repostCount = try reader.decode(Int.self, forKey: "repostCount")
        let replyCount = try reader.decode(Int.self, forKey: "replyCount")
        let isRead = try reader.decode(Bool.self, forKey: "isRead")
        return Message(
            id: id,
            authorID: authorID,
            text: text,
            createdAt: createdAt,
            editedAt: editedAt,
            replyToID: replyToID,
            replyToUserID: replyToUserID,
            repostOfID: repostOfID,
            quoteOfID: quoteOfID,
            contentWarning: contentWarning,
            url: url,
            attachments: attachments,
            likeCount: likeCount,
            repostCount: repostCount,
            replyCount: replyCount,
            isRead: isRead
        )
    }

    /// Moves the reader past one encoded message without making it: what `decode(binary:)`
    /// reads, field for field, with strings' bytes stepped over (bounds-checked, not validated).
    /// A snapshot preview skips the messages the first screen does not show.
    static func skip(binary reader: BinaryReader) throws(BinaryDecodingError) {
        try reader.skipString()           // id
        try reader.skipString()           // authorID
        try reader.skipString()           // text
        try reader.skipBytes(8)           // createdAt
        if try reader.readPresence() { try reader.skipBytes(8) }  // editedAt
        for _ in 0..<6 {                                          // replyToID … url
            if try reader.readPresence() { try reader.skipString() }
        }
        let attachments = try reader.readCount()
        for _ in 0..<attachments { try Attachment.skip(binary: reader) }
        try reader.skipVarint()           // likeCount
        try reader.skipVarint()           // repostCount
        try reader.skipVarint()           // replyCount
        try reader.skipBytes(1)           // isRead
    }
}
