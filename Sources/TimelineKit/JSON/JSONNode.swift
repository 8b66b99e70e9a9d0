/// One parsed JSON value, with the byte offset where it starts in the input so that an error
/// about it can name its line and column.
///
/// The JSON Lines import never builds these (it reads fields straight from the line's bytes); the
/// API decoders do, because Mastodon and Twitter objects nest statuses inside statuses and are
/// read field by field in whatever order the server wrote them.
///
/// Public so that a source outside TimelineKit reads JSON with the same strict reader and the
/// same error sentences (issue 35: the feeds target reads JSON Feed with it). Make one with
/// ``init(parsing:)``:
///
/// ```swift
/// let feed = try JSONNode(parsing: Array(#"{"title": "News", "items": []}"#.utf8))
/// let title = feed["title"]?.stringValue  // "News"
/// ```
public struct JSONNode: Sendable {
    /// What a JSON value is, with its contents.
    public enum Value: Sendable {
        case null
        case bool(Bool)
        /// The number exactly as written: IDs must keep every digit.
        case number(String, isInteger: Bool, isNegative: Bool)
        case string(String)
        case array([JSONNode])
        /// Members in the order written.
        case object([(key: String, value: JSONNode)])
    }

    /// The value and, for arrays and objects, what they hold.
    public var value: Value
    /// The offset of the value's first byte in the input.
    public var offset: Int

    /// The member `key` of an object; `nil` for a missing key or a value that is not an object.
    /// A key written twice gives its last value, as most JSON readers (and servers) do.
    public subscript(key: String) -> JSONNode? {
        guard case let .object(members) = value else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// Whether this is an object holding `key` (with any value, `null` included).
    func has(_ key: String) -> Bool { self[key] != nil }

    /// The value, or `nil` when it is `null`.
    public var nonNull: JSONNode? {
        if case .null = value { return nil }
        return self
    }

    var isObject: Bool {
        if case .object = value { return true }
        return false
    }

    /// The string, when this is one.
    public var stringValue: String? {
        if case let .string(text) = value { return text }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONNode]? {
        if case let .array(elements) = value { return elements }
        return nil
    }

    /// The elements of this array, or a failure that says what was `expected` here (`an array
    /// of lists`) and what came instead: a server's answer that must be a list.
    func elements(expected: String) throws(JSONLineFailure) -> [JSONNode] {
        guard let elements = arrayValue else {
            throw JSONLineFailure(offset: offset, field: nil, problem: .wrongType(expected: expected, found: found))
        }
        return elements
    }
}
