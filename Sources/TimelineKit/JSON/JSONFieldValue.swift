/// A value found in a field of a JSON object, whichever reader found it: a span of a JSON Lines
/// line (`JSONLineValue`) or a node of a Mastodon or Twitter document's tree (`JSONNode`).
///
/// The typed rules every import follows are written once, in this protocol's extension:
/// - `null` means the same as an absent field where a field is optional (the readers return
///   `nil`, a counter 0); where it is required, `null` is the wrong kind of value;
/// - a known field holding the wrong kind of value is an error that says what was expected and
///   what was found;
/// - an ID is a non-empty string without NUL, or a non-negative JSON integer kept as its exact
///   digits (Mastodon before 2.0 and Twitter's `id` send numbers beyond 2^53);
/// - a counter is a non-negative integer; in servers' documents a string of digits too (Twitter
///   archives write them so), while JSON Lines, our own format, is held to numbers;
/// - a time is a string its format's parser accepts;
///
/// `path` is the field's name as an error message gives it (`likes`, `[3].account.id`); it is
/// made only when there is an error to report.
protocol JSONFieldValue {
    var kind: JSONSpan.Kind { get }
    /// The offset of the value's first byte in the input.
    var offset: Int { get }
    /// For numbers: no fraction, no exponent, no minus sign.
    var isNonNegativeInteger: Bool { get }
    /// A string's content, unescaped, or a number's text as written; meaningless for the others.
    var text: String { get }
    /// Calls `body` with the bytes of `text`, without making a `String` where the reader can
    /// avoid it.
    func withTextBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result
    /// Whether a string could hold a NUL: only an escape can put one in (the scanner refuses raw
    /// control characters), so a reader that knows there was none spares the search.
    var mayHoldNUL: Bool { get }
}

extension JSONFieldValue {
    /// A string, or `nil` for `null`.
    func string(at path: @autoclosure () -> String) throws(JSONLineFailure) -> String? {
        switch kind {
        case .null: return nil
        case .string: return text
        default: throw wrongType(at: path(), expected: "a string or null")
        }
    }

    /// A string; `null` is the wrong type here (the caller has dealt with an absent field).
    func requiredString(at path: @autoclosure () -> String) throws(JSONLineFailure) -> String {
        guard let text = try string(at: path()) else { throw wrongType(at: path(), expected: "a string") }
        return text
    }

    /// An ID, or `nil` for `null`.
    func id(at path: @autoclosure () -> String) throws(JSONLineFailure) -> String? {
        switch kind {
        case .null:
            return nil
        case .string:
            let id = text
            guard !id.isEmpty else { throw JSONLineFailure(offset: offset, field: path(), problem: .emptyID) }
            if mayHoldNUL, id.utf8.contains(0) { throw JSONLineFailure(offset: offset, field: path(), problem: .nulInID) }
            return id
        case .number where isNonNegativeInteger:
            return text
        default:
            throw wrongType(at: path(), expected: Self.expectedID)
        }
    }

    /// An ID; `null` is the wrong type here (the caller has dealt with an absent field).
    func requiredID(at path: @autoclosure () -> String) throws(JSONLineFailure) -> String {
        guard let id = try id(at: path()) else { throw wrongType(at: path(), expected: Self.expectedID) }
        return id
    }

    private static var expectedID: String { "an ID: a string (or a non-negative integer)" }

    /// `true` or `false`, or `nil` for `null`.
    func bool(at path: @autoclosure () -> String) throws(JSONLineFailure) -> Bool? {
        switch kind {
        case .null: return nil
        case .trueLiteral: return true
        case .falseLiteral: return false
        default: throw wrongType(at: path(), expected: "true, false or null")
        }
    }

    /// A counter; `null` is 0. `allowingDigitStrings` accepts `"12"` as well as `12`.
    func count(at path: @autoclosure () -> String, allowingDigitStrings: Bool) throws(JSONLineFailure) -> Int {
        switch kind {
        case .null:
            return 0
        case .number where isNonNegativeInteger, .string where allowingDigitStrings:
            // Read from the bytes: no `String` for a number, and no generic parse.
            switch withTextBytes(Self.decimalValue) {
            case let .some(.some(number)):
                return number
            case .some(.none):
                // Only digits got here: safe to print as they are, cut to a readable length.
                let digits = text
                let shown = digits.count > 60 ? digits.prefix(60) + "…" : digits
                throw JSONLineFailure(offset: offset, field: path(), problem: .numberTooLarge(shown))
            case .none:
                break
            }
        default:
            break
        }
        throw wrongType(at: path(), expected: "a non-negative integer")
    }

    /// The value of a run of decimal digits: `nil` when `bytes` is empty or holds anything else,
    /// `.some(nil)` when it is beyond `Int`.
    private static func decimalValue(_ bytes: UnsafeBufferPointer<UInt8>) -> Int?? {
        guard !bytes.isEmpty else { return nil }
        var result = 0
        for byte in bytes {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (shifted, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(Int(digit))
            guard !overflow1, !overflow2 else { return .some(nil) }
            result = sum
        }
        return .some(result)
    }

    /// A time in whole milliseconds since 1970 read from a string by `parse`, which says why it
    /// refuses one; `nil` for `null`. `expected` shows the format by example.
    func time(
        at path: @autoclosure () -> String, expected: String,
        _ parse: (UnsafeBufferPointer<UInt8>) -> Result<Int64, RFC3339Time.Invalid>
    ) throws(JSONLineFailure) -> Int64? {
        switch kind {
        case .null:
            return nil
        case .string:
            switch withTextBytes(parse) {
            case let .success(milliseconds):
                return milliseconds
            case let .failure(invalid):
                throw JSONLineFailure(offset: offset, field: path(), problem: .invalidTime(value: text, reason: invalid.reason))
            }
        default:
            throw wrongType(at: path(), expected: expected)
        }
    }

    /// An RFC 3339 time (JSON Lines, Mastodon, Twitter's v2 API), or `nil` for `null`.
    func rfc3339Time(at path: @autoclosure () -> String) throws(JSONLineFailure) -> Int64? {
        try time(at: path(), expected: "an RFC 3339 time in a string, e.g. \"2026-11-20T10:00:00Z\"", RFC3339Time.parse)
    }

    /// How an error message names this value where another kind was expected.
    var found: String { kind.found { text } }

    func wrongType(at path: String, expected: String) -> JSONLineFailure {
        JSONLineFailure(offset: offset, field: path, problem: .wrongType(expected: expected, found: found))
    }
}

/// A value of one JSON Lines line: where the scanner found it, and the line to read it from.
struct JSONLineValue: JSONFieldValue {
    let span: JSONSpan
    let line: UnsafeBufferPointer<UInt8>

    var kind: JSONSpan.Kind { span.kind }
    var offset: Int { span.start }
    var isNonNegativeInteger: Bool { span.isInteger && !span.isNegative }

    var text: String {
        span.kind == .string
            ? JSONScanner.string(span, in: line)
            : String(decoding: UnsafeBufferPointer(rebasing: line[span.start ..< span.end]), as: UTF8.self)
    }

    func withTextBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        span.kind == .string
            ? JSONScanner.withUnescapedBytes(span, in: line, body)
            : body(UnsafeBufferPointer(rebasing: line[span.start ..< span.end]))
    }

    var mayHoldNUL: Bool { span.hasEscapes }
}

extension JSONNode: JSONFieldValue {
    var kind: JSONSpan.Kind {
        switch value {
        case .null: .null
        case let .bool(flag): flag ? .trueLiteral : .falseLiteral
        case .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    var isNonNegativeInteger: Bool {
        if case .number(_, isInteger: true, isNegative: false) = value { return true }
        return false
    }

    var text: String {
        switch value {
        case let .string(text), let .number(text, _, _): text
        default: ""
        }
    }

    func withTextBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var text = text
        return text.withUTF8(body)
    }

    var mayHoldNUL: Bool { true }
}
