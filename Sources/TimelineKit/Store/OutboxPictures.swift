/// The pictures of posts waiting in the outbox (issue 36): kept as copies in a folder beside
/// the database, `outbox-media/`, named by the entry's key, so that a post is sent as it was
/// asked for even when the person deleted or changed their file since; and written into the
/// entry's `payload` as `pictures`, an array of `{"file", "name", "alt", "keep_exif", "uploaded"}`
/// (no migration: the payload is JSON).
enum OutboxPictures {
    /// The most pictures read back from an outbox entry: far above any network's 4, only a
    /// bound on what a damaged payload could make this library hold.
    static let picturesLimit = 16

    /// The folder of the copies beside the database at `databasePath`.
    static func directory(besideDatabaseAt databasePath: String) -> String {
        FileSystem.parentDirectory(of: databasePath) + "/outbox-media"
    }

    /// The payload's `pictures`, `nil` for none.
    static func json(_ pictures: [PostPicture]) -> String? {
        guard !pictures.isEmpty else { return nil }
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        for (index, picture) in pictures.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += Array(#"{"file":"#.utf8)
            JSONLineEncoder.appendString(picture.file, to: &bytes)
            bytes += Array(#","name":"#.utf8)
            JSONLineEncoder.appendString(picture.name, to: &bytes)
            if let alt = picture.alt {
                bytes += Array(#","alt":"#.utf8)
                JSONLineEncoder.appendString(alt, to: &bytes)
            }
            if picture.keepsLocation { bytes += Array(#","keep_exif":true"#.utf8) }
            if let uploaded = picture.uploaded {
                bytes += Array(#","uploaded":"#.utf8)
                JSONLineEncoder.appendString(uploaded, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The pictures read back from the payload; none when it has none (or what this library
    /// cannot read: the database's own JSON, written above).
    static func pictures(json: String?) -> [PostPicture] {
        guard let json, let array = (try? JSONNode(parsing: Array(json.utf8)))?.arrayValue else { return [] }
        return array.prefix(picturesLimit).compactMap { node in
            guard let file = node["file"]?.stringValue else { return nil }
            let keeps: Bool
            if case .bool(true) = node["keep_exif"]?.value { keeps = true } else { keeps = false }
            return PostPicture(file: file, alt: node["alt"]?.stringValue, keepsLocation: keeps, uploaded: node["uploaded"]?.stringValue,
                               name: node["name"]?.stringValue)
        }
    }

    /// Deletes the copies among `pictures` (the files inside the outbox's folder beside the
    /// database at `databasePath`; a person's own file is never touched). A copy that cannot
    /// be deleted is left: the post is sent or gone, and a stray file harms nothing.
    static func remove(_ pictures: [PostPicture], keptBeside databasePath: String) {
        let folder = directory(besideDatabaseAt: databasePath) + "/"
        for picture in pictures where picture.file.hasPrefix(folder) && !picture.file.dropFirst(folder.count).contains("/") {
            try? FileSystem.remove(picture.file)
        }
    }
}

extension TimelineStore {
    /// Records in the outbox entry `sequence` that its picture at `index` was uploaded, as
    /// `uploaded` (a media ID, a blob), so that a later try does not upload it again. Paints
    /// nothing new.
    public func recordOutboxUpload(of sequence: Int64, picture index: Int, as uploaded: String) throws(TimelineStoreError) {
        try storeWrite(refreshingSnapshot: false) { transaction throws(TimelineStoreError) in
            try transaction.connection.reportingStoreErrors { () throws(SQLiteError) in
                let statement = try transaction.connection.statement("""
                    UPDATE pending_actions SET payload = json_set(payload, '$.pictures[' || ?2 || '].uploaded', ?3)
                    WHERE sequence = ?1 AND json_type(payload, '$.pictures[' || ?2 || ']') = 'object'
                    """)
                defer { statement.reset() }
                try statement.bind(sequence, at: 1)
                try statement.bind(Int64(index), at: 2)
                try statement.bind(uploaded, at: 3)
                try statement.run()
            }
        }
    }

    /// The folder where the outbox keeps copies of waiting posts' pictures.
    public var outboxPicturesDirectory: String { OutboxPictures.directory(besideDatabaseAt: path) }
}
