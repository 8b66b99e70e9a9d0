/// A reader of one format of timeline documents (Mastodon API answers, Twitter API answers and
/// archives, saved Bluesky answers): the JSON values of a file, one at a time, into users and
/// messages. `TimelineImporter` streams a file through the decoder its format registers
/// (`TimelineDecoders`), so a new format is a folder under `Formats/` with one conformance,
/// and one registration.
///
/// JSON Lines, the project's own format, is not read this way: it is streamed line by line with
/// a parser of its own (`JSONLinesImporter`), not as JSON documents.
protocol TimelineDecoder: Sendable {
    /// One whole document: an object, or an array read whole (a file of pages, one a line).
    func decode(document: JSONNode, into timeline: inout DecodedTimeline) throws(JSONLineFailure)

    /// Element `index` of a document that is an array, which the import reads one element at a
    /// time so that an array of any size is read in bounded memory.
    func decode(element: JSONNode, index: Int, into timeline: inout DecodedTimeline) throws(JSONLineFailure)
}

extension TimelineDecoder {
    /// The users and messages of the documents in `bytes` (UTF-8), read whole: what each
    /// decoder's public `decode(_:sourceName:)` does.
    ///
    /// - Throws: `ImportError` naming `sourceName`, the line, column and JSON path at fault.
    func decodeDocuments(_ bytes: [UInt8], sourceName: String) throws(ImportError) -> DecodedTimeline {
        try APIDocumentReader.decode(bytes, sourceName: sourceName) { (document, timeline) throws(JSONLineFailure) in
            try decode(document: document, into: &timeline)
        }
    }
}
