/// Where a scanned JSON value lies in the bytes, with what a later conversion needs to know
/// without scanning it again: a span of the input, not a value (`JSONNode` is a parsed value).
struct JSONSpan {
    /// The kind of a JSON value, as error messages name it.
    enum Kind: UInt8 {
        case string, number, trueLiteral, falseLiteral, null, array, object
    }

    var kind: Kind = .null
    /// The first byte of the value (the opening quote of a string).
    var start = 0
    /// One past the last byte (past the closing quote of a string).
    var end = 0
    /// For strings: whether a backslash escape occurs, so the bytes cannot be used as they are.
    var hasEscapes = false
    /// For numbers: no fraction and no exponent.
    var isInteger = false
    /// For numbers: a leading minus sign.
    var isNegative = false
}

extension JSONSpan.Kind {
    /// How an error message names a value of this kind where another was expected: `a string,
    /// "abc"`, `the number 12`, `an array`; `text` gives a string's content or a number as
    /// written. The one wording of every reader (JSON Lines, Mastodon, Twitter).
    func found(_ text: () -> String) -> String {
        switch self {
        case .string: return "a string, \(QuotedValue.quoted(text()))"
        case .number:
            let number = text()
            return "the number \(number.prefix(60))" + (number.count > 60 ? "…" : "")
        case .trueLiteral: return "true"
        case .falseLiteral: return "false"
        case .null: return "null"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
