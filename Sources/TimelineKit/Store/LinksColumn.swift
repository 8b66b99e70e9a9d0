/// The `links` column (migration 18, issue 37): a message's web links as a JSON array of
/// strings, readable from the `sqlite3` shell, NULL when there are none (nearly every message,
/// and every one stored before the column).
///
/// A wrapper rather than `[String]` itself: `[Attachment]` already is the array that is a
/// column, and a type conforms to a protocol in one way only.
struct LinksColumn: ColumnValue {
    var links: [String]

    /// Written with the import's encoder, so that the same links are always the same text (the
    /// upsert compares the column's text to tell a change).
    @inline(__always)
    func bind(to statement: SQLiteStatement, at index: Int32) throws(SQLiteError) {
        guard !links.isEmpty else { return try statement.bindNull(at: index) }
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        for (position, link) in links.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONLineEncoder.appendString(link, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
        try statement.bind(String(decoding: bytes, as: UTF8.self), at: index)
    }

    /// Text another program wrote that is no JSON array reads as no links, rather than making
    /// the timeline unreadable; what is kept passes `MessageLinks`' rule again, as from a server.
    @inline(__always)
    static func read(from row: SQLiteStatement, at index: Int32) -> LinksColumn {
        guard var json = row.optionalText(at: index), !json.isEmpty else { return LinksColumn(links: []) }
        let links = json.withUTF8 { bytes -> [String] in
            var parser = JSONTreeParser(bytes)
            guard let document = try? parser.nextDocument(), let elements = document.arrayValue else { return [] }
            return MessageLinks.kept(elements.lazy.compactMap(\.stringValue))
        }
        return LinksColumn(links: links)
    }
}
