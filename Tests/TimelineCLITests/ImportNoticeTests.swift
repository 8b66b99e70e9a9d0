import Foundation
import Testing

/// What `import` says on standard error (issue 15): the format only when it was guessed from the
/// content and is not JSON Lines, the default; and, reading a terminal, what it waits for.
@Suite struct ImportNoticeTests {
    @Test func jsonLinesTakenAsTheDefaultIsNotAnnounced() throws {
        let scenario = Scenario()
        let result = try scenario.timeline.run(["import", Scenario.sampleTimeline])
        #expect(result.status == 0)
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(result.output == "Imported 374 lines: 37 users (37 new), 337 messages (337 new).\n")
    }

    @Test func aGuessedFormatOtherThanJSONLinesIsAnnounced() throws {
        let scenario = Scenario()
        let result = try scenario.timeline.run(["import", "-"], input: Data("[]".utf8))
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.errors == "timeline: reading an empty JSON array as mastodon (choose with --format)\n")
        let told = try scenario.timeline.run(["import", "--format", "mastodon", "-"], input: Data("[]".utf8))
        #expect(told.errors.isEmpty)
    }

    @Test func readingATerminalSaysWhatItWaitsFor() throws {
        let scenario = Scenario()
        let line = #"{"type":"user","id":"u1","handle":"alice","name":"Alice"}"#
        let result = try scenario.timeline.runInTerminal(["import"], typing: line + "\n\u{4}")
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.errors == "timeline: reading JSON Lines from the terminal; end with Ctrl-D\n")
        #expect(result.output.contains("Imported 1 line: 1 user (1 new), 0 messages (0 new).\n"), "\(result.output)")

        let file = try scenario.timeline.runInTerminal(["import", Scenario.sampleTimeline])
        #expect(file.errors.isEmpty, "a file is not the terminal: \(file.errors)")
    }
}
