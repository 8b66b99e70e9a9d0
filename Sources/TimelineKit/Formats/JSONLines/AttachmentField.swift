/// The fields of an attachment object, each declared once, as a case: its key is the case's
/// name in snake_case (see `FieldKeyTable`).
enum AttachmentField: Int, CaseIterable {
    case kind, url, altText

    private static let table = FieldKeyTable<AttachmentField>()

    var key: String { Self.table.keys[rawValue] }

    static func match(_ key: UnsafeBufferPointer<UInt8>) -> AttachmentField? {
        table.field(forKey: key)
    }
}
