/// A list of strings passed to SQL as one parameter, a JSON array that the statement reads with
/// `json_each(?)`. This is how a list of 10,000 IDs becomes one statement instead of 10,000
/// (SQLite has no array parameters; `carray` is an extension that system builds do not include).
struct SQLiteJSONArray {
    let json: String

    init(_ strings: some Sequence<String>) {
        var json = "["
        var first = true
        for string in strings {
            if !first { json += "," }
            first = false
            Self.appendQuoted(string, to: &json)
        }
        json += "]"
        self.json = json
    }

    /// Appends `string` as a JSON string literal (RFC 8259: quote, backslash and controls escaped).
    private static func appendQuoted(_ string: String, to json: inout String) {
        json += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": json += "\\\""
            case "\\": json += "\\\\"
            case "\u{0}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                json += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: json.unicodeScalars.append(scalar)
            }
        }
        json += "\""
    }
}

extension SQLiteStatement {
    func bind(_ array: SQLiteJSONArray, at index: Int32) throws(SQLiteError) {
        try bind(array.json, at: index)
    }
}
