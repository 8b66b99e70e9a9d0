import Foundation
import Testing
import TimelineKit

@Suite struct RealDataStoreTests {
    @Test(arguments: RealData.allFiles)
    func everyFileImportsAndAReimportChangesNothing(_ name: String) throws {
        let directory = TemporaryDirectory()
        let store = try TimelineStore(path: directory.file("timeline.sqlite"))
        let importer = TimelineImporter(store: store)
        var detected: FormatDetection?
        let first = try importer.importFile(atPath: RealData.path(name)) { detected = $0 }
        let expected: ImportFormat = RealData.twitterFiles.contains(name) ? .twitter : .mastodon
        #expect(detected?.format == expected)
        #expect(first.newUsers > 0)
        let state = try store.state()
        #expect(state.messageCount == first.messages)
        #expect(state.userCount == first.users)

        let second = try importer.importFile(atPath: RealData.path(name))
        #expect(second.changedNothing)
        #expect(try store.state() == state)
    }

    @Test func tokodonsRepeatedStatusIsStoredAsOneRow() throws {
        let directory = TemporaryDirectory()
        let store = try TimelineStore(path: directory.file("timeline.sqlite"))
        try TimelineImporter(store: store).importFile(atPath: RealData.path("tokodon/statuses.json"))
        #expect(try store.state().messageCount == 4)
        #expect(try store.messages(ids: ["103270115826038975"]).count == 1)
        #expect(try store.message(id: "103270115826038975")?.attachments.count == 1)
    }

    @Test func theDistinctUsersOfEachFileAreStored() throws {
        let counts = [
            "mastodon4j/public_timeline.json": 19, "mastodon4j/tag.json": 17, "mastodon4j/account_search.json": 40,
            "python-twitter/get_home_timeline.json": 17, "python-twitter/friends_timeline-kesuke.json": 2,
        ]
        for (name, count) in counts {
            let directory = TemporaryDirectory()
            let store = try TimelineStore(path: directory.file("timeline.sqlite"))
            try TimelineImporter(store: store).importFile(atPath: RealData.path(name))
            #expect(try store.state().userCount == count, "\(name)")
        }
    }

    @Test func reimportingRetweetsKeepsWhatWasRead() throws {
        let directory = TemporaryDirectory()
        let store = try TimelineStore(path: directory.file("timeline.sqlite"))
        let importer = TimelineImporter(store: store)
        let path = RealData.path("python-twitter/get_home_timeline.json")
        try importer.importFile(atPath: path)
        try store.markRead(ids: ["674674925823787008", "674659346127679488"])
        let state = try store.state()
        try importer.importFile(atPath: path)
        let after = try store.state()
        #expect(after.generation == state.generation)
        #expect(after.unreadCount == state.unreadCount)
        #expect(try store.messages(ids: ["674674925823787008", "674659346127679488"]).allSatisfy(\.isRead))
    }

    @Test func theCRLFInThePleromaApplicationNameNeverReachesTheTerminal() throws {
        let name = "TootSDK/post with emojis and attachments.json"
        // The fixture holds it as the JSON escapes \r\n, which decode to CR LF.
        #expect(String(decoding: try RealData.bytes(name), as: UTF8.self).contains(#"PleromaFE_b13d8f7e\r\n_2022"#))
        let directory = TemporaryDirectory()
        let store = try TimelineStore(path: directory.file("timeline.sqlite"))
        try TimelineImporter(store: store).importFile(atPath: RealData.path(name))
        let page = try store.timeline(limit: 10)
        for options in [RenderOptions(width: 40), RenderOptions(width: 80, color: true, revealsContentWarnings: true)] {
            let text = TimelineRenderer(options: options).renderText(page, now: RealData.date("2026-11-22T10:00:00Z"))
            #expect(!text.contains("\r"))
            #expect(!text.unicodeScalars.contains("\r"))
            #expect(!text.contains("PleromaFE"))
            #expect(text.contains("Konstantin"))
            #expect(text.contains("Coffee, Star Trek"))
        }
    }

    @Test func anArchiveTweetsFileTakesItsAuthorFromAccountJSBesideIt() throws {
        let directory = TemporaryDirectory()
        try Data(#"window.YTD.account.part0 = [{"account":{"accountId":"42","username":"me","accountDisplayName":"Me Myself"}}]"#.utf8)
            .write(to: URL(fileURLWithPath: directory.file("account.js")))
        try Data(#"window.YTD.tweets.part0 = [{"tweet":{"id_str":"7","created_at":"Wed Oct 10 20:19:24 +0000 2018","full_text":"mine &amp; yours","favorite_count":"2"}}]"#.utf8)
            .write(to: URL(fileURLWithPath: directory.file("tweets.js")))
        let store = try TimelineStore(path: directory.file("timeline.sqlite"))
        var detected: FormatDetection?
        try TimelineImporter(store: store).importFile(atPath: directory.file("tweets.js")) { detected = $0 }
        #expect(detected?.format == .twitter)
        #expect(try store.message(id: "7")?.text == "mine & yours")
        #expect(try store.users(ids: ["42"]).first == User(id: "42", handle: "me", name: "Me Myself", url: "https://twitter.com/me"))
    }

    @Test func aBadFieldInAMastodonFileWritesNothing() throws {
        let directory = TemporaryDirectory()
        let store = try TimelineStore(path: directory.file("timeline.sqlite"))
        let importer = TimelineImporter(store: store)
        try importer.importFile(atPath: RealData.path("mastodon4j/context.json"))
        let state = try store.state()
        let file = directory.file("bad.json")
        try Data(#"[{"id":"1","created_at":"2026-11-20T10:00:00Z","content":"","account":{"id":"n","acct":"n"}},{"id":"2","created_at":"yesterday","account":{"id":"n","acct":"n"}}]"#.utf8)
            .write(to: URL(fileURLWithPath: file))
        #expect {
            try importer.importFile(atPath: file)
        } throws: { error in
            guard let error = error as? ImportError else { return false }
            return error.source == file && error.line == 1 && error.field == "[1].created_at"
        }
        #expect(try store.state() == state)
    }

    @Test func detectionKeepsJSONLinesTheDefaultAndTellsTheAPIFormatsApart() throws {
        func format(_ text: String) throws -> ImportFormat { try FormatDetection.detect(Array(text.utf8)).format }
        #expect(try format(#"{"type":"user","id":"u1","handle":"a","name":"A"}"#) == .jsonl)
        #expect(try format("\u{FEFF}\n\n" + #"{"id":"m1","type":"message"}"#) == .jsonl)
        #expect(try format(#"{"something":"else"}"#) == .jsonl)
        #expect(try format("{\n  \"id\": \"1\",\n  \"account\": {\"id\": \"2\"}\n}") == .mastodon)
        #expect(try format(#"{"ancestors":[],"descendants":[]}"#) == .mastodon)
        #expect(try format("[]") == .mastodon)
        #expect(try format(#"[{"id":"1","type":"follow","account":{}}]"#) == .mastodon)
        #expect(try format(#"[{"id_str":"1","text":"x","user":{}}]"#) == .twitter)
        #expect(try format(#"{"data":[],"meta":{}}"#) == .twitter)
        #expect(try format(#"window.YTD.tweets.part0 = [{"tweet":{}}]"#) == .twitter)
        #expect(throws: ImportError.self) { try format(#"[{"name":"?"}]"#) }
        #expect(throws: ImportError.self) { try format("  ") }
    }

    /// twitter-text's conformance strings (CJK, emoji sequences, directional marks, invalid
    /// characters) as message texts: every rendered line fits the width.
    @Test func twitterTextConformanceStringsRenderWithinTheWidth() throws {
        let yaml = String(decoding: try RealData.bytes("twitter-text/validate.yml"), as: UTF8.self)
        let texts = yaml.split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("text: \""), trimmed.hasSuffix("\"") else { return nil }
            return Self.yamlDoubleQuoted(trimmed.dropFirst(7).dropLast())
        }
        #expect(texts.count > 90)
        let author = User(id: "u", handle: "tt", name: "Twitter Text")
        let messages = texts.enumerated().map { index, text in
            Message(id: "t\(index)", authorID: "u", text: text, createdAt: RealData.date(milliseconds: 1_600_000_000_000 + Int64(index)))
        }
        let page = TimelinePage(messages: messages, users: [author])
        for width in [20, 40, 80] {
            for color in [false, true] {
                let entries = TimelineRenderer(options: RenderOptions(width: width, color: color)).render(page, now: RealData.date("2026-01-01T00:00:00Z"))
                for line in entries.flatMap(\.lines) {
                    #expect(TimelineRenderer.displayWidth(ofLine: line) <= width, "\(line)")
                }
            }
        }
    }

    /// The escapes of a YAML double-quoted scalar that validate.yml uses.
    private static func yamlDoubleQuoted(_ body: Substring) -> String {
        var result = String.UnicodeScalarView()
        var scalars = body.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            guard scalar == "\\", let kind = scalars.popFirst() else {
                result.append(scalar)
                continue
            }
            let digits = kind == "u" ? 4 : kind == "U" ? 8 : kind == "x" ? 2 : 0
            if digits > 0 {
                let hex = String(String.UnicodeScalarView(scalars.prefix(digits)))
                scalars = scalars.dropFirst(digits)
                result.append(UInt32(hex, radix: 16).flatMap(Unicode.Scalar.init) ?? "\u{FFFD}")
            } else {
                switch kind {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "0": result.append("\0")
                default: result.append(kind)
                }
            }
        }
        return String(result)
    }
}
