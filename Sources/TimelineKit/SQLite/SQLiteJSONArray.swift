/// A list of strings passed to SQL as one parameter, a JSON array that the statement reads with
/// `json_each(?)`. This is how a list of 10,000 IDs becomes one statement instead of 10,000
/// (SQLite has no array parameters; `carray` is an extension that system builds do not include).
///
/// A string holding U+0000 is left out: SQLite's JSON functions end a string at its first NUL, so
/// `"a\u0000b"` would match the ID `a`. No stored ID holds one (`TimelineTransaction` refuses
/// them), so such a string matches nothing, as it should; `leftOut` keeps them for callers that
/// report what matched nothing.
struct SQLiteJSONArray {
    let json: String
    /// How many strings were given, those left out included.
    let count: Int
    /// The strings left out because they hold U+0000, in the order given.
    let leftOut: [String]

    init(_ strings: some Sequence<String>) {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        var count = 0
        var leftOut: [String] = []
        for string in strings {
            count += 1
            if string.utf8.contains(0) {
                leftOut.append(string)
                continue
            }
            if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
            JSONLineEncoder.appendString(string, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
        json = String(decoding: bytes, as: UTF8.self)
        self.count = count
        self.leftOut = leftOut
    }
}

extension SQLiteStatement {
    func bind(_ array: SQLiteJSONArray, at index: Int32) throws(SQLiteError) {
        try bind(array.json, at: index)
    }
}
