/// Turns one line of a JSON Lines file into a `JSONLinesRecord`, or says precisely what is wrong
/// with it.
///
/// One pass over the line validates all of it and notes where each known field's value lies; the
/// record type is known only once the object is complete (`type` need not come first), so the
/// values are converted afterwards, each read once more at most, and only the fields the record
/// type uses become `String`s. Reused from line to line, so a file is parsed without per-line
/// allocations other than the strings kept.
struct JSONLineParser {
    /// `text` longer than this many bytes of UTF-8 is refused: far beyond any service's limit
    /// (Mastodon allows 500 characters by default, a few thousand on some servers), while keeping
    /// a screenful of timeline cheap to hold and render.
    static let maximumTextBytes = 100_000

    /// Where each known field's value lies in the current line, valid for the bits set in
    /// `present`.
    private var values = [JSONSpan](repeating: JSONSpan(), count: RecordField.allCases.count)
    private var present: UInt32 = 0
    /// Unescaped string bytes, reused.
    private var scratch: [UInt8] = []
    private var line = UnsafeBufferPointer<UInt8>(start: nil, count: 0)

    /// The record on `line`, or `nil` for a blank line (nothing but spaces, tabs and carriage
    /// returns). `line` holds no line feed.
    mutating func parse(_ line: UnsafeBufferPointer<UInt8>) throws(JSONLineFailure) -> JSONLinesRecord? {
        var scanner = JSONScanner(line)
        scanner.skipWhitespace()
        if scanner.isAtEnd { return nil }
        guard scanner.current == UInt8(ascii: "{") else {
            throw scanner.unexpected(expected: "a JSON object ({…}) holding one user or message")
        }
        self.line = line
        present = 0
        try scanFields(&scanner)
        scanner.skipWhitespace()
        guard scanner.isAtEnd else {
            throw scanner.unexpected(expected: "the end of the line after the object (one object per line)")
        }
        return try record()
    }

    /// Scans the top-level object, noting where the known fields' values are.
    private mutating func scanFields(_ scanner: inout JSONScanner) throws(JSONLineFailure) {
        scanner.index += 1  // the `{`
        scanner.skipWhitespace()
        if scanner.current == UInt8(ascii: "}") {
            scanner.index += 1
            return
        }
        while true {
            scanner.skipWhitespace()
            guard scanner.current == UInt8(ascii: "\"") else {
                throw scanner.unexpected(expected: "a field name in double quotes")
            }
            var key = JSONSpan()
            key.kind = .string
            key.start = scanner.index
            key.hasEscapes = try scanner.scanString()
            key.end = scanner.index
            let field = key.hasEscapes
                ? matchEscapedKey(from: key.start + 1, to: key.end - 1, RecordField.match)
                : RecordField.match(UnsafeBufferPointer(rebasing: line[key.start + 1 ..< key.end - 1]))
            try scanner.expect(UInt8(ascii: ":"), "':' after the field name")
            do throws(JSONLineFailure) {
                if let field {
                    let bit: UInt32 = 1 << UInt32(field.rawValue)
                    if present & bit != 0 {
                        throw JSONLineFailure(offset: key.start, field: field.key, problem: .duplicateField)
                    }
                    present |= bit
                    values[field.rawValue] = try scanner.scanValue(depth: 1)
                } else {
                    _ = try scanner.scanValue(depth: 1)
                }
            } catch {
                // The scanner knows where, not which field: name it (unknown fields too).
                var failure = error
                if failure.field == nil { failure.field = field?.key ?? string(key) }
                throw failure
            }
            scanner.skipWhitespace()
            switch scanner.current {
            case UInt8(ascii: ","):
                scanner.index += 1
            case UInt8(ascii: "}"):
                scanner.index += 1
                return
            default:
                throw scanner.unexpected(expected: "',' or '}' after a field's value")
            }
        }
    }

    /// Matches a key written with escapes (`"\u0069d"` is `id`) after decoding it.
    private mutating func matchEscapedKey<Field>(
        from start: Int, to end: Int, _ match: (UnsafeBufferPointer<UInt8>) -> Field?
    ) -> Field? {
        scratch.removeAll(keepingCapacity: true)
        JSONScanner.appendUnescaped(line, from: start, to: end, to: &scratch)
        return scratch.withUnsafeBufferPointer(match)
    }

    // MARK: Records

    private mutating func record() throws(JSONLineFailure) -> JSONLinesRecord {
        guard let type = value(.type) else { throw missing(.type) }
        guard type.kind == .string else {
            throw wrongType(RecordField.type.key, type, expected: "a string, \"user\" or \"message\"")
        }
        if isString(type, "message") { return try message() }
        if isString(type, "user") { return try user() }
        throw JSONLineFailure(offset: type.start, field: RecordField.type.key, problem: .unknownRecordType(string(type)))
    }

    private mutating func user() throws(JSONLineFailure) -> JSONLinesRecord {
        .user(UserLimits.applied(to: User(
            id: try requiredID(.id),
            handle: try requiredString(.handle),
            name: try requiredString(.name),
            url: try optionalString(.url),
            isBot: try optionalBool(.bot) ?? false
        )))
    }

    private mutating func message() throws(JSONLineFailure) -> JSONLinesRecord {
        let id = try requiredID(.id)
        let authorID = try requiredID(.author)
        let text = try messageText()
        guard let createdAt = try time(.createdAt) else { throw missing(.createdAt) }
        let editedAt = try time(.editedAt)
        let read = try optionalBool(.read)
        let message = Message(
            id: id,
            authorID: authorID,
            text: text,
            createdAt: MillisecondTime.date(fromMilliseconds: createdAt),
            editedAt: editedAt.map(MillisecondTime.date(fromMilliseconds:)),
            replyToID: try optionalID(.replyTo),
            replyToUserID: try optionalID(.replyToUser),
            repostOfID: try optionalID(.repostOf),
            quoteOfID: try optionalID(.quoteOf),
            contentWarning: try optionalString(.contentWarning),
            url: try optionalString(.url),
            attachments: try attachments(),
            likeCount: try count(.likes),
            repostCount: try count(.reposts),
            replyCount: try count(.replies),
            isRead: read ?? false
        )
        return .message(message, readState: read == nil ? .keepStored : .overwrite)
    }

    // MARK: Fields

    /// The field's value, `null` included, or `nil` when the line does not have the field.
    @inline(__always)
    private func value(_ field: RecordField) -> JSONSpan? {
        present & (1 << UInt32(field.rawValue)) != 0 ? values[field.rawValue] : nil
    }

    /// The field's value, or `nil` when it is absent or `null`.
    @inline(__always)
    private func nonNullValue(_ field: RecordField) -> JSONSpan? {
        guard let value = value(field), value.kind != .null else { return nil }
        return value
    }

    private mutating func requiredString(_ field: RecordField) throws(JSONLineFailure) -> String {
        guard let value = value(field) else { throw missing(field) }
        guard value.kind == .string else { throw wrongType(field.key, value, expected: "a string") }
        return string(value)
    }

    private mutating func optionalString(_ field: RecordField) throws(JSONLineFailure) -> String? {
        guard let value = nonNullValue(field) else { return nil }
        guard value.kind == .string else { throw wrongType(field.key, value, expected: "a string or null") }
        return string(value)
    }

    private mutating func requiredID(_ field: RecordField) throws(JSONLineFailure) -> String {
        guard let value = value(field) else { throw missing(field) }
        return try id(field, value)
    }

    private mutating func optionalID(_ field: RecordField) throws(JSONLineFailure) -> String? {
        guard let value = nonNullValue(field) else { return nil }
        return try id(field, value)
    }

    /// An ID is a non-empty string. A non-negative integer (Mastodon before 2.0 sent those) is
    /// taken as its decimal digits exactly as written, never through a floating-point or 64-bit
    /// number, so `109301442871003451123` stays what it is.
    private mutating func id(_ field: RecordField, _ value: JSONSpan) throws(JSONLineFailure) -> String {
        switch value.kind {
        case .string:
            // Two bytes are the quotes; an escape always decodes to at least one byte.
            guard value.end - value.start > 2 else {
                throw JSONLineFailure(offset: value.start, field: field.key, problem: .emptyID)
            }
            let id = string(value)
            // Only an escape can put a NUL in: the scanner refuses raw control characters.
            if value.hasEscapes, id.utf8.contains(0) {
                throw JSONLineFailure(offset: value.start, field: field.key, problem: .nulInID)
            }
            return id
        case .number where value.isInteger && !value.isNegative:
            return String(decoding: UnsafeBufferPointer(rebasing: line[value.start ..< value.end]), as: UTF8.self)
        default:
            throw wrongType(field.key, value, expected: "a string (or a non-negative integer)")
        }
    }

    private mutating func optionalBool(_ field: RecordField) throws(JSONLineFailure) -> Bool? {
        guard let value = nonNullValue(field) else { return nil }
        switch value.kind {
        case .trueLiteral: return true
        case .falseLiteral: return false
        default: throw wrongType(field.key, value, expected: "true, false or null")
        }
    }

    /// A counter: absent or `null` is 0.
    private mutating func count(_ field: RecordField) throws(JSONLineFailure) -> Int {
        guard let value = nonNullValue(field) else { return 0 }
        guard value.kind == .number, value.isInteger, !value.isNegative else {
            throw wrongType(field.key, value, expected: "a non-negative integer")
        }
        var result = 0
        for position in value.start ..< value.end {
            // In bounds: start ..< end lies inside the line; the scanner saw only digits there.
            let (shifted, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(Int(line[position] &- UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else {
                throw JSONLineFailure(offset: value.start, field: field.key, problem: .numberTooLarge(source(value)))
            }
            result = sum
        }
        return result
    }

    private mutating func messageText() throws(JSONLineFailure) -> String {
        guard let value = value(.text) else { throw missing(.text) }
        guard value.kind == .string else { throw wrongType(RecordField.text.key, value, expected: "a string") }
        let limit = Self.maximumTextBytes
        // The raw length bounds the decoded length from above: escapes only shrink.
        if value.end - value.start - 2 <= limit { return string(value) }
        let text = string(value)
        let length = text.utf8.count
        guard length <= limit else {
            throw JSONLineFailure(offset: value.start, field: RecordField.text.key,
                                  problem: .textTooLong(bytes: length, limit: limit))
        }
        return text
    }

    /// A time in whole milliseconds since 1970, or `nil` when absent or `null`.
    private mutating func time(_ field: RecordField) throws(JSONLineFailure) -> Int64? {
        guard let value = nonNullValue(field) else { return nil }
        guard value.kind == .string else {
            throw wrongType(field.key, value, expected: "an RFC 3339 time in a string, e.g. \"2026-11-20T10:00:00Z\"")
        }
        let result: Result<Int64, RFC3339Time.Invalid>
        if value.hasEscapes {
            scratch.removeAll(keepingCapacity: true)
            JSONScanner.appendUnescaped(line, from: value.start + 1, to: value.end - 1, to: &scratch)
            result = scratch.withUnsafeBufferPointer { bytes in Self.parseTime(bytes) }
        } else {
            result = Self.parseTime(UnsafeBufferPointer(rebasing: line[value.start + 1 ..< value.end - 1]))
        }
        switch result {
        case let .success(milliseconds):
            return milliseconds
        case let .failure(invalid):
            throw JSONLineFailure(offset: value.start, field: field.key,
                                  problem: .invalidTime(value: string(value), reason: invalid.reason))
        }
    }

    private static func parseTime(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<Int64, RFC3339Time.Invalid> {
        do throws(RFC3339Time.Invalid) {
            return .success(try RFC3339Time.milliseconds(parsing: bytes))
        } catch {
            return .failure(error)
        }
    }

    private mutating func attachments() throws(JSONLineFailure) -> [Attachment] {
        guard let value = nonNullValue(.attachments) else { return [] }
        guard value.kind == .array else {
            throw wrongType(RecordField.attachments.key, value, expected: "an array of attachment objects ({\"kind\": …})")
        }
        var result: [Attachment] = []
        // The array was validated by the first pass; this pass only checks fields and types.
        var scanner = JSONScanner(line, at: value.start)
        try scanner.forEachElement(depth: 1) { (scanner: inout JSONScanner, index: Int) throws(JSONLineFailure) in
            result.append(try attachment(&scanner, index: index))
        }
        return result
    }

    private mutating func attachment(_ scanner: inout JSONScanner, index: Int) throws(JSONLineFailure) -> Attachment {
        func path(_ field: AttachmentField?) -> String {
            "attachments[\(index)]" + (field.map { "." + $0.key } ?? "")
        }
        scanner.skipWhitespace()
        guard scanner.current == UInt8(ascii: "{") else {
            let element = try scanner.scanValue(depth: 2)
            throw wrongType(path(nil), element, expected: "an object like {\"kind\": \"image\"}")
        }
        let objectStart = scanner.index
        var fields = [JSONSpan?](repeating: nil, count: AttachmentField.allCases.count)
        try scanner.forEachMember(depth: 2) { (scanner: inout JSONScanner, key: JSONSpan) throws(JSONLineFailure) in
            let field = key.hasEscapes
                ? matchEscapedKey(from: key.start + 1, to: key.end - 1, AttachmentField.match)
                : AttachmentField.match(UnsafeBufferPointer(rebasing: line[key.start + 1 ..< key.end - 1]))
            let value = try scanner.scanValue(depth: 2)
            guard let field else { return }
            if fields[field.rawValue] != nil {
                throw JSONLineFailure(offset: key.start, field: path(field), problem: .duplicateField)
            }
            fields[field.rawValue] = value
        }
        func optional(_ field: AttachmentField) throws(JSONLineFailure) -> String? {
            guard let value = fields[field.rawValue], value.kind != .null else { return nil }
            guard value.kind == .string else { throw wrongType(path(field), value, expected: "a string or null") }
            return string(value)
        }
        guard let kind = fields[AttachmentField.kind.rawValue] else {
            throw JSONLineFailure(offset: objectStart, field: path(.kind), problem: .missingField)
        }
        guard kind.kind == .string else { throw wrongType(path(.kind), kind, expected: "a string such as \"image\"") }
        return Attachment(kind: string(kind), url: try optional(.url), altText: try optional(.altText))
    }

    // MARK: Strings

    /// The string value, unescaped.
    private mutating func string(_ value: JSONSpan) -> String {
        JSONScanner.string(value, in: line, scratch: &scratch)
    }

    /// Whether the string value is `expected`, compared without making a `String` in the usual
    /// unescaped case.
    private mutating func isString(_ value: JSONSpan, _ expected: StaticString) -> Bool {
        guard value.hasEscapes else {
            return value.end - value.start - 2 == expected.utf8CodeUnitCount
                && RecordField.equal(UnsafeBufferPointer(rebasing: line[value.start + 1 ..< value.end - 1]), expected)
        }
        return string(value) == expected.description
    }

    /// The value's JSON text as written, for error messages (60 bytes of it at most).
    private func source(_ value: JSONSpan) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: line[value.start ..< min(value.end, value.start + 60)]), as: UTF8.self)
            + (value.end - value.start > 60 ? "…" : "")
    }

    // MARK: Failures

    private func missing(_ field: RecordField) -> JSONLineFailure {
        JSONLineFailure(offset: nil, field: field.key, problem: .missingField)
    }

    private mutating func wrongType(_ path: String, _ value: JSONSpan, expected: String) -> JSONLineFailure {
        let found = value.kind.found {
            value.kind == .string ? string(value) : String(decoding: UnsafeBufferPointer(rebasing: line[value.start ..< value.end]), as: UTF8.self)
        }
        return JSONLineFailure(offset: value.start, field: path, problem: .wrongType(expected: expected, found: found))
    }
}
