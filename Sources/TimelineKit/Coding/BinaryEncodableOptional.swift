/// `Optional`, as seen by `BinaryWriter.encodeValue`: written as a presence byte (0 absent,
/// 1 present) and, when present, the wrapped value. `Optional`'s own `encode(to:)` cannot be used
/// because it writes a present value with no marker in front of it.
protocol BinaryEncodableOptional {
    func encodePresenceAndValue(to writer: BinaryWriter) throws
}

extension Optional: BinaryEncodableOptional where Wrapped: Encodable {
    func encodePresenceAndValue(to writer: BinaryWriter) throws {
        switch self {
        case .none:
            writer.writePresence(false)
        case .some(let wrapped):
            writer.writePresence(true)
            try writer.encodeValue(wrapped)
        }
    }
}
