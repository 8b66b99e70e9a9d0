import Foundation
import Testing

/// `--db` is every command's, before the command's name as after it (issue 26): the copy
/// `timeline export | timeline --db other.sqlite import -` that `timeline export --help` and
/// `timeline doctor` advise was refused as arguments to `show` (exit 64).
@Suite struct GlobalOptionCommandTests {
    @Test func theDatabaseMayBeNamedBeforeTheCommand() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let exported = try scenario.timeline.run(["export"])
        #expect(exported.status == 0)
        let other = scenario.directory + "/other.sqlite"

        let file = scenario.directory + "/export.jsonl"
        try Data(exported.output.utf8).write(to: URL(fileURLWithPath: file))
        let imported = try scenario.timeline.run(["--db", other, "import", file])
        try #require(imported.status == 0, "\(imported.errors)")
        #expect(try scenario.timeline.run(["--db", other, "export"]).output == exported.output)
        // The advice, word for word (a refusal would not read the pipe: checked above first).
        let piped = scenario.directory + "/piped.sqlite"
        let copied = try scenario.timeline.run(["--db", piped, "import", "-"], input: Data(exported.output.utf8))
        #expect(copied.status == 0, "\(copied.errors)")
        #expect(try scenario.timeline.run(["--db", piped, "export"]).output == exported.output)
        // The same place either side of the command's name, and in the `--db=` spelling.
        let before = try scenario.timeline.run(["--db=\(other)", "stats", "--json"])
        let after = try scenario.timeline.run(["stats", "--json", "--db", other])
        #expect(before.status == 0 && after.status == 0)
        #expect(before.output == after.output)
        #expect(before.output.contains("\"database\":\"\(other)\""), "\(before.output)")
        // `show` (the default command) too, named or not.
        let shown = try scenario.timeline.run(["--db", other, "show", "-n", "2", "--json"])
        #expect(shown.status == 0, "\(shown.errors)")
        #expect(shown.output == (try scenario.timeline.run(["--db", other, "-n", "2", "--json"])).output)
        #expect(shown.output.split(separator: "\n").count == 2)
    }
}
