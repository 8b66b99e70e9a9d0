/// A coding key as the binary format stores it, in the two places where it stores keys at all:
/// in front of a nested container opened by key (so that `allKeys` can tell which case of an enum
/// with associated values follows), and in a dictionary's key table.
///
/// Layout: a tag byte, then either `0` + string (varint byte length, UTF-8) or `1` + zigzag
/// varint. The integer form is used only when it loses nothing: when the key's string is exactly
/// its integer's decimal text, as for `Dictionary<Int, _>` keys.
enum StoredKey: Equatable {
    case string(String)
    case int(Int)

    static let stringTag: UInt8 = 0
    static let intTag: UInt8 = 1

    init(_ key: some CodingKey) {
        if let int = key.intValue, key.stringValue == String(int) {
            self = .int(int)
        } else {
            self = .string(key.stringValue)
        }
    }

    /// Whether `key` is the key stored here.
    func matches(_ key: some CodingKey) -> Bool {
        switch self {
        case .string(let string): key.stringValue == string
        case .int(let int): key.intValue == int
        }
    }

    /// The stored key as a key of type `Key`, or `nil` if `Key` has no such key.
    func key<Key: CodingKey>(_: Key.Type) -> Key? {
        switch self {
        case .string(let string): Key(stringValue: string)
        case .int(let int): Key(intValue: int)
        }
    }

    /// The key's text, for error messages.
    var text: String {
        switch self {
        case .string(let string): string
        case .int(let int): String(int)
        }
    }

    func append(to bytes: inout [UInt8]) {
        switch self {
        case .string(let string):
            bytes.append(Self.stringTag)
            BinaryWriter.appendString(string, to: &bytes)
        case .int(let int):
            bytes.append(Self.intTag)
            BinaryWriter.appendVarint(BinaryWriter.zigzag(Int64(int)), to: &bytes)
        }
    }
}
