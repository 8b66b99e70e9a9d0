/// The fields of an attachment object.
enum AttachmentField: Int, CaseIterable {
    case kind, url, altText

    var key: String {
        switch self {
        case .kind: "kind"
        case .url: "url"
        case .altText: "alt_text"
        }
    }

    static func match(_ key: UnsafeBufferPointer<UInt8>) -> AttachmentField? {
        switch key.count {
        case 3: RecordField.equal(key, "url") ? .url : nil
        case 4: RecordField.equal(key, "kind") ? .kind : nil
        case 8: RecordField.equal(key, "alt_text") ? .altText : nil
        default: nil
        }
    }
}
