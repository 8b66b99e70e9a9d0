import Foundation
import TimelineKit

/// SplitMix64: tiny, fast, and the same numbers on every platform for the same seed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func chance(_ percent: Double) -> Bool { Double(next() % 1_000_000) < percent * 10_000 }
    mutating func pick<T>(_ list: [T]) -> T { list[below(list.count)] }
}

/// A deterministic timeline: `userCount` users and messages numbered 0, 1, 2, … whose content
/// depends only on (seed, index), so any range can be generated on its own (ingest benchmarks
/// generate messages past the end of a data set that are new to it).
struct TimelineGenerator: Sendable {
    /// Bump when the output changes, so cached data sets are rebuilt.
    static let version = 1
    let seed: UInt64
    let userCount: Int

    init(seed: UInt64, userCount: Int = 1000) {
        self.seed = seed
        self.userCount = userCount
    }

    /// 2025-01-01T00:00:00Z; message i is written about i × 30 s later.
    static let epoch = Date(timeIntervalSince1970: 1_735_689_600)

    func userID(_ n: Int) -> String { String(format: "u%04d", n) }

    func users() -> [User] {
        (0..<userCount).map { n in
            var rng = SplitMix64(seed: seed ^ 0xA5A5_0000 &+ UInt64(n) &* 0x1000_0001)
            let first = rng.pick(Words.firstNames)
            let last = rng.pick(Words.lastNames)
            var name = "\(first) \(last)"
            if rng.chance(8) { name += " " + rng.pick(Words.emoji) }
            if rng.chance(5) { name = rng.pick(Words.cjkNames) }
            if rng.chance(3) { name = rng.pick(Words.rtlNames) }
            let handle = "\(first.lowercased().filter(\.isASCII))\(n)" + (rng.chance(60) ? "@" + rng.pick(Words.servers) : "")
            return User(id: userID(n), handle: handle, name: name,
                        url: "https://\(rng.pick(Words.servers))/@\(first.lowercased().filter(\.isASCII))\(n)",
                        isBot: rng.chance(3))
        }
    }

    func messageID(_ i: Int) -> String {
        String(113_000_000_000_000_000 &+ UInt64(i) &* 65_536 &+ (UInt64(i) &* 2_654_435_761 & 0xFFFF))
    }

    func messages(_ range: Range<Int>) -> [Message] { range.map(message) }

    func message(_ i: Int) -> Message {
        var rng = SplitMix64(seed: seed &* 0x2545_F491_4F6C_DD1D ^ UInt64(i))
        let author = rng.below(userCount)
        let created = Self.epoch.addingTimeInterval(Double(i) * 30 + Double(rng.below(30_000)) / 1000)
        var message = Message(id: messageID(i), authorID: userID(author), text: "", createdAt: created)
        let kind = rng.below(100)
        if kind < 10, i > 0 {
            // A repost: no text of its own.
            message.repostOfID = messageID(rng.below(i))
        } else {
            message.text = text(&rng)
            if kind < 30, i > 0 {
                let target = rng.below(i)
                message.replyToID = messageID(target)
                message.replyToUserID = userID(rng.below(userCount))
                message.text = "@\(rng.pick(Words.firstNames).lowercased()) " + message.text
            } else if kind < 33, i > 0 {
                message.quoteOfID = messageID(rng.below(i))
            }
        }
        if rng.chance(2) { message.contentWarning = rng.pick(Words.warnings) }
        if rng.chance(10) {
            message.attachments = (0..<(1 + rng.below(3))).map { n in
                Attachment(kind: rng.chance(80) ? "image" : "video", url: "https://media.example/\(i)/\(n).jpg",
                           altText: rng.chance(60) ? "A photo of " + rng.pick(Words.latin) : nil)
            }
        }
        if rng.chance(20) { message.editedAt = created.addingTimeInterval(Double(60 + rng.below(3600))) }
        message.url = "https://\(rng.pick(Words.servers))/@x/\(message.id)"
        message.likeCount = rng.chance(50) ? rng.below(20) : rng.below(5000)
        message.repostCount = rng.below(200)
        message.replyCount = rng.below(50)
        message.isRead = rng.chance(70)
        return message
    }

    /// Text lengths and a Unicode mix like real timelines: mostly 40-280 characters, some short,
    /// some long; Latin with mentions, hashtags and URLs, and some CJK, emoji, RTL and combining marks.
    private func text(_ rng: inout SplitMix64) -> String {
        let lengthDraw = rng.below(100)
        let target = lengthDraw < 10 ? 1 + rng.below(40) : lengthDraw < 92 ? 40 + rng.below(241) : 280 + rng.below(1700)
        let script = rng.below(100)
        var text = ""
        text.reserveCapacity(target + 32)
        var count = 0
        while count < target {
            var word: String
            switch script {
            case 0..<8: word = rng.pick(Words.cjk)
            case 8..<13: word = rng.pick(Words.rtl)
            case 13..<20: word = rng.chance(50) ? rng.pick(Words.combining) : rng.pick(Words.latin)
            default: word = rng.pick(Words.latin)
            }
            let extra = rng.below(1000)
            if extra < 40 { word = rng.pick(Words.emoji) }
            else if extra < 55 { word = "#" + rng.pick(Words.latin) }
            else if extra < 65 { word = "@" + rng.pick(Words.firstNames).lowercased() }
            else if extra < 72 { word = "https://\(rng.pick(Words.servers))/p/\(rng.below(1_000_000))" }
            else if extra == 999 { word = "\u{1B}[31mred\u{1B}[0m" }  // hostile text, neutralised by the renderer
            if !text.isEmpty { text += script < 8 && rng.chance(70) ? "" : " "; count += 1 }
            text += word
            count += word.count
        }
        if rng.chance(5) { text += "\n\n" + rng.pick(Words.latin) }
        return text
    }
}

enum Words {
    static let latin = """
        the a timeline today shipping release coffee morning build swift terminal snapshot database \
        fast slow weekend conference talk thread reply news weather rain sunny open source bug fix \
        issue merge review deploy friday cat dog photo garden bike train city music album concert \
        really think just about people would could should never always great little world night \
        working project update version performance memory latency benchmark cache index query
        """.split(separator: " ").map(String.init)
    static let combining = ["cafe\u{301}", "nai\u{308}ve", "re\u{301}sume\u{301}", "Zu\u{308}rich", "ån\u{30A}",
                            "e\u{301}te\u{301}", "pin\u{303}a", "s\u{323}\u{307}", "Ångstro\u{308}m"]
    static let cjk = ["今日は", "天気", "いいですね", "東京", "新しい", "リリース", "晚上好", "我们", "开源", "软件",
                      "안녕하세요", "한국어", "데이터베이스", "コーヒー", "猫", "電車", "音楽", "ラーメン"]
    static let rtl = ["مرحبا", "بالعالم", "اليوم", "شكرا", "שלום", "עולם", "תודה", "בוקר", "טוב", "كتاب"]
    static let emoji = ["🚀", "🎉", "😂", "❤️", "👍🏽", "👩‍💻", "🇫🇷", "🇯🇵", "☕", "🐈", "🌧️", "🔥", "✨", "🙏", "🧑‍🤝‍🧑"]
    static let firstNames = ["Alice", "Bob", "Chloé", "Dmitri", "Emeka", "Fatima", "Grace", "Hiro", "Inès", "Jonas",
                             "Kofi", "Lena", "Mateo", "Noor", "Olga", "Pedro", "Qing", "Rosa", "Sven", "Tariq"]
    static let lastNames = ["Smith", "Müller", "García", "Nguyen", "Kowalski", "O'Brien", "Rossi", "Tanaka", "Haddad", "Dubois"]
    static let cjkNames = ["山田太郎", "李小龙", "김민준", "佐藤花子", "王芳"]
    static let rtlNames = ["محمد علي", "דוד כהן", "فاطمة الزهراء"]
    static let servers = ["mastodon.social", "hachyderm.io", "fosstodon.org", "example.social", "mstdn.jp"]
    static let warnings = ["spoilers", "politics", "food", "eye contact", "long post"]
}
