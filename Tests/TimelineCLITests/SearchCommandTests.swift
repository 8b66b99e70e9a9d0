import Foundation
import Testing
import TimelineKit

/// `timeline search` end to end: JSON Lines, highlighting on a terminal and not on a pipe, what
/// it says and returns for bad queries and for nothing found, and hostile text in results.
@Suite struct SearchCommandTests {
    /// A scenario with alice, bob and a few messages (the hostile one newest).
    private func scenario(environment: [String: String] = [:]) throws -> Scenario {
        let scenario = Scenario(environment: environment)
        let lines = [
            #"{"type":"user","id":"u1","handle":"alice","name":"Alice"}"#,
            #"{"type":"user","id":"u2","handle":"bob","name":"Bob"}"#,
            #"{"type":"message","id":"m1","author":"u1","text":"Un café au lait #coffee","created_at":"2026-11-20T10:00:00Z"}"#,
            #"{"type":"message","id":"m2","author":"u2","text":"今日は天気がいい、coffee","created_at":"2026-11-20T11:00:00Z","read":true}"#,
            #"{"type":"message","id":"m3","author":"u2","text":"\u001b[2J\u001b]0;pwned\u0007 cafe \u001b[31mtime","created_at":"2026-11-20T12:00:00Z"}"#,
        ]
        let result = try scenario.timeline.run(["import", "-"], input: Data((lines.joined(separator: "\n") + "\n").utf8))
        precondition(result.status == 0, "import failed: \(result.errors)")
        return scenario
    }

    @Test func jsonPrintsOneMessageALineNewestFirstLikeShow() throws {
        let scenario = try scenario()
        let result = try scenario.timeline.run(["search", "cafe", "--json"])
        #expect(result.status == 0)
        let objects = try result.output.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["id"] as? String } == ["m3", "m1"])
        #expect((objects[1]["user"] as? [String: Any])?["handle"] as? String == "alice")
        #expect(!result.output.contains("\u{1b}[7m"))
    }

    @Test func filtersAndLimitApply() throws {
        let scenario = try scenario()
        let ids = { (arguments: [String]) throws -> [String] in
            try scenario.timeline.run(["search", "--json"] + arguments).output.split(separator: "\n").compactMap {
                (try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["id"] as? String
            }
        }
        #expect(try ids(["coffee"]) == ["m2", "m1"])
        #expect(try ids(["coffee", "-n", "1"]) == ["m2"])
        #expect(try ids(["coffee", "--author", "@alice"]) == ["m1"])
        #expect(try ids(["coffee", "--unread"]) == ["m1"])
        #expect(try ids(["天気"]) == ["m2"])
        #expect(try ids(["#coffee"]) == ["m1"])
        #expect(try ids(["coffee", "--", "-café"]) == ["m2"])
    }

    @Test func matchesAreHighlightedOnATerminalOnly() throws {
        let scenario = try scenario()
        let terminal = try scenario.timeline.runInTerminal(["search", "天気"])
        #expect(terminal.status == 0)
        #expect(terminal.output.contains("\u{1b}[7m天気\u{1b}[0m"), "\(terminal.output.debugDescription)")

        let piped = try scenario.timeline.run(["search", "天気"])
        #expect(piped.status == 0)
        #expect(piped.output.contains("今日は天気がいい"))
        #expect(!piped.output.contains("\u{1b}"))

        var quiet = scenario.timeline
        quiet.environment["NO_COLOR"] = "1"
        let uncoloured = try quiet.runInTerminal(["search", "天気"])
        #expect(uncoloured.output.contains("今日は天気がいい"))
        #expect(!uncoloured.output.contains("\u{1b}[7m"))
    }

    @Test func escapeSequencesInResultsAreNeutralisedAndTheMatchStillShows() throws {
        let scenario = try scenario()
        let terminal = try scenario.timeline.runInTerminal(["search", "cafe", "-n", "1"])
        #expect(terminal.status == 0)
        let output = terminal.output
        #expect(output.contains("\u{1b}[7mcafe\u{1b}[0m"))
        #expect(output.contains("␛[2J"))
        #expect(!output.contains("\u{1b}[2J"))
        #expect(!output.contains("\u{1b}]0;"))
        #expect(!output.contains("\u{1b}[31m"))
    }

    @Test func aBadQueryIsAUsageErrorThatSaysWhatToDo() throws {
        let scenario = try scenario()
        let unclosed = try scenario.timeline.run(["search", "\"good morning"])
        #expect(unclosed.status == 64)
        #expect(unclosed.errors.contains("double quotes"))
        #expect(!unclosed.errors.contains("SQLite"))
        #expect(unclosed.output.isEmpty)
        let empty = try scenario.timeline.run(["search", "  "])
        #expect(empty.status == 64)
        #expect(empty.errors.contains("no words"))
        let syntax = try scenario.timeline.run(["search", "NEAR(coffee"])
        #expect(syntax.status == 2)
        #expect(!syntax.errors.contains("SQLite"))
    }

    /// Issue 33: 999 words printed SQLite's "Expression tree is too large" and the whole
    /// statement (exit 1); the bound on the terms is said in one line (65).
    @Test func aQueryOfTooManyWordsIsRefusedInOneLine() throws {
        let scenario = try scenario()
        let many = try scenario.timeline.run(["search"] + (0 ..< 999).map { "w\($0)" })
        #expect(many.status == 65, "\(many.errors.prefix(300))")
        #expect(many.errors.split(separator: "\n").count == 1 && many.errors.contains("999"), "\(many.errors.prefix(300))")
        #expect(!many.errors.contains("SQLite") && !many.errors.contains("SELECT") && many.output.isEmpty)
    }

    @Test func nothingFoundExitsTwoWithANote() throws {
        let scenario = try scenario()
        let none = try scenario.timeline.run(["search", "tea"])
        #expect(none.status == 2)
        #expect(none.output.isEmpty)
        #expect(none.errors.contains("no messages match \"tea\""))
        let nobody = try scenario.timeline.run(["search", "coffee", "--author", "carol"])
        #expect(nobody.status == 2)
        #expect(nobody.errors.contains("no user has the handle \"@carol\""))
    }

    @Test func withoutADatabaseItSaysHowToCreateOne() throws {
        let scenario = Scenario()
        let result = try scenario.timeline.run(["search", "coffee"])
        #expect(result.status == 66)
        #expect(!FileManager.default.fileExists(atPath: scenario.databasePath))
    }
}

/// Flags after `--` are words of the query, by design (issue 15); the help says so.
@Suite struct SearchDoubleDashTests {
    @Test func wordsAfterTheDoubleDashAreTheQueryAndTheHelpSaysSo() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let result = try scenario.timeline.run(["search", "swift", "--", "-kotlin", "-n", "2"])
        #expect(result.status == 2)
        #expect(result.errors == "timeline: no messages match \"swift -kotlin -n 2\"\n")
        let help = try scenario.timeline.run(["search", "--help"])
        #expect(help.output.contains("Everything after -- is the query, by design"), "\(help.output)")
        #expect(try scenario.timeline.run(["search", "-n", "2", "swift", "--", "-kotlin"]).status == 0)
    }
}
