/// Where a scanned value lies in the line, with what a later conversion needs to know without
/// scanning it again.
struct JSONValue {
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
