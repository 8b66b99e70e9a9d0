/// Typed reading of one object of a Mastodon or Twitter document, with errors that name the
/// field by its JSON path (`[3].account.id`) and point at the value's place in the file.
///
/// Unknown fields are ignored; known ones are read by the rules every import shares
/// (`JSONFieldValue`), the JSON Lines import's included.
struct JSONObjectView {
    let node: JSONNode
    /// The object's own path; `""` for a document's top level.
    let path: String

    /// `node` as an object, or an error saying that `expected` was wanted there.
    init(_ node: JSONNode, path: String, expected: String) throws(JSONLineFailure) {
        guard node.isObject else {
            throw JSONLineFailure(offset: node.offset, field: path.isEmpty ? nil : path,
                                  problem: .wrongType(expected: expected, found: node.found))
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
        value.wrongType(at: path(key), expected: expected)
    }

    func missing(_ key: String) -> JSONLineFailure {
        JSONLineFailure(offset: node.offset, field: path(key), problem: .missingField)
    }

    /// An error about the whole object.
    func unexpected(_ detail: String) -> JSONLineFailure {
        JSONLineFailure(offset: node.offset, field: path.isEmpty ? nil : path, problem: .unexpectedContent(detail))
    }

    // MARK: Fields, read by the rules every import shares (`JSONFieldValue`)

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
        try node[key]?.string(at: path(key))
    }

    func requiredString(_ key: String) throws(JSONLineFailure) -> String {
        guard let value = node[key] else { throw missing(key) }
        return try value.requiredString(at: path(key))
    }

    func bool(_ key: String) throws(JSONLineFailure) -> Bool? {
        try node[key]?.bool(at: path(key))
    }

    func id(_ key: String) throws(JSONLineFailure) -> String? {
        try node[key]?.id(at: path(key))
    }

    func requiredID(_ key: String) throws(JSONLineFailure) -> String {
        guard let value = node[key] else { throw missing(key) }
        return try value.requiredID(at: path(key))
    }

    /// A counter: absent or `null` is 0. A string of digits counts too: Twitter archives write
    /// their counts that way, and a server's quirk should not stop a sync.
    func count(_ key: String) throws(JSONLineFailure) -> Int {
        try node[key]?.count(at: path(key), allowingDigitStrings: true) ?? 0
    }

    /// A time in whole milliseconds since 1970, read by `parse`, which says why it refuses.
    func time(
        _ key: String, expected: String, _ parse: (UnsafeBufferPointer<UInt8>) -> Result<Int64, RFC3339Time.Invalid>
    ) throws(JSONLineFailure) -> Int64? {
        try node[key]?.time(at: path(key), expected: expected, parse)
    }

    /// An RFC 3339 time, as Mastodon and Twitter's v2 API write them.
    func rfc3339Time(_ key: String) throws(JSONLineFailure) -> Int64? {
        try node[key]?.rfc3339Time(at: path(key))
    }
}
