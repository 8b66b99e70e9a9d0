import Testing
@testable import TimelineKit

/// The JSON Lines fields are declared once, as cases whose keys are their names in snake_case;
/// the tables made from them must spell every key as the format does and recognise exactly those
/// keys, byte for byte.
@Suite("Field key tables")
struct FieldKeyTableTests {
    private func record(_ key: String) -> RecordField? {
        var key = key
        return key.withUTF8 { RecordField.match($0) }
    }

    private func attachment(_ key: String) -> AttachmentField? {
        var key = key
        return key.withUTF8 { AttachmentField.match($0) }
    }

    /// The keys as docs/import-formats.md spells them, in declaration order.
    @Test func testEveryRecordKeyIsSpeltAsTheFormatSpellsItAndNamesItsField() {
        let keys = ["type", "id", "handle", "name", "url", "bot", "author", "text", "created_at", "edited_at",
                    "reply_to", "reply_to_user", "repost_of", "quote_of", "likes", "reposts", "replies", "read",
                    "content_warning", "attachments", "source", "visibility", "links"]
        #expect(RecordField.allCases.map(\.key) == keys)
        for (index, field) in RecordField.allCases.enumerated() {
            #expect(record(field.key) == field)
            #expect(field.rawValue == index)
        }
    }

    @Test func testEveryAttachmentKeyIsSpeltAsTheFormatSpellsItAndNamesItsField() {
        #expect(AttachmentField.allCases.map(\.key) == ["kind", "url", "alt_text"])
        for field in AttachmentField.allCases {
            #expect(attachment(field.key) == field)
        }
    }

    /// Same lengths as known keys but other bytes, the Swift spelling of a key, prefixes, longer
    /// keys and the empty key are no field.
    @Test func testNearMissesAreUnknownKeys() {
        for key in ["", "i", "ID", "idx", "txet", "reposts ", "repliez", "createdAt", "created_", "created_at_",
                    "content_warnings", "reply_to_usex", "altText", "alt-text"] {
            #expect(record(key) == nil, "\(key)")
            #expect(attachment(key) == nil, "\(key)")
        }
        #expect(record("kind") == nil)
        #expect(attachment("text") == nil)
    }
}
