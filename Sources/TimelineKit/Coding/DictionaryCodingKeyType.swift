/// Recognises the key type of the keyed containers that the standard library's `Dictionary`
/// encodes itself into (`[String: V]`, `[Int: V]`, and `CodingKeyRepresentable` keys).
///
/// The binary format does not store the keys of ordinary keyed containers (synthesized Codable
/// reads them back in declaration order), but a dictionary's keys are data, and its
/// `init(from:)` asks the container for `allKeys`. Containers keyed by this type therefore get a
/// key table. The type is internal to the standard library, so it is found once by watching a
/// dictionary encode itself; recognising it afterwards costs one pointer comparison per container.
enum DictionaryCodingKeyType {
    /// Whether `Key` is the standard library's dictionary key type.
    @inline(__always)
    static func matches<Key: CodingKey>(_: Key.Type) -> Bool {
        ObjectIdentifier(Key.self) == identifier
    }

    private static let identifier: ObjectIdentifier? = {
        let probe = KeyTypeProbe()
        try? ["": 0].encode(to: probe)
        return probe.keyType
    }()
}

/// An encoder that records the key type of the first keyed container asked of it and otherwise
/// writes into a scratch `BinaryWriter` whose output is thrown away.
private final class KeyTypeProbe: Encoder {
    let scratch = BinaryWriter()
    var keyType: ObjectIdentifier?

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if keyType == nil { keyType = ObjectIdentifier(Key.self) }
        return scratch.positionalContainer(keyedBy: Key.self)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { scratch.unkeyedContainer() }

    func singleValueContainer() -> any SingleValueEncodingContainer { scratch.singleValueContainer() }
}
