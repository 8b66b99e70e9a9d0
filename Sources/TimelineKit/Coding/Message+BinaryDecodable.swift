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
}
