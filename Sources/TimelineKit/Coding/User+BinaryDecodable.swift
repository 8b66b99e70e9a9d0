/// Decodes a user straight from the reader: a snapshot holds the authors of its messages (see
/// `BinaryDecodable`). The fields are read in the order of the synthesized `CodingKeys`.
extension User: BinaryDecodable {
    static func decode(binary reader: BinaryReader) throws -> User {
        let id = try reader.decode(String.self, forKey: "id")
        let handle = try reader.decode(String.self, forKey: "handle")
        let name = try reader.decode(String.self, forKey: "name")
        let url = try reader.decodeIfPresent(String.self, forKey: "url")
        let isBot = try reader.decode(Bool.self, forKey: "isBot")
        return User(
            id: id,
            handle: handle,
            name: name,
            url: url,
            isBot: isBot
        )
    }

    /// Moves the reader past the fields of an encoded user that follow its `id` (see
    /// `Message.skip(binary:)`): a preview reads each user's ID to tell whether it is needed.
    static func skipAfterID(binary reader: BinaryReader) throws(BinaryDecodingError) {
        try reader.skipString()                                  // handle
        try reader.skipString()                                  // name
        if try reader.readPresence() { try reader.skipString() } // url
        try reader.skipBytes(1)                                  // isBot
    }
}
