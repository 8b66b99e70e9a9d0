import Foundation
import Testing

/// The README's captured screen is what `timeline show` prints on the demo timeline, not a
/// drawing: only the ages (`3d`, `Nov 23`) move with the day it is read.
@Suite struct ReadmeScreenTests {
    /// The captured block: the command line typed (after `$ `) and the lines it printed.
    static func capture() throws -> (command: [String], lines: [String]) {
        let readme = try String(contentsOfFile: Scenario.repositoryPath("README.md"), encoding: .utf8)
        let block = try #require(readme.components(separatedBy: "```text\n$ ").dropFirst().first?
            .components(separatedBy: "\n```").first, "README.md has no captured screen (```text then $ COMMAND)")
        let lines = block.components(separatedBy: "\n")
        return (lines[0].split(separator: " ").map(String.init), Array(lines.dropFirst()))
    }

    /// A header line's age (`· 3d`, `· now`, `· Nov 23`, `· 2025-11-23`) as one mark.
    static func withoutAges(_ lines: [String]) -> [String] {
        lines.map { line in
            // The short reference after the age stays: the demo's import order fixes it.
            line.replacing(/\s· (now|\d+[smhd]|[A-Z][a-z]{2} \d{1,2}|\d{4}-\d{2}-\d{2})(?<ref> · [bcdfghjklmnpqrstvwxz]{3,12})?$/) { match in
                " · AGE" + (match.output.ref.map(String.init) ?? "")
            }
        }
    }

    @Test func agesAreTheOnlyPartLeftOut() {
        #expect(Self.withoutAges(["  Mika @mika · 3d", "● Omar @omar · Nov 23 · bvk", "text · 3 dogs"])
            == ["  Mika @mika · AGE", "● Omar @omar · AGE · bvk", "text · 3 dogs"])
    }

    @Test func theCapturedScreenIsWhatShowPrintsOnTheDemoTimeline() throws {
        let (command, lines) = try Self.capture()
        #expect(Array(command.prefix(2)) == ["timeline", "show"], "\(command)")
        let scenario = Scenario()
        try scenario.importSample()
        // The capture's own arguments, without its --db (the scenario's database holds the same
        // import), at the width of the captured terminal.
        var arguments = Array(command.dropFirst())
        if let db = arguments.firstIndex(of: "--db") { arguments.removeSubrange(db...(db + 1)) }
        let result = try scenario.timeline.run(arguments + ["--width", "80", "--color", "never"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(lines.count > 4)
        #expect(Self.withoutAges(result.output.components(separatedBy: "\n").dropLast()) == Self.withoutAges(lines))
    }
}
