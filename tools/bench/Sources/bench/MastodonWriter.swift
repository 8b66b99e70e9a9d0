import Foundation
import TimelineKit

/// Writes the generator's messages as a Mastodon server sends a home timeline: one JSON array of
/// statuses, each with its `account`, its HTML `content` (paragraphs, line breaks, mention,
/// hashtag and link markup as Mastodon writes it), media, counts, and the fields a client gets
/// but `import` ignores. A repost is a status whose `reblog` is the original, in full; a quote
/// carries Mastodon 4.4's `quote` object. Deterministic: the same seed and count give the same
/// bytes. About 1.3 KB a status.
struct MastodonWriter {
    let generator: TimelineGenerator
    let users: [User]

    init(generator: TimelineGenerator) {
        self.generator = generator
        users = generator.users()
    }

    /// Writes messages `0..<count` to `path` (through a temporary file renamed at the end).
    func write(count: Int, to path: String) throws {
        let temporary = path + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: nil) else {
            throw BenchError("cannot create \(temporary)")
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
        var out: [UInt8] = []
        out.reserveCapacity(1 << 21)
        out.append(UInt8(ascii: "["))
        for index in 0..<count {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "\n"))
            appendStatus(generator.message(index), to: &out)
            if out.count >= 1 << 20 {
                try handle.write(contentsOf: out)
                out.removeAll(keepingCapacity: true)
            }
        }
        out += Array("\n]\n".utf8)
        try handle.write(contentsOf: out)
        try handle.close()
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.moveItem(atPath: temporary, toPath: path)
    }

    private func user(_ id: String) -> User { users[Int(id.dropFirst())!] }

    private func appendStatus(_ message: Message, to out: inout [UInt8]) {
        let author = user(message.authorID)
        let username = author.handle.split(separator: "@").first.map(String.init) ?? author.handle
        let server = author.url.flatMap { URL(string: $0)?.host } ?? "example.social"
        out.append(UInt8(ascii: "{"))
        field("id", message.id, first: true, to: &out)
        field("created_at", Self.rfc3339(message.createdAt), to: &out)
        field("in_reply_to_id", message.replyToID, to: &out)
        field("in_reply_to_account_id", message.replyToUserID, to: &out)
        raw("sensitive", message.contentWarning == nil ? "false" : "true", to: &out)
        field("spoiler_text", message.contentWarning ?? "", to: &out)
        field("visibility", "public", to: &out)
        field("language", "en", to: &out)
        field("uri", "https://\(server)/users/\(username)/statuses/\(message.id)", to: &out)
        field("url", message.url, to: &out)
        raw("replies_count", String(message.replyCount), to: &out)
        raw("reblogs_count", String(message.repostCount), to: &out)
        raw("favourites_count", String(message.likeCount), to: &out)
        field("edited_at", message.editedAt.map(Self.rfc3339), to: &out)
        raw("favourited", "false", to: &out)
        raw("reblogged", "false", to: &out)
        raw("muted", "false", to: &out)
        raw("bookmarked", "false", to: &out)
        field("content", message.repostOfID == nil ? Self.html(message.text, server: server) : "", to: &out)
        out += Array(",\"reblog\":".utf8)
        if let original = message.repostOfID {
            appendStatus(generator.message(index(of: original)), to: &out)
        } else {
            out += Array("null".utf8)
        }
        out += Array(#","application":{"name":"Web","website":null},"account":{"#.utf8)
        appendAccount(author, username: username, to: &out)
        out += Array(",\"media_attachments\":[".utf8)
        for (n, attachment) in message.attachments.enumerated() {
            if n > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "{"))
            field("id", "\(message.id)\(n)", first: true, to: &out)
            field("type", attachment.kind, to: &out)
            field("url", attachment.url, to: &out)
            field("preview_url", attachment.url, to: &out)
            field("remote_url", nil, to: &out)
            field("description", attachment.altText, to: &out)
            field("blurhash", "UeKUpFxuo~R%0nW;WCnhF6RjaJt757oJodS$", to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out += Array(#"],"mentions":[],"tags":[],"emojis":[],"card":null,"poll":null"#.utf8)
        if let quoted = message.quoteOfID {
            out += Array(#","quote":{"state":"accepted","quoted_status_id":"#.utf8)
            Self.string(quoted, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "}"))
    }

    private func appendAccount(_ author: User, username: String, to out: inout [UInt8]) {
        field("id", author.id, first: true, to: &out)
        field("username", username, to: &out)
        field("acct", author.handle, to: &out)
        field("display_name", author.name, to: &out)
        raw("locked", "false", to: &out)
        raw("bot", author.isBot ? "true" : "false", to: &out)
        raw("discoverable", "true", to: &out)
        raw("group", "false", to: &out)
        field("created_at", "2019-03-01T00:00:00.000Z", to: &out)
        field("note", "<p>Posts about \(username)'s projects.</p>", to: &out)
        field("url", author.url, to: &out)
        field("avatar", "https://files.example/avatars/\(author.id).png", to: &out)
        field("header", "https://files.example/headers/\(author.id).png", to: &out)
        raw("followers_count", "120", to: &out)
        raw("following_count", "80", to: &out)
        raw("statuses_count", "4000", to: &out)
        out += Array(#","emojis":[],"fields":[]}"#.utf8)
    }

    /// Message numbers from IDs: `messageID(i)` is 113e15 + i × 65536 + (a value below 65536).
    private func index(of id: String) -> Int {
        Int((UInt64(id)! - 113_000_000_000_000_000) >> 16)
    }

    /// The text as Mastodon's HTML: `<p>` per paragraph, `<br>` per line, and the markup
    /// Mastodon puts around mentions, hashtags and links.
    static func html(_ text: String, server: String) -> String {
        let paragraphs = text.components(separatedBy: "\n\n").map { paragraph in
            paragraph.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
                    if word.hasPrefix("@"), word.count > 1 {
                        let name = escape(String(word.dropFirst()))
                        return #"<span class="h-card" translate="no"><a href="https://\#(server)/@\#(name)" class="u-url mention">@<span>\#(name)</span></a></span>"#
                    }
                    if word.hasPrefix("#"), word.count > 1 {
                        let tag = escape(String(word.dropFirst()))
                        return #"<a href="https://\#(server)/tags/\#(tag)" class="mention hashtag" rel="tag">#<span>\#(tag)</span></a>"#
                    }
                    if word.hasPrefix("https://") {
                        let rest = escape(String(word.dropFirst(8)))
                        return #"<a href="\#(escape(String(word)))" target="_blank" rel="nofollow noopener" translate="no"><span class="invisible">https://</span><span class="">\#(rest)</span><span class="invisible"></span></a>"#
                    }
                    return escape(String(word))
                }.joined(separator: " ")
            }.joined(separator: "<br />")
        }
        return paragraphs.map { "<p>\($0)</p>" }.joined()
    }

    private static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// RFC 3339 in UTC with milliseconds, as Mastodon writes times.
    static func rfc3339(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let days = Int(milliseconds.quotientAndRemainder(dividingBy: 86_400_000).quotient)
        let inDay = Int(milliseconds - Int64(days) * 86_400_000)
        // Howard Hinnant's days-to-civil, for days since 1970-01-01 (all after it here).
        let z = days + 719_468
        let era = z / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", year, month, day,
                      inDay / 3_600_000, inDay / 60000 % 60, inDay / 1000 % 60, inDay % 1000)
    }

    private func field(_ key: String, _ value: String?, first: Bool = false, to out: inout [UInt8]) {
        if !first { out.append(UInt8(ascii: ",")) }
        Self.string(key, to: &out)
        out.append(UInt8(ascii: ":"))
        if let value { Self.string(value, to: &out) } else { out += Array("null".utf8) }
    }

    private func raw(_ key: String, _ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: ","))
        Self.string(key, to: &out)
        out.append(UInt8(ascii: ":"))
        out += Array(value.utf8)
    }

    /// A JSON string: quotes, backslashes and control characters escaped, the rest as UTF-8.
    static func string(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0..<0x20: out += Array(String(format: "\\u%04x", byte).utf8)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
