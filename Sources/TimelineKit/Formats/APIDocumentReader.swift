/// Reads the JSON documents of a Mastodon or Twitter file one after another and hands each to a
/// decoder, turning failures into `ImportError`s that name the file, line, column and JSON path.
///
/// A file may hold one document (what `curl` saves) or several separated by whitespace (one
/// page per line, as collectors append them). A UTF-8 byte order mark is skipped, and so is the
/// `window.YTD.tweets.part0 =` assignment that starts a Twitter archive's `tweets.js`.
enum APIDocumentReader {
    static func decode(
        _ bytes: [UInt8], sourceName: String,
        _ decodeDocument: (JSONNode, inout DecodedTimeline) throws(JSONLineFailure) -> Void
    ) throws(ImportError) -> DecodedTimeline {
        var timeline = DecodedTimeline()
        let failure: JSONLineFailure? = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONTreeParser(buffer, at: contentStart(of: buffer))
            do throws(JSONLineFailure) {
                while let document = try parser.nextDocument() {
                    try decodeDocument(document, &timeline)
                }
                return nil
            } catch {
                return error
            }
        }
        guard let failure else { return timeline }
        let position = failure.offset.map { offset in bytes.withUnsafeBufferPointer { SourcePosition(offset: offset, in: $0) } }
        throw ImportError(source: sourceName, line: position?.line, column: position?.column,
                          field: failure.field, problem: .init(failure.problem))
    }

    /// Where the JSON starts: after a byte order mark and a Twitter archive's assignment.
    static func contentStart(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        if let assignment = archiveAssignmentEnd(bytes, from: start) { start = assignment }
        return start
    }

    /// The offset after `window.YTD.<name>.part<N> =` when the content starts with it.
    static func archiveAssignmentEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
            index += 1
        }
        let prefix = Array("window.YTD.".utf8)
        guard bytes.count - index >= prefix.count, Array(bytes[index ..< index + prefix.count]) == prefix else { return nil }
        // The name and part are letters, digits, dots and underscores; a line holds the `=`.
        var position = index + prefix.count
        while position < bytes.count, position - index < 200, bytes[position] != UInt8(ascii: "=") {
            position += 1
        }
        guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else { return nil }
        return position + 1
    }
}
