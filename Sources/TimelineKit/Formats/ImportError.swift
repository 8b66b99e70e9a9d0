/// Why a JSON Lines import stopped: where (file, line, column, field), what was wrong, and what to
/// do about it. Every import is one transaction, so after any of these nothing was written
/// (except `.store(.snapshotNotWritten)`, which the store reports after a successful commit).
///
/// `description` reads like a compiler diagnostic, e.g.
/// `export.jsonl:12:41: `likes` must be a non-negative integer, found a string, "12". Nothing was imported: fix line 12 and import the file again.`
/// Values copied from the file into the message are quoted and escaped like JSON strings, with
/// invisible format characters (bidirectional overrides, zero-width spaces) escaped as well, and
/// the whole description then goes through `TerminalText.body`, the renderer's neutraliser (the
/// path too is input: a file may be named anything). So a hostile file can put neither terminal
/// escape sequences nor a right-to-left override into an error message.
public struct ImportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong.
    public enum Problem: Sendable, Equatable {
        /// The file (or standard input) could not be opened or read.
        case cannotRead(FileSystemError)
        /// The line is not well-formed JSON; the text says what was expected and what was found.
        case malformedJSON(String)
        /// A string holds bytes that are not UTF-8.
        case invalidUTF8
        /// A `\uD800`–`\uDFFF` escape that is not half of a high-low surrogate pair. Refused rather
        /// than replaced with U+FFFD, so that no text is silently changed.
        case loneSurrogate(String)
        /// The line is longer than `limit` bytes (its line ending not counted).
        case lineTooLong(limit: Int)
        /// Values are nested more than `limit` levels deep (each level takes stack space to read).
        case nestedTooDeep(limit: Int)
        /// A field the record type requires is absent.
        case missingField
        /// The object names the same known field twice, so it is unclear which value is meant.
        case duplicateField
        /// A known field holds the wrong kind of value, e.g. expected `a non-negative integer`,
        /// found `a string`.
        case wrongType(expected: String, found: String)
        /// A count or other integer beyond what can be stored.
        case numberTooLarge(String)
        /// `type` is neither `"user"` nor `"message"`.
        case unknownRecordType(String)
        /// An ID is the empty string.
        case emptyID
        /// An ID holds U+0000 (`\u0000`), which no ID may hold: SQLite's JSON functions, through
        /// which lists of IDs reach the database, end a string there, so the ID could never be
        /// found again.
        case nulInID
        /// A time is not a valid RFC 3339 date and time; `reason` completes the sentence
        /// "VALUE …", e.g. "is not a valid date: February 2026 has 28 days".
        case invalidTime(value: String, reason: String)
        /// A message text is longer than `limit` bytes of UTF-8.
        case textTooLong(bytes: Int, limit: Int)
        /// A message names an author that neither the file nor the database has.
        case unknownAuthor(messageID: String, authorID: String)
        /// The store refused the transaction (busy, disk full, …); see the store error.
        case store(TimelineStoreError)
        /// Well-formed JSON that is not what the format holds (a Mastodon or Twitter import);
        /// the text says what was expected, what was found and what to do.
        case unexpectedContent(String)
        /// No `--format` was given and the content looks like none of the formats; the text
        /// says what the input starts with.
        case unknownFormat(String)
        /// A Mastodon or Twitter file, which is read whole, is larger than `limit` bytes.
        case inputTooLarge(limit: Int)
    }

    /// The file's path as given, or `<stdin>`.
    public var source: String
    /// The 1-based line number, or `nil` when the problem is not on one line (the file could not
    /// be opened, the store was busy).
    public var line: Int?
    /// The 1-based column in Unicode scalars (characters, for most text), when one place on the
    /// line is at fault.
    public var column: Int?
    /// The field at fault as a path: `created_at`, `attachments[2].kind` (array indices count from
    /// 0), or `nil` when the problem is not about one field.
    public var field: String?
    /// What was wrong.
    public var problem: Problem

    public init(source: String, line: Int? = nil, column: Int? = nil, field: String? = nil, problem: Problem) {
        self.source = source
        self.line = line
        self.column = column
        self.field = field
        self.problem = problem
    }

    public var description: String {
        var location = source
        if let line {
            location += ":\(line)"
            if let column { location += ":\(column)" }
        }
        return TerminalText.body("\(location): \(sentence)\(advice)")
    }

    var sentence: String {
        let json: JSONProblem
        switch problem {
        case let .cannotRead(error):
            return "cannot read the file: \(error)."
        case let .unknownAuthor(messageID, authorID):
            return "message \(QuotedValue.quoted(messageID)) names author \(QuotedValue.quoted(authorID)), but neither the file "
                + "nor the database has a user with that ID. Add a {\"type\":\"user\",\"id\":\(QuotedValue.quoted(authorID)),…} "
                + "line anywhere in the file."
        case let .unknownFormat(detail):
            return "cannot tell the format: \(detail). Name it with --format jsonl, mastodon or twitter."
        case let .inputTooLarge(limit):
            return "the input is larger than the limit of \(Counted.grouped(limit)) bytes for a Mastodon or Twitter file, "
                + "which is read whole; split it into pages (one JSON document per line is fine)."
        case let .store(error):
            // This one comes after a successful commit: the import is in the database.
            if case .snapshotNotWritten = error { return "the import was saved. \(error)" }
            return "the import was not saved: \(error)"
        // The problems of reading JSON, worded once where JSON is read (a sync words them the same).
        case let .malformedJSON(detail): json = .malformedJSON(detail)
        case .invalidUTF8: json = .invalidUTF8
        case let .loneSurrogate(detail): json = .loneSurrogate(detail)
        case let .lineTooLong(limit): json = .lineTooLong(limit: limit)
        case let .nestedTooDeep(limit): json = .nestedTooDeep(limit: limit)
        case .missingField: json = .missingField
        case .duplicateField: json = .duplicateField
        case let .wrongType(expected, found): json = .wrongType(expected: expected, found: found)
        case let .numberTooLarge(detail): json = .numberTooLarge(detail)
        case let .unknownRecordType(detail): json = .unknownRecordType(detail)
        case .emptyID: json = .emptyID
        case .nulInID: json = .nulInID
        case let .invalidTime(value, reason): json = .invalidTime(value: value, reason: reason)
        case let .textTooLong(bytes, limit): json = .textTooLong(bytes: bytes, limit: limit)
        case let .unexpectedContent(detail): json = .unexpectedContent(detail)
        }
        return json.sentence(field: field)
    }

    private var advice: String {
        switch problem {
        case .store:
            // The store's own message already says whether anything was written.
            return ""
        case .cannotRead:
            return " Nothing was imported."
        default:
            if let line { return " Nothing was imported: fix line \(line) and import the file again." }
            return " Nothing was imported."
        }
    }
}

extension ImportError.Problem {
    /// The import's name for a problem of reading JSON, which the JSON layer reports in a
    /// `JSONLineFailure`.
    init(_ problem: JSONProblem) {
        switch problem {
        case let .malformedJSON(detail): self = .malformedJSON(detail)
        case .invalidUTF8: self = .invalidUTF8
        case let .loneSurrogate(detail): self = .loneSurrogate(detail)
        case let .lineTooLong(limit): self = .lineTooLong(limit: limit)
        case let .nestedTooDeep(limit): self = .nestedTooDeep(limit: limit)
        case .missingField: self = .missingField
        case .duplicateField: self = .duplicateField
        case let .wrongType(expected, found): self = .wrongType(expected: expected, found: found)
        case let .numberTooLarge(detail): self = .numberTooLarge(detail)
        case let .unknownRecordType(detail): self = .unknownRecordType(detail)
        case .emptyID: self = .emptyID
        case .nulInID: self = .nulInID
        case let .invalidTime(value, reason): self = .invalidTime(value: value, reason: reason)
        case let .textTooLong(bytes, limit): self = .textTooLong(bytes: bytes, limit: limit)
        case let .unexpectedContent(detail): self = .unexpectedContent(detail)
        }
    }
}
