#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The top-level fields that user and message lines know, each declared once, as a case: its key
/// is the case's name in snake_case (see `FieldKeyTable`).
enum RecordField: Int, CaseIterable {
    case type, id, handle, name, url, bot
    case author, text, createdAt, editedAt, replyTo, replyToUser, repostOf, quoteOf
    case likes, reposts, replies, read, contentWarning, attachments
    // Issue 35: where the message came from, and who may see it (issue 34's fact), which
    // `export` writes so that an import of an export gives the same messages.
    case source, visibility
    // Issue 37: the message's web links, which its text may not spell out.
    case links

    private static let table = FieldKeyTable<RecordField>()

    /// The key as the file spells it, used in error messages as the field's path.
    var key: String { Self.table.keys[rawValue] }

    /// The field a key names, or `nil` for a key this version does not know (ignored, so that
    /// newer files still import).
    static func match(_ key: UnsafeBufferPointer<UInt8>) -> RecordField? {
        table.field(forKey: key)
    }

    /// Whether `key` spells `name`. Callers pass only keys of `name`'s length.
    @inline(__always)
    static func equal(_ key: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        // In bounds: both buffers hold name.utf8CodeUnitCount bytes (checked by the caller's
        // switch on key.count), and a non-empty buffer has a base address.
        memcmp(key.baseAddress!, name.utf8Start, name.utf8CodeUnitCount) == 0
    }
}
