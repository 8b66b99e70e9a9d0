/// One step of the path that `BinaryDecodingError` reports: a field name or an array index.
///
/// Codable's own keys (`any CodingKey`) are not `Sendable`, so the errors keep this copy of each
/// key's string and integer values instead.
public struct BinaryCodingKey: CodingKey, Sendable, Hashable, CustomStringConvertible {
    public let stringValue: String
    public let intValue: Int?

    public init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    /// An array index (or an integer dictionary key).
    public init(intValue: Int) {
        self.stringValue = "Index \(intValue)"
        self.intValue = intValue
    }

    /// A copy of any coding key.
    public init(_ key: any CodingKey) {
        self.stringValue = key.stringValue
        self.intValue = key.intValue
    }

    /// The key as it appears in a rendered path: `name` or `[index]`.
    public var description: String {
        if let intValue, stringValue == "Index \(intValue)" { return "[\(intValue)]" }
        return stringValue
    }

    /// A path rendered like `window.messages[3].text`, or `top level` for the empty path.
    static func render(_ path: [BinaryCodingKey]) -> String {
        guard !path.isEmpty else { return "top level" }
        var text = ""
        for key in path {
            let part = key.description
            if !text.isEmpty && !part.hasPrefix("[") { text += "." }
            text += part
        }
        return text
    }
}

/// The key of an array element in an error's path, making its string only when asked.
struct IndexCodingKey: CodingKey {
    let index: Int

    init(_ index: Int) { self.index = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.index = intValue }

    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }
}
