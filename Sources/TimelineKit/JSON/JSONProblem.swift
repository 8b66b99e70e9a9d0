/// What is wrong with JSON being read as a timeline's content: a line of a JSON Lines file, a
/// value of a Mastodon, Twitter or Bluesky document, a server's answer. The JSON layer's own
/// failure (`JSONLineFailure` carries it); an import reports it as the ``ImportError/Problem`` of
/// the same name, a sync as a server's unreadable answer, both in the words of `sentence(field:)`.
enum JSONProblem: Sendable, Equatable {
    // Each case is the one of ``ImportError/Problem`` of the same name, documented there.
    case malformedJSON(String)
    case invalidUTF8
    case loneSurrogate(String)
    case lineTooLong(limit: Int)
    case nestedTooDeep(limit: Int)
    case missingField
    case duplicateField
    case wrongType(expected: String, found: String)
    case numberTooLarge(String)
    case unknownRecordType(String)
    case emptyID
    case nulInID
    case invalidTime(value: String, reason: String)
    case textTooLong(bytes: Int, limit: Int)
    case unexpectedContent(String)

    /// The problem as a sentence, about `field` (a path such as `attachments[2].kind`) when one
    /// field is at fault: "`likes` must be a non-negative integer, found a string, "12"."
    func sentence(field: String?) -> String {
        let name = Self.fieldName(field)
        switch self {
        case let .malformedJSON(detail):
            return "malformed JSON: \(detail)."
        case .invalidUTF8:
            return "\(field == nil ? "the line" : name) holds bytes that are not valid UTF-8; save the file as UTF-8."
        case let .loneSurrogate(escape):
            return "\(name): \(escape) is half of a UTF-16 surrogate pair without its other half; "
                + "write characters outside the BMP as a pair such as \\ud83d\\ude00, or as UTF-8."
        case let .lineTooLong(limit):
            return "the line is longer than the limit of \(Counted.grouped(limit)) bytes (1 MiB); "
                + "each record must be on its own line. Is this a JSON Lines file?"
        case let .nestedTooDeep(limit):
            return "values are nested more than \(limit) levels deep, deeper than timeline reads (a Bluesky thread of 80 parents, the deepest answer it asks for, takes about 95)."
        case .missingField:
            return "the required field \(name) is missing."
        case .duplicateField:
            return "the field \(name) appears twice in the object; keep one."
        case let .wrongType(expected, found):
            return "\(name) must be \(expected), found \(found)."
        case let .numberTooLarge(value):
            // The scanner let only digits through: the value is safe to print as it is.
            return "\(name): \(value) is too large (at most \(Counted.grouped(Int(Int64.max))))."
        case let .unknownRecordType(type):
            return "unknown record type \(QuotedValue.quoted(type)); type must be \"user\" or \"message\"."
        case .emptyID:
            return "\(name) is empty; IDs must have at least one character."
        case .nulInID:
            return "\(name) holds the character U+0000 (\\u0000), which no ID may hold; remove it."
        case let .invalidTime(value, reason):
            return "\(name): \(QuotedValue.quoted(value)) \(reason)."
        case let .textTooLong(bytes, limit):
            return "\(name) is \(Counted.grouped(bytes)) bytes long; the limit is \(Counted.grouped(limit)) bytes of UTF-8."
        case let .unexpectedContent(detail):
            return (field == nil ? "" : "\(name): ") + "\(detail)."
        }
    }

    /// The field's path in backticks. A path can hold an unknown key copied from the file, so it
    /// is escaped like a quoted value.
    private static func fieldName(_ field: String?) -> String {
        guard let field else { return "the value" }
        return "`" + QuotedValue.escaped(String(field.unicodeScalars.prefix(80))) + "`"
    }
}
