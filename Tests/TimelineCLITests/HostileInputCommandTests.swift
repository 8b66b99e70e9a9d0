import Foundation
import Testing

/// What a hostile file, server or script can make `timeline` print, seen from outside (issue 12).
@Suite struct HostileInputCommandTests {
    /// Characters standard error must never carry from input: C0 (but line feed), DEL, C1, and the
    /// bidirectional embeddings, overrides and isolates.
    static func carriesUnsafeCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            let value = scalar.value
            return (value < 0x20 && value != 0x0A) || (0x7F ... 0x9F).contains(value)
                || (0x202A ... 0x202E).contains(value) || (0x2066 ... 0x2069).contains(value)
        }
    }

    @Test func anImportErrorPrintsABidirectionalOverrideFromTheFileAsAnEscape() throws {
        let scenario = Scenario()
        let file = scenario.directory + "/feed.jsonl"
        try Data(("""
            {"type":"user","id":"u1","handle":"a","name":"A"}
            {"type":"message","id":"m1","author":"u1","text":"x","created_at":"2026-11-20\u{202E}T10:00:00Z"}

            """).utf8).write(to: URL(fileURLWithPath: file))
        let result = try scenario.timeline.run(["import", file])
        #expect(result.status == 65)
        #expect(result.errors.contains(#""2026-11-20\u202eT10:00:00Z""#), "\(result.errors)")
        #expect(!Self.carriesUnsafeCharacters(result.errors), "\(result.errors.unicodeScalars.map(\.value))")
    }

    @Test func aMessageNamingAnUnknownAuthorQuotesBothIDsInertly() throws {
        let scenario = Scenario()
        let ids = (message: "m\u{1B}]0;owned\u{07}\u{202E}", author: "\u{9B}31mghost\u{2067}")
        let line = #"{"type":"message","id":"\#(Self.jsonEscaped(ids.message))","author":"\#(Self.jsonEscaped(ids.author))","text":"x","created_at":"2026-11-20T10:00:00Z"}"#
        let result = try scenario.timeline.run(["import", "-"], input: Data((line + "\n").utf8))
        #expect(result.status == 65)
        #expect(result.errors.contains("names author"), "\(result.errors)")
        #expect(!Self.carriesUnsafeCharacters(result.errors), "\(result.errors.unicodeScalars.map(\.value))")
    }

    @Test func aUsageErrorQuotingAnArgumentPrintsItInert() throws {
        let scenario = Scenario()
        for arguments in [["show", "--\u{1B}]0;owned\u{07}"], ["show", "--x\u{202E}y"], ["mark-read", "--\u{202E}all"],
                          ["prune", "--older-than", "1\u{1B}[2Jy"]] {
            let result = try scenario.timeline.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.errors)")
            #expect(result.errors.contains("Error:"), "\(result.errors)")
            #expect(!Self.carriesUnsafeCharacters(result.errors), "\(arguments): \(result.errors.unicodeScalars.map(\.value))")
        }
        // Help still goes to standard output, whole.
        let help = try scenario.timeline.run(["show", "--help"])
        #expect(help.status == 0 && help.output.contains("USAGE: timeline show"))
    }

    /// A Mastodon array whose first status holds more than the first MiB before its `account`
    /// was refused as "the input ends too early" (a file) or as not looking like Mastodon (a
    /// pipe); with --format mastodon the real error showed (issue 12, item 10).
    @Test(arguments: [false, true])
    func aStatusLargerThanTheDetectionWindowGetsTheDecodersErrorWithoutFormat(fromAPipe: Bool) throws {
        let scenario = Scenario()
        let content = String(repeating: "x", count: (1 << 20) + 10)
        let document = #"[{"id":"1","created_at":"2026-11-20T10:00:00Z","content":"\#(content)","account":{"id":"9","acct":"a"}}]"#
        let result: TimelineProcess.Result
        if fromAPipe {
            result = try scenario.timeline.run(["import", "-"], input: Data(document.utf8))
        } else {
            let file = scenario.directory + "/home.json"
            try Data(document.utf8).write(to: URL(fileURLWithPath: file))
            result = try scenario.timeline.run(["import", file])
        }
        let withFormat = try scenario.timeline.run(["import", "--format", "mastodon", "-"], input: Data(document.utf8))
        #expect(result.status == 65)
        #expect(result.errors.contains("reading Mastodon statuses"), "\(result.errors)")
        #expect(!result.errors.contains("cannot tell the format"), "\(result.errors)")
        #expect(result.errors.contains("`[0].content`"), "\(result.errors)")
        // The same error as with --format, but for the name of the input.
        let error = { (text: String) -> String? in
            guard let last = text.split(separator: "\n").last, let start = last.range(of: ": `") else { return nil }
            return String(last[start.lowerBound...])
        }
        #expect(error(result.errors) != nil)
        #expect(error(result.errors) == error(withFormat.errors))
    }

    /// 0001-01-01T00:00:00Z, the first instant kept, showed as 0001-01-02 (a clamp with a day's
    /// margin); in New York it is still the year 0, shown as the UTC date rather than five digits
    /// or a clamped one.
    @Test(arguments: ["UTC", "America/New_York", "Asia/Tokyo", "Pacific/Kiritimati"])
    func theFirstAndLastStorableTimesShowAsTheirDatesInEveryTimeZone(zone: String) throws {
        let scenario = Scenario(environment: ["TZ": zone])
        let lines = """
            {"type":"user","id":"u1","handle":"a","name":"A"}
            {"type":"message","id":"first","author":"u1","text":"first","created_at":"0001-01-01T00:00:00Z"}

            """
        #expect(try scenario.timeline.run(["import", "-"], input: Data(lines.utf8)).status == 0)
        let shown = try scenario.timeline.run(["show"])
        #expect(shown.status == 0)
        #expect(shown.output.contains("A @a · 0001-01-01"), "\(zone): \(shown.output)")
    }

    private static func jsonEscaped(_ text: String) -> String {
        text.unicodeScalars.map { scalar in
            scalar.value < 0x20 || (0x7F ... 0x9F).contains(scalar.value)
                ? String(format: "\\u%04x", scalar.value) : String(scalar)
        }.joined()
    }
}
