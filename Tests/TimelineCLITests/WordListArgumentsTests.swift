import ArgumentParser
import Foundation
import Testing
@testable import timeline

/// Long lists of words on a command line (issue 33, item 8): 20,000 references took 9 to 13 s
/// before anything happened, `--help` included, ArgumentParser reading a list in quadratic
/// time. `WordListArguments` hands it the list short; these tests hold what is read to what
/// ArgumentParser reads from the whole line, the premise of that to the commands' options, and
/// the time to a line.
@Suite struct WordListArgumentsTests {
    /// `count` distinct words that look like references.
    static func words(_ count: Int, prefix: String = "b") -> [String] {
        (0 ..< count).map { prefix + String($0, radix: 20) }
    }

    /// The words and every option value of `command`, for comparing two readings.
    static func reading(_ command: any ParsableCommand) -> String {
        "\(type(of: command)) \(String(reflecting: command))"
    }

    static let lines: [[String]] = [
        ["favourite"] + words(100),
        ["like", "--account", "alice@example.social"] + words(100) + ["--json"] + words(5, prefix: "c"),
        ["--db", "/tmp/x.sqlite", "boost"] + words(100),
        ["--db=/tmp/x.sqlite", "unbookmark", "--json"] + words(70) + ["--account=bob"] + words(3, prefix: "d"),
        ["delete", "--local"] + words(80) + ["--", "-x", "--json"] + words(10, prefix: "-"),
        ["mark-read", "--unread"] + words(90),
        ["search", "-n", "5", "coffee"] + words(100) + ["--json", "tea", "OR", "milk", "--", "-decaf", "-n", "2"],
        ["search", "--author", "@mika"] + words(66),
        ["follow", "--account", "me"] + (0 ..< 70).map { "user\($0)@example.social" },
        ["unfollow"] + (0 ..< 70).map { "user\($0).bsky.social" },
    ]

    @Test(arguments: lines)
    func aLongListIsReadAsArgumentParserReadsTheWholeLine(line: [String]) throws {
        let shortened = WordListArguments(line)
        #expect(shortened.arguments.count < 20, "\(shortened.arguments)")
        let whole = try TimelineCommand.parseAsRoot(line)
        let read = try TimelineCommand.parse(commandLine: line)
        #expect((read as? any WordListCommand)?.words == (whole as? any WordListCommand)?.words)
        #expect(Self.reading(read) == Self.reading(whole))
        #expect(!Self.reading(read).contains("\u{0}"))
    }

    /// What the shortening rests on: each of these commands has one positional argument, the
    /// list, and no option that takes more than the one value after its name.
    @Test func everyWordListCommandHasOneListAndOptionsOfOneValue() throws {
        let commands = TimelineCommand.configuration.subcommands.filter { $0 is any WordListCommand.Type }
        #expect(commands.count == 11)
        for command in commands {
            let name = try #require(command.configuration.commandName)
            let arguments = try LaunchArgumentsTests.dumpedArguments(of: name)
            #expect(arguments.filter { $0.kind == "positional" }.count == 1, "\(name): \(arguments)")
            for option in arguments where option.kind == "option" {
                #expect(["default", "scanningForValue", "unconditional"].contains(option.parsingStrategy), "\(name): \(option) is parsed \(option.parsingStrategy)")
            }
        }
    }

    /// The line: 20,000 references, with --help and without. A second or two at most
    /// when linear, even in a debug build on a loaded machine; minutes when quadratic.
    @Test func twentyThousandReferencesAreReadAtOnce() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let references = Self.words(20_000, prefix: "x")
        for arguments in [["favourite", "--help"] + references, ["mark-read"] + references] {
            let started = Date()
            let result = try scenario.timeline.run(arguments)
            let seconds = Date().timeIntervalSince(started)
            #expect(seconds < 15, "\(arguments[0..<2]): \(seconds) s")
            #expect(arguments[1] == "--help" ? result.status == 0 && result.output.contains("USAGE") : result.status == 65, "\(result.errors.prefix(300))")
        }
    }
}
