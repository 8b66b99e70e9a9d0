/// Tells the import format from the start of a file, for `timeline import` without `--format`.
///
/// The rules, checked on the first JSON value (after a byte order mark and whitespace):
///
/// - `window.YTD.` (a Twitter archive's `tweets.js`): **twitter**.
/// - An object with `"type": "user"` or `"type": "message"`: **jsonl**, the project's own format.
/// - An object, or the first element of an array, whose fields say what it is:
///   `account`, `acct`, `ancestors`/`descendants`, `last_status`, `statuses` with `accounts` or
///   `hashtags`, or `error`: **mastodon**; `user` with `id_str`/`text`/`full_text`, `id_str`,
///   `tweet` (an archive entry), `data`/`includes` (a v2 page), `statuses` with
///   `search_metadata`, or `errors`: **twitter**.
/// - Any other object, or anything that is not an array: **jsonl**, the default, whose errors
///   then say what is wrong with the line.
/// - An empty array: **mastodon** (there is nothing to import either way).
/// - An array whose first element says nothing of the above: no format; the import asks for
///   `--format`.
///
/// Only the start is read (the first element's field names), so detection costs nothing
/// measurable however large the file.
public struct FormatDetection: Sendable, Equatable {
    /// The format detected.
    public var format: ImportFormat
    /// What the content looked like, for the one line `timeline import` prints, e.g.
    /// `Mastodon statuses (a JSON array)`.
    public var summary: String

    public init(format: ImportFormat, summary: String) {
        self.format = format
        self.summary = summary
    }

    /// The format of `bytes`, the start of a file (or all of it).
    ///
    /// - Throws: `ImportError` with `.unknownFormat` when the content matches no format.
    public static func detect(_ bytes: [UInt8], sourceName: String = "<input>") throws(ImportError) -> FormatDetection {
        switch detect(bytes, isComplete: true) {
        case let .detected(detection): return detection
        case let .unknown(reason): throw ImportError(source: sourceName, problem: .unknownFormat(reason))
        case .needsMore: throw ImportError(source: sourceName, problem: .unknownFormat("the input ends too early"))
        }
    }

    enum Outcome: Equatable {
        case detected(FormatDetection)
        /// The bytes end before the first value says what it is, and more may follow.
        case needsMore
        case unknown(String)
    }

    /// The format of `bytes`; when `isComplete` is false, they are only the start of the input.
    static func detect(_ bytes: [UInt8], isComplete: Bool) -> Outcome {
        bytes.withUnsafeBufferPointer { buffer in
            if APIDocumentReader.archiveAssignmentEnd(buffer, from: bomLength(buffer)) != nil {
                return .detected(FormatDetection(format: .twitter, summary: "a Twitter archive (tweets.js)"))
            }
            var scanner = JSONScanner(buffer, at: bomLength(buffer))
            scanner.skipWhitespace()
            if scanner.isAtEnd {
                return isComplete ? .unknown("the input is empty") : .needsMore
            }
            switch scanner.current {
            case UInt8(ascii: "{"):
                let fields = Fields.scan(&scanner)
                if fields.type == "user" || fields.type == "message" {
                    return .detected(FormatDetection(format: .jsonl, summary: "JSON Lines"))
                }
                if let detection = classify(fields, container: "a JSON object", topLevel: true) { return .detected(detection) }
                if !fields.isComplete && !isComplete { return .needsMore }
                return .detected(FormatDetection(format: .jsonl, summary: "JSON Lines"))
            case UInt8(ascii: "["):
                scanner.index += 1
                scanner.skipWhitespace()
                if scanner.isAtEnd { return isComplete ? .unknown("the input is an unfinished JSON array") : .needsMore }
                if scanner.current == UInt8(ascii: "]") {
                    return .detected(FormatDetection(format: .mastodon, summary: "an empty JSON array"))
                }
                guard scanner.current == UInt8(ascii: "{") else {
                    return .unknown("the input is a JSON array, but its first element is not an object")
                }
                let fields = Fields.scan(&scanner)
                if let detection = classify(fields, container: "a JSON array", topLevel: false) { return .detected(detection) }
                if !fields.isComplete && !isComplete { return .needsMore }
                if !fields.isComplete {
                    return .unknown("the input ends inside the first element of its JSON array, before any field says what it is "
                        + "(`account`, `acct`, `user`, `id_str`, `tweet`)")
                }
                return .unknown("the input is a JSON array of objects that look like neither Mastodon statuses, accounts "
                    + "or notifications nor tweets (the first has none of `account`, `acct`, `user`, `id_str`, `tweet`)")
            default:
                return .detected(FormatDetection(format: .jsonl, summary: "JSON Lines"))
            }
        }
    }

    private static func bomLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }

    private static func classify(_ fields: Fields, container: String, topLevel: Bool) -> FormatDetection? {
        let keys = fields.keys
        func mastodon(_ what: String) -> FormatDetection { FormatDetection(format: .mastodon, summary: "\(what) (\(container))") }
        func twitter(_ what: String) -> FormatDetection { FormatDetection(format: .twitter, summary: "\(what) (\(container))") }
        func bluesky(_ what: String) -> FormatDetection { FormatDetection(format: .bluesky, summary: "\(what) (\(container))") }
        if keys.contains("tweet") { return twitter("a Twitter archive") }
        if topLevel, keys.contains("feed") { return bluesky("a Bluesky feed") }
        if topLevel, keys.contains("posts") { return bluesky("Bluesky posts") }
        if topLevel, keys.contains("notifications") { return bluesky("Bluesky notifications") }
        if keys.contains("post"), !topLevel || keys.contains("reason") || keys.contains("reply") { return bluesky("Bluesky feed items") }
        if keys.contains("user"), keys.contains("id_str") || keys.contains("text") || keys.contains("full_text") {
            return twitter("Twitter v1.1 tweets")
        }
        if keys.contains("id_str") { return twitter("Twitter v1.1 tweets") }
        if topLevel, keys.contains("data") || keys.contains("includes") { return twitter("a Twitter v2 page") }
        if keys.contains("statuses"), keys.contains("search_metadata") { return twitter("Twitter v1.1 search results") }
        if keys.contains("type"), keys.contains("account") { return mastodon("Mastodon notifications") }
        if keys.contains("account") { return mastodon("Mastodon statuses") }
        if keys.contains("acct") { return mastodon("Mastodon accounts") }
        if keys.contains("ancestors") || keys.contains("descendants") { return mastodon("a Mastodon status context") }
        if keys.contains("last_status") { return mastodon("Mastodon conversations") }
        if topLevel, keys.contains("statuses") || keys.contains("accounts") { return mastodon("Mastodon search results") }
        if topLevel, keys.contains("error") { return mastodon("a Mastodon error response") }
        if topLevel, keys.contains("errors") { return twitter("a Twitter error response") }
        return nil
    }

    /// The field names of the object at the scanner (and the value of `type`), as far as the bytes go.
    private struct Fields {
        var keys: Set<String> = []
        var type: String?
        /// Whether the whole object was read.
        var isComplete = false

        static func scan(_ scanner: inout JSONScanner) -> Fields {
            var fields = Fields()
            do throws(JSONLineFailure) {
                try scanner.forEachMember(depth: 1) { (inner: inout JSONScanner, key: JSONSpan) throws(JSONLineFailure) in
                    let name = String(decoding: UnsafeBufferPointer(rebasing: inner.bytes[key.start + 1 ..< key.end - 1]), as: UTF8.self)
                    fields.keys.insert(name)
                    let value = try inner.scanValue(depth: 1)
                    if name == "type", value.kind == .string, !value.hasEscapes {
                        fields.type = String(decoding: UnsafeBufferPointer(rebasing: inner.bytes[value.start + 1 ..< value.end - 1]), as: UTF8.self)
                    }
                }
                fields.isComplete = true
            } catch {
                // Bad JSON is decided on the fields read so far (the import reports the error);
                // bytes that end inside the object may continue, so only that counts as incomplete.
                var endsEarly = error.offset.map { $0 >= scanner.bytes.count - 4 } ?? false
                if case let .malformedJSON(detail) = error.problem, detail.contains("does not end") { endsEarly = true }
                fields.isComplete = !endsEarly
            }
            return fields
        }
    }
}
