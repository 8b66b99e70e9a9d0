/// Writes users and messages as the JSON objects of the import format, into UTF-8 bytes.
///
/// The output is canonical, so that export, import and export again give identical bytes: fields
/// in a fixed order, absent optionals left out (never `null`), `likes`, `reposts`, `replies`,
/// `read` and `bot` always written, `source` only when it is not `import` (the import's
/// default), times in UTC with milliseconds only when not zero.
///
/// Strings escape `"`, `\`, every C0 control character, DEL, the C1 controls U+0080–U+009F
/// and U+2028/U+2029, so a record is always one line and never carries a raw terminal escape
/// (`\u001b`, or U+009B, which some terminals take for CSI). Everything else, non-ASCII
/// included, is written as UTF-8.
package enum JSONLineEncoder {
    static func appendUser(_ user: User, to bytes: inout [UInt8]) {
        append("{\"type\":\"user\",\"id\":", to: &bytes)
        appendString(user.id, to: &bytes)
        append(",\"handle\":", to: &bytes)
        appendString(user.handle, to: &bytes)
        append(",\"name\":", to: &bytes)
        appendString(user.name, to: &bytes)
        appendOptional("url", user.url, to: &bytes)
        append(user.isBot ? ",\"bot\":true}" : ",\"bot\":false}", to: &bytes)
    }

    /// The message's object; with `author`, an extra `"user"` field holds the author's user
    /// object (`null` when `author` is `.some(nil)`).
    static func appendMessage(_ message: Message, author: User?? = nil, interaction: MessageInteraction? = nil, to bytes: inout [UInt8]) {
        append("{\"type\":\"message\",\"id\":", to: &bytes)
        appendString(message.id, to: &bytes)
        append(",\"author\":", to: &bytes)
        appendString(message.authorID, to: &bytes)
        append(",\"text\":", to: &bytes)
        appendString(message.text, to: &bytes)
        append(",\"created_at\":\"", to: &bytes)
        RFC3339Time.append(milliseconds: MillisecondTime.milliseconds(from: message.createdAt), to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        if let editedAt = message.editedAt {
            append(",\"edited_at\":\"", to: &bytes)
            RFC3339Time.append(milliseconds: MillisecondTime.milliseconds(from: editedAt), to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        }
        appendOptional("reply_to", message.replyToID, to: &bytes)
        appendOptional("reply_to_user", message.replyToUserID, to: &bytes)
        appendOptional("repost_of", message.repostOfID, to: &bytes)
        appendOptional("quote_of", message.quoteOfID, to: &bytes)
        appendOptional("content_warning", message.contentWarning, to: &bytes)
        appendOptional("url", message.url, to: &bytes)
        if !message.attachments.isEmpty {
            append(",\"attachments\":[", to: &bytes)
            for (index, attachment) in message.attachments.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                append("{\"kind\":", to: &bytes)
                appendString(attachment.kind, to: &bytes)
                appendOptional("url", attachment.url, to: &bytes)
                appendOptional("alt_text", attachment.altText, to: &bytes)
                bytes.append(UInt8(ascii: "}"))
            }
            bytes.append(UInt8(ascii: "]"))
        }
        // Issue 37: its web links, for `show --json` and `export` alike (the import reads them
        // back); left out when there are none, as nearly always.
        if !message.links.isEmpty {
            append(",\"links\":[", to: &bytes)
            for (index, link) in message.links.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                appendString(link, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        }
        append(",\"likes\":", to: &bytes)
        appendInteger(message.likeCount, to: &bytes)
        append(",\"reposts\":", to: &bytes)
        appendInteger(message.repostCount, to: &bytes)
        append(",\"replies\":", to: &bytes)
        appendInteger(message.replyCount, to: &bytes)
        append(message.isRead ? ",\"read\":true" : ",\"read\":false", to: &bytes)
        if let author {
            append(",\"user\":", to: &bytes)
            if let author { appendUser(author, to: &bytes) } else { append("null", to: &bytes) }
            // `show --json` only: the short reference the commands take (the import ignores it).
            if !message.shortReference.isNone {
                append(",\"ref\":", to: &bytes)
                appendString(message.shortReference.text, to: &bytes)
            }
            // `show --json` only: why the terminal folds the text (issue 34), beside the text kept
            // whole: the person's own rules' reason (`Filtered: TITLE`, a label), else the
            // content warning. `content_warning` stays as it was.
            if let warning = [message.warning, message.contentWarning].lazy.compactMap({ $0 }).first(where: { !$0.isEmpty }) {
                append(",\"warning\":", to: &bytes)
                appendString(warning, to: &bytes)
            }
            // `show --json` only: who may see it, where its source says (issue 34).
            if let visibility = message.visibility {
                append(",\"visibility\":", to: &bytes)
                appendString(visibility.rawValue, to: &bytes)
            }
            // `show --json` only: where it came from (issue 35).
            append(",\"source\":", to: &bytes)
            appendString(message.source.rawValue, to: &bytes)
            // `show --json` only, and only what is set: the account's state at its server (the
            // import ignores it: a file cannot favourite anything there).
            if let interaction {
                if interaction.favourited { append(",\"favourited\":true", to: &bytes) }
                if interaction.boosted { append(",\"boosted\":true", to: &bytes) }
                if interaction.bookmarked { append(",\"bookmarked\":true", to: &bytes) }
                if interaction.pending { append(",\"pending\":true", to: &bytes) }
            }
        } else {
            // `export` (issue 35): who may see it and where it came from, both read back by the
            // import, so that an import of an export gives the same messages. The source is
            // left out when it is `import`, what the import reads from a line without one: the
            // export of imported messages stays as it was. (`show --json` writes both above,
            // after its own fields, the source always.)
            if let visibility = message.visibility {
                append(",\"visibility\":", to: &bytes)
                appendString(visibility.rawValue, to: &bytes)
            }
            if message.source != .import {
                append(",\"source\":", to: &bytes)
                appendString(message.source.rawValue, to: &bytes)
            }
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Whether any of the eight bytes in `word` is DEL (0x7F), which the encoder escapes and
    /// `JSONScanner.needsAttention` lets through.
    @inline(__always)
    private static func holdsDelete(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let delete = word ^ (ones &* 0x7F)
        return (delete &- ones) & ~delete & (ones &* 0x80) != 0
    }

    /// Appends `string` as a JSON string literal, quotes included.
    package static func appendString(_ string: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            var position = 0
            let count = utf8.count
            while position < count {
                // Eight plain ASCII bytes at a time (no quote, backslash, control or DEL), the
                // bulk of most text, as the scanner reads them. In bounds: the loop reads
                // position ..< position + 8 <= count, and count > 0 gives a base address.
                while count - position >= 8 {
                    let word = UnsafeRawPointer(utf8.baseAddress! + position).loadUnaligned(as: UInt64.self)
                    if JSONScanner.needsAttention(word) || Self.holdsDelete(word) { break }
                    position += 8
                }
                guard position < count else { break }
                // In bounds: position < count by the loop condition; the lookahead reads below
                // check position + 1 and + 2 against count first.
                let byte = utf8[position]
                let escapeLength: Int
                switch byte {
                case 0x20 ..< 0x7F where byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\"):
                    escapeLength = 0
                case 0xC2 where position + 1 < count && utf8[position + 1] < 0xA0:
                    escapeLength = 2  // U+0080–U+009F, the C1 controls
                case 0xE2 where position + 2 < count && utf8[position + 1] == 0x80
                    && (utf8[position + 2] == 0xA8 || utf8[position + 2] == 0xA9):
                    escapeLength = 3  // U+2028, U+2029
                case 0x80...:
                    escapeLength = 0
                default:
                    escapeLength = 1  // `"`, `\`, C0 controls, DEL
                }
                if escapeLength == 0 {
                    position += 1
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart ..< position]))
                switch escapeLength {
                case 1:
                    appendEscape(byte, to: &bytes)
                case 2:
                    appendUnicodeEscape(UInt16(utf8[position + 1]), to: &bytes)
                default:
                    appendUnicodeEscape(utf8[position + 2] == 0xA8 ? 0x2028 : 0x2029, to: &bytes)
                }
                position += escapeLength
                runStart = position
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart ..< count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func appendEscape(_ byte: UInt8, to bytes: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): append("\\\"", to: &bytes)
        case UInt8(ascii: "\\"): append("\\\\", to: &bytes)
        case 0x0A: append("\\n", to: &bytes)
        case 0x0D: append("\\r", to: &bytes)
        case 0x09: append("\\t", to: &bytes)
        case 0x08: append("\\b", to: &bytes)
        case 0x0C: append("\\f", to: &bytes)
        default: appendUnicodeEscape(UInt16(byte), to: &bytes)
        }
    }

    /// `\u001b` style: lowercase hex, as most JSON writers and the sample fixture use.
    private static func appendUnicodeEscape(_ unit: UInt16, to bytes: inout [UInt8]) {
        let hexDigits: StaticString = "0123456789abcdef"
        append("\\u", to: &bytes)
        for shift in stride(from: 12, through: 0, by: -4) {
            // In bounds: the index is a 4-bit value, below the 16 digits.
            bytes.append(hexDigits.utf8Start[Int(unit >> UInt16(shift) & 0xF)])
        }
    }

    private static func appendOptional(_ key: StaticString, _ value: String?, to bytes: inout [UInt8]) {
        guard let value else { return }
        append(",\"", to: &bytes)
        append(key, to: &bytes)
        append("\":", to: &bytes)
        appendString(value, to: &bytes)
    }

    package static func appendInteger(_ value: Int, to bytes: inout [UInt8]) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            // Int.min has no positive counterpart; its magnitude goes through UInt.
            appendUnsigned(value.magnitude, to: &bytes)
        } else {
            appendUnsigned(UInt(value), to: &bytes)
        }
    }

    private static func appendUnsigned(_ value: UInt, to bytes: inout [UInt8]) {
        if value < 10 {
            bytes.append(UInt8(truncatingIfNeeded: value) + UInt8(ascii: "0"))
            return
        }
        appendUnsigned(value / 10, to: &bytes)
        bytes.append(UInt8(truncatingIfNeeded: value % 10) + UInt8(ascii: "0"))
    }

    @inline(__always)
    private static func append(_ literal: StaticString, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }
}
