/// Typed reading of one object of a Mastodon or Twitter document, with errors that name the
/// field by its JSON path (`[3].account.id`) and point at the value's place in the file.
///
/// The rules follow the JSON Lines import: unknown fields are ignored; a known field holding the
/// wrong kind of value is an error; `null` means the same as an absent field; IDs are strings,
/// or non-negative JSON integers kept as their exact digits.
struct JSONObjectView {
    let node: JSONNode
    /// The object's own path; `""` for a document's top level.
    let path: String

    /// `node` as an object, or an error saying that `expected` was wanted there.
    init(_ node: JSONNode, path: String, expected: String) throws(JSONLineFailure) {
        guard node.isObject else {
            throw JSONLineFailure(offset: node.offset, field: path.isEmpty ? nil : path,
                                  problem: .wrongType(expected: expected, found: node.described))
        }
        self.node = node
        self.path = path
    }

    /// The path of the member `key`.
    func path(_ key: String) -> String {
        path.isEmpty ? key : path + "." + key
    }

    /// The member `key`, or `nil` when it is absent or `null`.
    func field(_ key: String) -> JSONNode? {
        node[key]?.nonNull
    }

    func has(_ key: String) -> Bool { node.has(key) }

    // MARK: Failures

    func wrongType(_ key: String, _ value: JSONNode, expected: String) -> JSONLineFailure {
        JSONLineFailure(offset: value.offset, field: path(key), problem: .wrongType(expected: expected, found: value.described))
    }

    func missing(_ key: String) -> JSONLineFailure {
        JSONLineFailure(offset: node.offset, field: path(key), problem: .missingField)
    }

    /// An error about the whole object.
    func unexpected(_ detail: String) -> JSONLineFailure {
        JSONLineFailure(offset: node.offset, field: path.isEmpty ? nil : path, problem: .unexpectedContent(detail))
    }

    // MARK: Fields

    func object(_ key: String, expected: String) throws(JSONLineFailure) -> JSONObjectView? {
        guard let value = field(key) else { return nil }
        return try JSONObjectView(value, path: path(key), expected: expected)
    }

    func array(_ key: String, expected: String) throws(JSONLineFailure) -> [JSONNode]? {
        guard let value = field(key) else { return nil }
        guard let elements = value.arrayValue else { throw wrongType(key, value, expected: expected) }
        return elements
    }

    func string(_ key: String) throws(JSONLineFailure) -> String? {
        guard let value = field(key) else { return nil }
        guard let text = value.stringValue else { throw wrongType(key, value, expected: "a string or null") }
        return text
    }

    func requiredString(_ key: String) throws(JSONLineFailure) -> String {
        guard let text = try string(key) else { throw missing(key) }
        return text
    }

    func bool(_ key: String) throws(JSONLineFailure) -> Bool? {
        guard let value = field(key) else { return nil }
        guard case let .bool(flag) = value.value else { throw wrongType(key, value, expected: "true, false or null") }
        return flag
    }

    /// An ID: a non-empty string, or a non-negative integer taken as its digits exactly as
    /// written (Mastodon before 2.0 and Twitter's `id` send numbers beyond 2^53).
    func id(_ key: String) throws(JSONLineFailure) -> String? {
        guard let value = field(key) else { return nil }
        switch value.value {
        case let .string(text):
            guard !text.isEmpty else {
                throw JSONLineFailure(offset: value.offset, field: path(key), problem: .emptyID)
            }
            if text.utf8.contains(0) {
                throw JSONLineFailure(offset: value.offset, field: path(key), problem: .nulInID)
            }
            return text
        case let .number(digits, isInteger, isNegative) where isInteger && !isNegative:
            return digits
        default:
            throw wrongType(key, value, expected: "an ID: a string (or a non-negative integer)")
        }
    }

    func requiredID(_ key: String) throws(JSONLineFailure) -> String {
        guard let id = try id(key) else { throw missing(key) }
        return id
    }

    /// A counter: absent or `null` is 0. A string of digits counts too: Twitter archives write
    /// their counts that way.
    func count(_ key: String) throws(JSONLineFailure) -> Int {
        guard let value = field(key) else { return 0 }
        let digits: String
        switch value.value {
        case let .number(text, isInteger, isNegative) where isInteger && !isNegative:
            digits = text
        case let .string(text) where !text.isEmpty && text.utf8.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }):
            digits = text
        default:
            throw wrongType(key, value, expected: "a non-negative integer")
        }
        guard let number = Int(digits) else {
            throw JSONLineFailure(offset: value.offset, field: path(key), problem: .numberTooLarge(digits))
        }
        return number
    }

    /// A time in whole milliseconds since 1970, read by `parse`, which says why it refuses.
    func time(
        _ key: String, expected: String, _ parse: (String) -> Result<Int64, RFC3339Time.Invalid>
    ) throws(JSONLineFailure) -> Int64? {
        guard let value = field(key) else { return nil }
        guard let text = value.stringValue else { throw wrongType(key, value, expected: expected) }
        switch parse(text) {
        case let .success(milliseconds):
            return milliseconds
        case let .failure(invalid):
            throw JSONLineFailure(offset: value.offset, field: path(key), problem: .invalidTime(value: text, reason: invalid.reason))
        }
    }

    /// An RFC 3339 time, as Mastodon and Twitter's v2 API write them.
    func rfc3339Time(_ key: String) throws(JSONLineFailure) -> Int64? {
        try time(key, expected: "an RFC 3339 time in a string, e.g. \"2026-11-20T10:00:00Z\"", Self.parseRFC3339)
    }

    static func parseRFC3339(_ text: String) -> Result<Int64, RFC3339Time.Invalid> {
        var text = text
        return text.withUTF8 { bytes in
            do throws(RFC3339Time.Invalid) {
                return .success(try RFC3339Time.milliseconds(parsing: bytes))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Message text, held to the JSON Lines import's limit (or to `limit`: HTML content is held
    /// to its own before it is converted).
    func checkedText(_ text: String, key: String, limit: Int = JSONLineParser.maximumTextBytes) throws(JSONLineFailure) -> String {
        let length = text.utf8.count
        guard length <= limit else {
            throw JSONLineFailure(offset: field(key)?.offset ?? node.offset, field: path(key),
                                  problem: .textTooLong(bytes: length, limit: limit))
        }
        return text
    }
}
