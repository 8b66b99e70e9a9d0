import Foundation
import Testing

/// `timeline --help` (and the manual page made from it) opens with the first day, not with a
/// file only the source checkout has, and groups the commands (issue 23, item 16).
@Suite struct TopLevelHelpTests {
    @Test func helpOpensWithTheFirstDayAndGroupsTheCommands() throws {
        let help = try EmptyHome().timeline.run(["--help"])
        #expect(help.status == 0)
        let lines = help.output.split(separator: "\n").map(String.init)
        let login = try #require(lines.firstIndex { $0.contains("timeline login mastodon") })
        let sync = try #require(lines.firstIndex { $0.contains("timeline sync") })
        #expect(login < 6 && login < sync, "\(help.output)")
        #expect(!help.output.contains("Fixtures/"), "an installed timeline has no Fixtures/")
        for group in ["READING SUBCOMMANDS", "YOUR ACCOUNTS SUBCOMMANDS", "YOUR DATA SUBCOMMANDS", "MAINTENANCE SUBCOMMANDS"] {
            #expect(help.output.contains(group), "\(group)")
        }
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(help.output)")
    }
}
