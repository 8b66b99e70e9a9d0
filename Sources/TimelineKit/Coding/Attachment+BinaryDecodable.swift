/// Decodes an attachment straight from the reader: messages in a snapshot carry them (see
/// `BinaryDecodable`). The fields are read in the order of `Attachment.CodingKeys`.
extension Attachment: BinaryDecodable {
    static func decode(binary reader: BinaryReader) throws -> Attachment {
        let kind = try reader.decode(String.self, forKey: "kind")
        let url = try reader.decodeIfPresent(String.self, forKey: "url")
        let altText = try reader.decodeIfPresent(String.self, forKey: "alt_text")
        return Attachment(
            kind: kind,
            url: url,
            altText: altText
        )
    }

    /// Moves the reader past one encoded attachment (see `Message.skip(binary:)`).
    static func skip(binary reader: BinaryReader) throws(BinaryDecodingError) {
        try reader.skipString()                                  // kind
        if try reader.readPresence() { try reader.skipString() } // url
        if try reader.readPresence() { try reader.skipString() } // alt_text
    }
}
