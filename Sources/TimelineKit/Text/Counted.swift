/// A number of things in words, as every message of TimelineKit and `timeline` says it:
/// `1 message`, `2 messages`, `47,625 messages`.
///
/// ```swift
/// print("Deleted \(Counted(1, "message")).")                     // Deleted 1 message.
/// print("\(Counted(12_000, "reply", plural: "replies")) stored")  // 12,000 replies stored
/// ```
///
/// Digits are grouped by threes with commas whatever the locale: the tool's words are English,
/// and a count read by a person is easier to take in grouped. Scripts read counts from `--json`.
public struct Counted: Sendable, Hashable, CustomStringConvertible {
    public let count: Int
    public let singular: String
    public let plural: String

    /// `plural` defaults to `singular` with an `s`.
    public init(_ count: Int, _ singular: String, plural: String? = nil) {
        self.count = count
        self.singular = singular
        self.plural = plural ?? singular + "s"
    }

    /// `1 message`; any other count, 0 and negative ones included, takes the plural.
    public var description: String {
        Self.grouped(count) + " " + (count == 1 ? singular : plural)
    }

    /// `number` with its digits grouped by threes: `47,625`, `-1,000`, `7`.
    public static func grouped(_ number: Int) -> String {
        let digits = Array(String(number.magnitude).utf8)
        var result: [UInt8] = number < 0 ? [UInt8(ascii: "-")] : []
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(UInt8(ascii: ",")) }
            result.append(digit)
        }
        return String(decoding: result, as: UTF8.self)
    }
}
