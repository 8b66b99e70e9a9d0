import Testing

/// A mistyped command is named and, when one is close, the command meant is suggested, as
/// ArgumentParser does for a mistyped flag (issue 15: `timeline shwo` was refused as an
/// unexpected argument to show, and `timeline help shwo` printed the general help with status 0).
@Suite struct CommandSuggestionTests {
    @Test(arguments: [
        (["shwo"], "shwo", "show"), (["imprt", "feed.jsonl"], "imprt", "import"), (["mark-raed", "--all"], "mark-raed", "mark-read"),
        (["serach", "coffee"], "serach", "search"), (["imp"], "imp", "import"), (["help", "shwo"], "shwo", "show"),
        (["help", "stast"], "stast", "stats"), (["--db", "/tmp/x.sqlite", "imprt", "f"], "imprt", "import"),
        (["--db=/tmp/x.sqlite", "shwo"], "shwo", "show"),
    ])
    func aMistypedCommandGetsASuggestion(arguments: [String], typed: String, meant: String) throws {
        let result = try Scenario().timeline.run(arguments)
        #expect(result.status == 64)
        #expect(result.output.isEmpty)
        #expect(result.errors.hasPrefix("Error: Unknown command '\(typed)'. Did you mean '\(meant)'?\n"), "\(result.errors)")
    }

    @Test func aWordFarFromEveryCommandIsNamedWithoutAGuess() throws {
        for arguments in [["xyzzy"], ["help", "xyzzy"]] {
            let result = try Scenario().timeline.run(arguments)
            #expect(result.status == 64)
            #expect(result.errors == "Error: Unknown command 'xyzzy'.\nSee 'timeline --help' for the list of commands.\n")
        }
    }

    @Test func aHostileWordIsShownInert() throws {
        let result = try Scenario().timeline.run(["sh\u{1B}[2Jow"])
        #expect(result.status == 64)
        #expect(!result.errors.contains("\u{1B}"))
    }

    @Test func realCommandsAndTheirHelpStillWork() throws {
        let scenario = Scenario()
        for arguments in [["help"], ["help", "show"], ["help", "login"], ["help", "mark-read"], ["show", "--help"], ["--version"]] {
            let result = try scenario.timeline.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.errors)")
            #expect(!result.output.isEmpty, "\(arguments)")
        }
        #expect(try scenario.timeline.run(["help", "show"]).output.contains("timeline show"))
        #expect(try scenario.timeline.run([]).status == 0)
        #expect(try scenario.timeline.run(["--db", scenario.databasePath]).status == 0)
    }

    @Test func aMistypedFlagStillGetsArgumentParsersSuggestion() throws {
        let result = try Scenario().timeline.run(["show", "--lmit", "3"])
        #expect(result.status == 64)
        #expect(result.errors.contains("Did you mean '--limit'?"))
    }
}
