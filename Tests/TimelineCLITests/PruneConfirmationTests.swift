import Foundation
import Testing

/// `prune` cannot be undone: on a terminal it counts first and asks; scripts say `--yes`; without
/// a terminal to ask on and without `--yes` it removes nothing (issue 15).
@Suite struct PruneConfirmationTests {
    /// The question `importTimeline`'s 20 old messages (and the user only they name) bring.
    static let question = "Remove 21 messages older than 30 days (and 1 user only they named)? [y/N] "

    @Test func onATerminalItAsksWithTheCountAndRemovesOnYes() throws {
        let scenario = Scenario()
        try MaintenanceCommandTests.importTimeline(scenario)
        let result = try scenario.timeline.runInTerminal(["prune", "--older-than", "30d"], typing: "y\n")
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.errors == Self.question)
        #expect(result.output.contains("Removed 21 messages and 1 user older than 30 days"))
        #expect(try scenario.sqlite("SELECT count(*) FROM messages") == "5")
    }

    @Test(arguments: ["n\n", "\n", "nope\n", "\u{4}"])
    func anyAnswerButYesRemovesNothing(answer: String) throws {
        let scenario = Scenario()
        try MaintenanceCommandTests.importTimeline(scenario)
        let result = try scenario.timeline.runInTerminal(["prune", "--older-than", "30d"], typing: answer)
        #expect(result.status == 1)
        #expect(result.errors.hasPrefix(Self.question))
        #expect(result.errors.hasSuffix("Nothing was removed.\n"))
        #expect(!result.output.contains("Removed"))
        #expect(try scenario.sqlite("SELECT count(*) FROM messages") == "26")
    }

    @Test func withoutATerminalItRefusesUnlessToldYes() throws {
        let scenario = Scenario()
        try MaintenanceCommandTests.importTimeline(scenario)
        let refused = try scenario.timeline.run(["prune", "--older-than", "30d"], input: Data("y\n".utf8))
        #expect(refused.status == 64)
        #expect(refused.errors.contains("--yes"))
        #expect(refused.errors.contains("Nothing was removed."))
        #expect(refused.output.isEmpty)
        #expect(try scenario.sqlite("SELECT count(*) FROM messages") == "26")

        #expect(try scenario.timeline.run(["prune", "--older-than", "30d", "--dry-run"]).status == 0)
        let scripted = try scenario.timeline.run(["prune", "--older-than", "30d", "--yes"])
        #expect(scripted.status == 0, "\(scripted.errors)")
        #expect(try scenario.sqlite("SELECT count(*) FROM messages") == "5")
    }

    @Test func yesOrNothingToRemoveAsksNothingOnATerminal() throws {
        let scenario = Scenario()
        try MaintenanceCommandTests.importTimeline(scenario)
        let nothingOld = try scenario.timeline.runInTerminal(["prune", "--older-than", "2y"])
        #expect(nothingOld.status == 0, "\(nothingOld.errors)")
        #expect(nothingOld.errors.isEmpty)
        #expect(nothingOld.output.contains("Removed 0 messages and 0 users"))
        let told = try scenario.timeline.runInTerminal(["prune", "--older-than", "30d", "-y"])
        #expect(told.status == 0, "\(told.errors)")
        #expect(told.errors.isEmpty)
        #expect(try scenario.sqlite("SELECT count(*) FROM messages") == "5")
    }
}
