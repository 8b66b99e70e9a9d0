import Foundation
import Testing
import TimelineKit

/// Every line of every reading command fits the width it was given (issue 23, item 15): a
/// notification line once ran past 100 columns, and `--width 40` printed 50-column lines.
@Suite struct WidthTests {
    static func widest(_ text: String) -> Int {
        text.split(separator: "\n").map { DisplayWidth.of($0) }.max() ?? 0
    }

    @Test(arguments: [40, 60, 100])
    func everyReadingCommandFitsTheWidthItWasGiven(width: Int) throws {
        let server = try MastodonTestServer(statuses: 80)
        let home = try NextStepTests.loggedIn(server)
        #expect(try home.timeline.run(["sync"]).status == 0)
        let newest = try #require(try home.timeline.run(["show", "--format", "{id}", "-n", "1"]).output.split(separator: "\n").first)
        let commands: [[String]] = [
            ["show", "-n", "30"], ["show", "--notifications", "-n", "40"], ["search", "the"], ["thread", String(newest)],
        ]
        for command in commands {
            let result = try home.timeline.run(command + ["--width", String(width), "--color", "never"])
            #expect(result.status == 0, "\(command): \(result.errors)")
            #expect(!result.output.isEmpty, "\(command)")
            #expect(Self.widest(result.output) <= width, "\(command) at \(width):\n\(result.output)")
        }
    }
}
