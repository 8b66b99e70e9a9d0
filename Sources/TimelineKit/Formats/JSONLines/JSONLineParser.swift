/// Turns one line of a JSON Lines file into a `JSONLinesRecord`, or says precisely what is wrong
/// with it.
///
/// One pass over the line validates all of it and notes where each known field's value lies; the
/// record type is known only once the object is complete (`type` need not come first), so the
/// values are converted afterwards, each read once more at most, and only the fields the record
/// type uses become `String`s, by the field rules every import shares (`JSONFieldValue`). Reused
/// from line to line, so a file is parsed without per-line allocations other than the strings
/// kept.
struct JSONLineParser {
    /// Where each known field's value lies in the current line, valid for the bits set in
    /// `present`.
    private var values = [JSONSpan](repeating: JSONSpan(), count: RecordField.allCases.count)
    private var present: UInt32 = 0
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
        let line = line
        try scanner.forEachMember(depth: 1) { (scanner: inout JSONScanner, key: JSONSpan) throws(JSONLineFailure) in
            let field = JSONScanner.withUnescapedBytes(key, in: line, RecordField.match)
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
                if failure.field == nil { failure.field = field?.key ?? JSONScanner.string(key, in: line) }
                throw failure
            }
        }
    }

    // MARK: Records

    private func record() throws(JSONLineFailure) -> JSONLinesRecord {
        guard let type = value(.type) else { throw missing(.type) }
        guard type.kind == .string else {
            throw type.wrongType(at: RecordField.type.key, expected: "a string, \"user\" or \"message\"")
        }
        if type.withTextBytes({ Self.spells($0, "message") }) { return try message() }
        if type.withTextBytes({ Self.spells($0, "user") }) { return try user() }
        throw JSONLineFailure(offset: type.offset, field: RecordField.type.key, problem: .unknownRecordType(type.text))
    }

    private func user() throws(JSONLineFailure) -> JSONLinesRecord {
        .user(UserLimits.applied(to: User(
            id: try requiredID(.id),
            handle: try requiredString(.handle),
            name: try requiredString(.name),
            url: try optionalString(.url),
            isBot: try optionalBool(.bot) ?? false
        )))
    }

    private func message() throws(JSONLineFailure) -> JSONLinesRecord {
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
            isRead: read ?? false,
            visibility: try visibility(),
            source: try source(),
            links: try links()
        )
        return .message(message, readState: read == nil ? .keepStored : .overwrite)
    }

    // MARK: Fields

    /// The field's value, `null` included, or `nil` when the line does not have the field.
    @inline(__always)
    private func value(_ field: RecordField) -> JSONLineValue? {
        present & (1 << UInt32(field.rawValue)) != 0 ? JSONLineValue(span: values[field.rawValue], line: line) : nil
    }

    private func requiredString(_ field: RecordField) throws(JSONLineFailure) -> String {
        guard let value = value(field) else { throw missing(field) }
        return try value.requiredString(at: field.key)
    }

    private func optionalString(_ field: RecordField) throws(JSONLineFailure) -> String? {
        try value(field)?.string(at: field.key)
    }

    /// `source`: a source's name (`MessageSource`); absent or `null` is `import`.
    private func source() throws(JSONLineFailure) -> MessageSource {
        guard let name = try optionalString(.source) else { return .import }
        guard MessageSource.isValidName(name) else {
            throw JSONLineFailure(offset: value(.source)?.offset, field: RecordField.source.key, problem: .wrongType(
                expected: "a source's name (1 to 32 lowercase ASCII letters, digits and '-', starting with a letter)",
                found: QuotedValue.quoted(name)))
        }
        return MessageSource(unchecked: name)
    }

    /// `visibility`: `public`, `unlisted`, `private` or `direct`; absent or `null` is none.
    private func visibility() throws(JSONLineFailure) -> PostVisibility? {
        guard let name = try optionalString(.visibility) else { return nil }
        guard let visibility = PostVisibility(rawValue: name) else {
            throw JSONLineFailure(offset: value(.visibility)?.offset, field: RecordField.visibility.key, problem: .wrongType(
                expected: "a visibility: " + PostVisibility.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "),
                found: QuotedValue.quoted(name)))
        }
        return visibility
    }

    private func requiredID(_ field: RecordField) throws(JSONLineFailure) -> String {
        guard let value = value(field) else { throw missing(field) }
        return try value.requiredID(at: field.key)
    }

    private func optionalID(_ field: RecordField) throws(JSONLineFailure) -> String? {
        try value(field)?.id(at: field.key)
    }

    private func optionalBool(_ field: RecordField) throws(JSONLineFailure) -> Bool? {
        try value(field)?.bool(at: field.key)
    }

    /// A counter: absent or `null` is 0; a number, as the exporter writes it.
    private func count(_ field: RecordField) throws(JSONLineFailure) -> Int {
        try value(field)?.count(at: field.key, allowingDigitStrings: false) ?? 0
    }

    private func messageText() throws(JSONLineFailure) -> String {
        guard let value = value(.text) else { throw missing(.text) }
        return try MessageText.checked(try value.requiredString(at: RecordField.text.key), offset: value.offset, field: RecordField.text.key)
    }

    /// A time in whole milliseconds since 1970, or `nil` when absent or `null`.
    private func time(_ field: RecordField) throws(JSONLineFailure) -> Int64? {
        try value(field)?.rfc3339Time(at: field.key)
    }

    /// `links`: an array of strings; absent or `null` is none. The strings pass
    /// `MessageLinks`' rule as a server's would: what is not a web link is left out, not refused
    /// (an export of another version may know other links).
    private func links() throws(JSONLineFailure) -> [String] {
        guard let value = value(.links), value.kind != .null else { return [] }
        guard value.kind == .array else {
            throw value.wrongType(at: RecordField.links.key, expected: "an array of web addresses (strings)")
        }
        var result: [String] = []
        let line = line
        var scanner = JSONScanner(line, at: value.offset)
        try scanner.forEachElement(depth: 1) { (scanner: inout JSONScanner, index: Int) throws(JSONLineFailure) in
            let element = JSONLineValue(span: try scanner.scanValue(depth: 2), line: line)
            let key = "\(RecordField.links.key)[\(index)]"
            guard element.kind == .string else { throw element.wrongType(at: key, expected: "a string, a web address") }
            result.append(try element.requiredString(at: key))
        }
        return MessageLinks.kept(result)
    }

    private func attachments() throws(JSONLineFailure) -> [Attachment] {
        guard let value = value(.attachments), value.kind != .null else { return [] }
        guard value.kind == .array else {
            throw value.wrongType(at: RecordField.attachments.key, expected: "an array of attachment objects ({\"kind\": …})")
        }
        var result: [Attachment] = []
        // The array was validated by the first pass; this pass only checks fields and types.
        var scanner = JSONScanner(line, at: value.offset)
        try scanner.forEachElement(depth: 1) { (scanner: inout JSONScanner, index: Int) throws(JSONLineFailure) in
            result.append(try attachment(&scanner, index: index))
        }
        return result
    }

    private func attachment(_ scanner: inout JSONScanner, index: Int) throws(JSONLineFailure) -> Attachment {
        func path(_ field: AttachmentField?) -> String {
            "attachments[\(index)]" + (field.map { "." + $0.key } ?? "")
        }
        let line = line
        scanner.skipWhitespace()
        guard scanner.current == UInt8(ascii: "{") else {
            let element = JSONLineValue(span: try scanner.scanValue(depth: 2), line: line)
            throw element.wrongType(at: path(nil), expected: "an object like {\"kind\": \"image\"}")
        }
        let objectStart = scanner.index
        var fields = [JSONLineValue?](repeating: nil, count: AttachmentField.allCases.count)
        try scanner.forEachMember(depth: 2) { (scanner: inout JSONScanner, key: JSONSpan) throws(JSONLineFailure) in
            let field = JSONScanner.withUnescapedBytes(key, in: line, AttachmentField.match)
            let value = try scanner.scanValue(depth: 2)
            guard let field else { return }
            if fields[field.rawValue] != nil {
                throw JSONLineFailure(offset: key.start, field: path(field), problem: .duplicateField)
            }
            fields[field.rawValue] = JSONLineValue(span: value, line: line)
        }
        guard let kind = fields[AttachmentField.kind.rawValue] else {
            throw JSONLineFailure(offset: objectStart, field: path(.kind), problem: .missingField)
        }
        guard kind.kind == .string else { throw kind.wrongType(at: path(.kind), expected: "a string such as \"image\"") }
        return Attachment(
            kind: kind.text,
            url: try fields[AttachmentField.url.rawValue]?.string(at: path(.url)),
            altText: try fields[AttachmentField.altText.rawValue]?.string(at: path(.altText)))
    }

    private static func spells(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        bytes.count == word.utf8CodeUnitCount && RecordField.equal(bytes, word)
    }

    // MARK: Failures

    private func missing(_ field: RecordField) -> JSONLineFailure {
        JSONLineFailure(offset: nil, field: field.key, problem: .missingField)
    }
}
