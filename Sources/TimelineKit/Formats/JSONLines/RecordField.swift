#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The top-level fields that user and message lines know, recognised straight from the key's
/// bytes: no `String` is made for a key.
enum RecordField: Int, CaseIterable {
    case type, id, handle, name, url, bot
    case author, text, createdAt, editedAt, replyTo, replyToUser, repostOf, quoteOf
    case likes, reposts, replies, read, contentWarning, attachments

    /// The key as the file spells it, used in error messages as the field's path.
    var key: String {
        switch self {
        case .type: "type"
        case .id: "id"
        case .handle: "handle"
        case .name: "name"
        case .url: "url"
        case .bot: "bot"
        case .author: "author"
        case .text: "text"
        case .createdAt: "created_at"
        case .editedAt: "edited_at"
        case .replyTo: "reply_to"
        case .replyToUser: "reply_to_user"
        case .repostOf: "repost_of"
        case .quoteOf: "quote_of"
        case .likes: "likes"
        case .reposts: "reposts"
        case .replies: "replies"
        case .read: "read"
        case .contentWarning: "content_warning"
        case .attachments: "attachments"
        }
    }

    /// The field a key names, or `nil` for a key this version does not know (ignored, so that
    /// newer files still import).
    static func match(_ key: UnsafeBufferPointer<UInt8>) -> RecordField? {
        // Switching on the length first leaves at most three candidates to compare.
        switch key.count {
        case 2: return equal(key, "id") ? .id : nil
        case 3: return equal(key, "url") ? .url : equal(key, "bot") ? .bot : nil
        case 4:
            return equal(key, "type") ? .type : equal(key, "text") ? .text
                : equal(key, "name") ? .name : equal(key, "read") ? .read : nil
        case 5: return equal(key, "likes") ? .likes : nil
        case 6: return equal(key, "author") ? .author : equal(key, "handle") ? .handle : nil
        case 7: return equal(key, "reposts") ? .reposts : equal(key, "replies") ? .replies : nil
        case 8: return equal(key, "reply_to") ? .replyTo : equal(key, "quote_of") ? .quoteOf : nil
        case 9: return equal(key, "edited_at") ? .editedAt : equal(key, "repost_of") ? .repostOf : nil
        case 10: return equal(key, "created_at") ? .createdAt : nil
        case 11: return equal(key, "attachments") ? .attachments : nil
        case 13: return equal(key, "reply_to_user") ? .replyToUser : nil
        case 15: return equal(key, "content_warning") ? .contentWarning : nil
        default: return nil
        }
    }

    /// Whether `key` spells `name`. Callers pass only keys of `name`'s length.
    @inline(__always)
    static func equal(_ key: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        // In bounds: both buffers hold name.utf8CodeUnitCount bytes (checked by the caller's
        // switch on key.count), and a non-empty buffer has a base address.
        memcmp(key.baseAddress!, name.utf8Start, name.utf8CodeUnitCount) == 0
    }
}
