/// The name of the database a hashtag's or a list's timeline is kept in (issue 27), beside the
/// main one: `timeline.tag-rust.sqlite` for `timeline tag rust` when the main database is
/// `timeline.sqlite`.
///
/// The name's part for the source, its ``key``, is the source's text with ASCII letters, digits
/// and `_` as they are (letters lowercased) and every other byte as `%XX`: safe in a file name on
/// any file system, whatever the script. Written out in full that part has no bound: a hashtag
/// of 30 Japanese letters is 270 bytes, past the 255 a file name may hold (issue 33). So a key
/// longer than ``maximumKeyBytes`` keeps a readable start (a list: its end, which its painted
/// reference names) and ends with a digest of the whole text; the file name then stays below
/// 255 bytes for any main database named up to ``longestMainName`` bytes.
///
/// ```swift
/// let name = SourceDatabaseName.tag("rust")
/// try name.path(beside: "/data/timeline.sqlite")   // "/data/timeline.tag-rust.sqlite"
/// ```
public struct SourceDatabaseName: Sendable, Hashable {
    /// The name's part for the source: `tag-rust`, `list-alice%40example%2Esocial%2F42`.
    public let key: String
    /// The key the source had before issue 33 (every byte written out), when it differs: a
    /// database kept under it is still found, so no stored timeline vanishes.
    let formerKey: String?

    /// The longest key: a file name is then at most the main database's stem, a dot, the key
    /// and SQLite's longest suffix (`.sqlite-journal`, 15 bytes; the snapshot's `.snapshot.tmp`
    /// is 13).
    public static let maximumKeyBytes = 100
    /// The longest main database's file name (`timeline.sqlite`) whose sources' databases are
    /// named within the 255 bytes a file name may hold: 255 − 15 − 1 − 100, less `.sqlite`.
    public static let longestMainName = 255 - 15 - 1 - maximumKeyBytes + ".sqlite".count
    /// The most bytes a file name may hold (NAME_MAX on Linux and the BSDs; HFS+ and APFS
    /// count 255 UTF-16 units, no fewer for these ASCII names).
    static let maximumFileNameBytes = 255
    /// The hexadecimal digits of SHA-256 a shortened key ends with (64 bits).
    static let digestDigits = 16

    /// The database of the hashtag `tag` (without `#`, as ``TimelineSource/hashtag(_:)`` gives it).
    public static func tag(_ tag: String) -> SourceDatabaseName {
        SourceDatabaseName(kind: "tag-", text: tag, keepsEnd: false)
    }

    /// The database of the list `listID` as `account` reads it (its name in the accounts
    /// file): `list-` and both, so two accounts' lists of the same ID stay apart. A shortened
    /// key keeps the end, `%2F` and the last part of the ID, which the list's painted
    /// references (`list-42:bkd`) are found by.
    public static func list(_ listID: String, account: String) -> SourceDatabaseName {
        SourceDatabaseName(kind: "list-", text: account + "/" + listID, keepsEnd: true)
    }

    /// The database the conversations' last statuses are kept in (issue 37,
    /// `timeline conversations`): `timeline.dm.sqlite`, one for every account (a stored ID names
    /// its server, so an action on one finds its account as in a hashtag's database).
    public static let conversations = SourceDatabaseName(kind: "dm", text: "", keepsEnd: false)

    /// The database of the custom feed `feed` (its AT URI) as `account` reads it (issue 37):
    /// `feed-` and both, kept as a list's is, so a shortened key keeps `%2F` and the feed's
    /// record key, which its painted references (`feed-whats-hot:bkd`) are found by.
    public static func feed(_ feed: String, account: String) -> SourceDatabaseName {
        SourceDatabaseName(kind: "feed-", text: account + "/" + feed, keepsEnd: true)
    }

    private init(kind: String, text: String, keepsEnd: Bool) {
        let escaped = Self.escaped(text)
        guard kind.utf8.count + escaped.utf8.count > Self.maximumKeyBytes else {
            key = kind + escaped
            formerKey = nil
            return
        }
        let digest = ContentDigest.sha256(Array(text.lowercased().utf8)).prefix(Self.digestDigits / 2)
            .map { String($0 >> 4, radix: 16) + String($0 & 0xF, radix: 16) }.joined()
        // `-` is escaped in every key, so a shortened key never reads as a whole one.
        let room = Self.maximumKeyBytes - kind.utf8.count - 1 - Self.digestDigits
        if keepsEnd {
            let last = "%2F" + Self.escaped(String(text.split(separator: "/").last ?? ""))
            key = kind + digest + (last.utf8.count < room ? "-" + last : "")
        } else {
            key = kind + Self.escapedPrefix(escaped, bytes: room) + "-" + digest
        }
        formerKey = kind + escaped
    }

    /// The database's path beside the main database `main`: `timeline.sqlite` →
    /// `timeline.tag-rust.sqlite`, in the same directory. A database kept under the source's
    /// former name (before issue 33) is that one while none has the new name.
    ///
    /// - Throws: `.nameTooLong` when the main database's name leaves no room for the key
    ///   (longer than ``longestMainName``): said before anything is fetched.
    public func path(beside main: String) throws(SourceDatabaseNameError) -> String {
        let path = Self.path(beside: main, key: key)
        if let formerKey {
            let former = Self.path(beside: main, key: formerKey)
            if Self.fileName(of: former).utf8.count <= Self.maximumFileNameBytes, FileSystem.size(at: path) == nil, FileSystem.size(at: former) != nil {
                return former
            }
        }
        let name = Self.fileName(of: path)
        guard name.utf8.count + ".sqlite-journal".utf8.count - ".sqlite".utf8.count <= Self.maximumFileNameBytes else {
            throw .nameTooLong(mainDatabase: main, bytes: Self.fileName(of: main).utf8.count, limit: Self.longestMainName)
        }
        return path
    }

    /// `main` with its `.sqlite` replaced by `.` + `key` + `.sqlite`.
    public static func path(beside main: String, key: String) -> String {
        let slash = main.lastIndex(of: "/").map { main.index(after: $0) } ?? main.startIndex
        let directory = String(main[..<slash])
        var stem = String(main[slash...])
        if stem.hasSuffix(".sqlite") { stem.removeLast(".sqlite".count) }
        return directory + stem + "." + key + ".sqlite"
    }

    /// `text` made safe as part of a file name: ASCII letters, digits and `_` as they are
    /// (letters lowercased), every other byte as `%XX`.
    public static func escaped(_ text: String) -> String {
        let hexDigits = Array("0123456789ABCDEF".utf8)
        var key: [UInt8] = []
        for byte in text.lowercased().utf8 {
            switch byte {
            case UInt8(ascii: "a") ... UInt8(ascii: "z"), UInt8(ascii: "0") ... UInt8(ascii: "9"), UInt8(ascii: "_"):
                key.append(byte)
            default:
                key += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
            }
        }
        return String(decoding: key, as: UTF8.self)
    }

    /// The first at most `bytes` bytes of the escaped `text`, never half of a `%XX`.
    private static func escapedPrefix(_ text: String, bytes: Int) -> String {
        let utf8 = Array(text.utf8)
        var end = min(bytes, utf8.count)
        // A `%` in the last two bytes kept starts an escape that would be cut.
        if let percent = utf8[max(0, end - 2) ..< end].lastIndex(of: UInt8(ascii: "%")) { end = percent }
        return String(decoding: utf8[..<end], as: UTF8.self)
    }

    private static func fileName(of path: String) -> Substring {
        path[(path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex)...]
    }
}

/// Why a hashtag's or a list's database cannot be named.
public enum SourceDatabaseNameError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The main database's file name is `bytes` long, more than `limit`: its sources' databases,
    /// named after it, would pass the 255 bytes a file name may hold.
    case nameTooLong(mainDatabase: String, bytes: Int, limit: Int)

    public var description: String {
        switch self {
        case let .nameTooLong(main, bytes, limit):
            "The main database's file name is \(bytes) bytes long (\(QuotedValue.quoted(main))), and a hashtag's or a list's timeline is kept in a file named after it, which would pass the 255 bytes a file name may hold. Nothing was fetched; use a main database whose name is at most \(limit) bytes (--db PATH or TIMELINE_DB)."
        }
    }
}
