import Foundation
import Testing
@testable import TimelineKit

/// Values and checks shared by the rendering tests.
enum RenderingSamples {
    /// 2026-11-22T12:00:00Z, the moment the sample timeline ends.
    static let now = Date(timeIntervalSince1970: 1_795_348_800)

    /// Strings that try to take over a terminal, as messages and names from strangers can.
    static let hostileStrings: [String] = [
        "\u{1b}[2J\u{1b}[H",
        "\u{1b}[31mRED\u{1b}[0m \u{1b}[5mblink\u{1b}[0m \u{1b}[1;33;41mfancy\u{1b}[0m",
        "\u{1b}]0;pwned\u{07}title",
        "\u{1b}]8;;http://evil.example\u{1b}\\click\u{1b}]8;;\u{1b}\\",
        "\u{1b}P1$r0m\u{1b}\\",
        "\u{9b}31mC1 CSI red?\u{9b}0m",
        "safe\rEVIL",
        "abc\u{8}\u{8}\u{8}xyz",
        "invoice_\u{202E}gpj.exe\u{202C}",
        "\u{2066}isolated\u{2069} \u{2067}rtl\u{2069} \u{2068}first\u{2069}",
        "\u{202A}emb\u{202B}edd\u{202D}ing\u{202C}",
        "pay\u{200B}pal \u{FEFF}bom \u{2060}joiner",
        "\u{1b}[?25l\u{1b}[8mhidden\u{1b}[0m\u{07}\u{07}\u{07}",
        "\u{85}next line\u{90}dcs\u{9c}st\u{9d}osc",
        "lines\n\n\n\n\n\n\n\n\n\nbelow",
        "tab\tseparated\tcolumns",
        "\u{FFF9}annotated\u{FFFA}ruby\u{FFFB}",
        "\u{7f}del and nul \u{0}",
        "ESC[6n is only text, and so is ESC \\",
    ]

    /// Builds a user.
    static func user(_ id: String, _ handle: String, _ name: String, bot: Bool = false) -> User {
        User(id: id, handle: handle, name: name, isBot: bot)
    }

    /// A message written `age` seconds before `now`.
    static func message(
        _ id: String,
        by author: String,
        _ text: String,
        age: TimeInterval = 180,
        read: Bool = true,
        edited: Bool = false,
        replyTo: (message: String, user: String?)? = nil,
        repostOf: String? = nil,
        quoteOf: String? = nil,
        contentWarning: String? = nil,
        attachments: [(kind: String, description: String?)] = [],
        counts: (replies: Int, reposts: Int, likes: Int) = (0, 0, 0)
    ) -> Message {
        Message(
            id: id,
            authorID: author,
            text: text,
            createdAt: now.addingTimeInterval(-age),
            editedAt: edited ? now.addingTimeInterval(-age / 2) : nil,
            replyToID: replyTo?.message,
            replyToUserID: replyTo?.user,
            repostOfID: repostOf,
            quoteOfID: quoteOf,
            contentWarning: contentWarning,
            attachments: attachments.map { Attachment(kind: $0.kind, altText: $0.description) },
            likeCount: counts.likes,
            repostCount: counts.reposts,
            replyCount: counts.replies,
            isRead: read
        )
    }

    static let alice = user("u1", "alice", "Alice Liddell")
    static let bob = user("u2", "bob@remote.example", "Bob 🦊")
    static let robot = user("u3", "moonphase", "Moon Phase 🌙", bot: true)
    static let hostile = user("u4", "sneaky\u{1b}[2J\u{1b}[H\radmin", "\u{1b}[31mGl\u{200b}itch\u{1b}[0m \u{202e}NIMDA\u{202c}\u{1b}]0;pwned\u{07}")
    static let longNamed = user("u5", "a_very_long_handle_for_a_person@an.extremely.long.instance.example", "Maximiliana Wolfeschlegelsteinhausenbergerdorff the Third")
    static let wide = user("u6", "kenji_t", "田中 健二")

    /// A page with one message of every kind the renderer distinguishes, hostile ones included.
    static func everyKindOfMessage() -> TimelinePage {
        let messages: [Message] = [
            message("m1", by: "u1", "Hello, timeline!"),
            message("m2", by: "u1", "Unread and edited", read: false, edited: true),
            message("m3", by: "u2", "@alice I agree", replyTo: ("m1", "u1")),
            message("m4", by: "u2", "Reply to a message the page lacks", replyTo: ("m0", nil)),
            message("m5", by: "u1", "", read: false, repostOf: "r1"),
            message("m6", by: "u2", "", repostOf: "gone"),
            message("m7", by: "u1", "The ending: everyone was a duck all along.", contentWarning: "spoilers for the film"),
            message("m8", by: "u2", "Look at these", attachments: [
                (kind: "image", description: "A fox asleep in the snow"),
                (kind: "image", description: nil),
            ]),
            message("m9", by: "u1", "Quoting this, because yes.", quoteOf: "r2"),
            message("m10", by: "u3", "🌒 Waxing crescent — 46% illuminated.", counts: (1_234, 15_600, 1_100_000)),
            message("m11", by: "u4", RenderingSamples.hostileStrings.joined(separator: " "), read: false),
            message("m12", by: "u4", "\u{1b}]0;pwned\u{07}title", contentWarning: "\u{1b}[31mspoiler\u{1b}[0m"),
            message("m13", by: "u5", "A name and a handle far too long for any header, with a date", age: 400 * 86_400, edited: true),
            message("m14", by: "u6", "日本語のテキストは空白なしで折り返されます。絵文字も👩‍💻🇯🇵大丈夫です。", read: false, counts: (3, 0, 12)),
            message("m15", by: "nobody", "Written by a user the page lacks", quoteOf: "gone"),
            message("m16", by: "u2", "https://example.org/a/very/long/path/that/goes/on/and/on?with=query&strings=too#fragment"),
            message("m17", by: "u1", "\n\n  \nFirst paragraph\n\n\n\n\nSecond paragraph\n\n"),
            message("m18", by: "u3", "", attachments: [(kind: "video", description: nil), (kind: "audio", description: "Birdsong")], counts: (0, 2, 0)),
        ]
        let related: [Message] = [
            message("r1", by: "u6", "原文はこちら。Original text here.", age: 7_200, replyTo: ("m1", "u1"), counts: (4, 12, 1_200)),
            message("r2", by: "u2", "A thought worth quoting\nwith a second line", age: 3 * 86_400),
        ]
        return TimelinePage(messages: messages, related: related, users: [alice, bob, robot, hostile, longNamed, wide])
    }

    /// The project's sample timeline (`Fixtures/sample-timeline.jsonl`), newest first. Related
    /// messages are every message, so reposts always find their original.
    static func sampleTimeline() throws -> (messages: [Message], users: [User]) {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent() // Rendering
            .deletingLastPathComponent() // TimelineKitTests
            .deletingLastPathComponent() // Tests
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("Fixtures/sample-timeline.jsonl"), encoding: .utf8)
        var users: [User] = []
        var messages: [Message] = []
        for line in text.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if object["type"] as? String == "user" {
                users.append(User(
                    id: try #require(object["id"] as? String),
                    handle: try #require(object["handle"] as? String),
                    name: try #require(object["name"] as? String),
                    url: object["url"] as? String,
                    isBot: object["bot"] as? Bool ?? false
                ))
            } else {
                messages.append(Message(
                    id: try #require(object["id"] as? String),
                    authorID: try #require(object["author"] as? String),
                    text: try #require(object["text"] as? String),
                    createdAt: try date(try #require(object["created_at"] as? String)),
                    editedAt: try (object["edited_at"] as? String).map(date),
                    replyToID: object["reply_to"] as? String,
                    repostOfID: object["repost_of"] as? String,
                    contentWarning: object["content_warning"] as? String,
                    url: object["url"] as? String,
                    likeCount: object["likes"] as? Int ?? 0,
                    repostCount: object["reposts"] as? Int ?? 0,
                    replyCount: object["replies"] as? Int ?? 0,
                    isRead: object["read"] as? Bool ?? false
                ))
            }
        }
        messages.sort { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
        return (messages, users)
    }

    /// Parses the fixture's RFC 3339 times: `Z` or `±hh:mm`, with any number of fraction digits.
    static func date(_ text: String) throws -> Date {
        let bytes = Array(text.utf8)
        func number(_ start: Int, _ count: Int) throws -> Int {
            var value = 0
            for byte in bytes[start..<start + count] {
                guard (0x30...0x39).contains(byte) else { throw DateError(text: text) }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard bytes.count >= 20 else { throw DateError(text: text) }
        let (year, month, day) = (try number(0, 4), try number(5, 2), try number(8, 2))
        let seconds = try number(11, 2) * 3_600 + number(14, 2) * 60 + number(17, 2)
        var index = 19
        var fraction = 0.0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                fraction += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
        }
        var offset = 0
        if bytes[index] != UInt8(ascii: "Z") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            offset = sign * (try number(index + 1, 2) * 3_600 + number(index + 4, 2) * 60)
        }
        // Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: Double(days * 86_400 + seconds - offset) + fraction)
    }

    struct DateError: Error {
        var text: String
    }

    // MARK: - Checks

    /// Records an issue for every scalar in `line` that a terminal would act on: C0 controls
    /// (`\n` included), DEL, C1 controls, and bidirectional embeddings, overrides and isolates.
    /// With `allowingSGR`, escape sequences of the form `ESC [ digits;… m` are allowed.
    static func expectInert(_ line: String, allowingSGR: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) {
        let text = allowingSGR ? strippingSGR(line) : line
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let harmful = value < 0x20 || (0x7F...0x9F).contains(value)
                || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
            #expect(!harmful, "U+\(String(value, radix: 16, uppercase: true)) in \(line.debugDescription)", sourceLocation: sourceLocation)
        }
    }

    /// `line` without its SGR sequences (`ESC [` digits and `;` then `m`); other escapes stay.
    /// Works on scalars: a combining mark after the `m` would join it in a `Character`.
    static func strippingSGR(_ line: String) -> String {
        let scalars = Array(line.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if scalars[index] == "\u{1b}", index + 1 < scalars.count, scalars[index + 1] == "[" {
                var end = index + 2
                while end < scalars.count, ("0"..."9").contains(scalars[end]) || scalars[end] == ";" { end += 1 }
                if end < scalars.count, scalars[end] == "m" {
                    index = end + 1
                    continue
                }
            }
            result.append(scalars[index])
            index += 1
        }
        return String(result)
    }
}
