/// The registry of the formats `timeline import` reads as JSON documents: each `ImportFormat`
/// with the `TimelineDecoder` that reads it. `TimelineImporter` asks it for the decoder of the
/// format given or detected, rather than knowing each decoder. A new format is a folder under
/// `Formats/`, a case of `ImportFormat` (the switch below then will not compile until the case
/// is registered), and its rule in `FormatDetection`.
enum TimelineDecoders {
    /// The decoder of `format` for the input at `path` (`-` for standard input); `start` gives
    /// the input's first bytes, for a format that looks at them before reading (a Twitter
    /// archive's owner is in the `account.js` beside its `tweets.js`). `nil` for JSON Lines,
    /// which `JSONLinesImporter` streams line by line.
    static func decoder(
        for format: ImportFormat, path: String, start: () throws(ImportError) -> [UInt8]
    ) throws(ImportError) -> (any TimelineDecoder)? {
        switch format {
        case .jsonl:
            return nil
        case .mastodon:
            return MastodonDecoder()
        case .twitter:
            let start = try start()
            return TwitterDecoder(archiveOwner: path == "-" ? nil : TwitterArchiveOwner.owner(besideTweetsAt: path, tweets: start))
        case .bluesky:
            return BlueskyDecoder()
        }
    }
}
