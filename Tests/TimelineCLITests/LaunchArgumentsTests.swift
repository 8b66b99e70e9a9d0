import ArgumentParser
import Foundation
import Testing
@testable import timeline

/// `show` runs at every terminal start and reads its command line by hand (`ShowRequest.parse`,
/// `LaunchArguments`); every other command is read by ArgumentParser alone. These tests hold the
/// hand reader's flag table to the one ArgumentParser declares (its own dump of `show`, as
/// `--experimental-dump-help` prints it), and the two readers to the same requests: for every
/// option and flag ArgumentParser lists, and for the command lines people type.
@Suite struct LaunchArgumentsTests {
    /// One argument of ArgumentParser's dump (`ToolInfoV0`): its kind and names with dashes.
    struct DumpedArgument: CustomStringConvertible {
        var kind: String
        var names: [String]
        var parsingStrategy: String
        var allValues: [String]
        var description: String { "\(kind) \(names)" }
    }

    /// `show`'s options and flags as ArgumentParser dumps them, without its own `--help` and
    /// `--version`.
    static func dumpedShowArguments() throws -> [DumpedArgument] {
        try dumpedArguments(of: "show")
    }

    /// A command's options and flags as ArgumentParser dumps them (`timeline NAME
    /// --experimental-dump-help`), without `--help` and `--version`.
    static func dumpedArguments(of name: String) throws -> [DumpedArgument] {
        let error = try #require(throws: (any Error).self) { try TimelineCommand.parseAsRoot([name, "--experimental-dump-help"]) }
        let json = TimelineCommand.fullMessage(for: error)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let command = try #require(root["command"] as? [String: Any])
        #expect(command["commandName"] as? String == name)
        let arguments = try #require(command["arguments"] as? [[String: Any]])
        return arguments.compactMap { argument -> DumpedArgument? in
            let names = (argument["names"] as? [[String: Any]] ?? []).map { name in
                (name["kind"] as? String == "short" ? "-" : "--") + (name["name"] as? String ?? "")
            }
            if names.contains("--help") || names.contains("--version") { return nil }
            return DumpedArgument(kind: argument["kind"] as? String ?? "", names: names,
                                  parsingStrategy: argument["parsingStrategy"] as? String ?? "",
                                  allValues: argument["allValues"] as? [String] ?? [])
        }
    }

    @Test(arguments: [("show", ShowRequest.flagTable), ("browse", BrowseRequest.flagTable)])
    func theHandReadersTableIsArgumentParsersTable(command: String, table: LaunchArguments.Table) throws {
        let dumped = try Self.dumpedArguments(of: command)
        #expect(!dumped.isEmpty)
        // No positional arguments: after `show`, a word is a mistyped command (CommandSuggestion).
        #expect(dumped.allSatisfy { $0.kind != "positional" }, "\(dumped)")
        let fromArgumentParser = Set(dumped.map { "\($0.kind) \($0.names.sorted())" })
        let fromTable = Set(table.entries.map { "\($0.takesValue ? "option" : "flag") \($0.names.sorted())" })
        #expect(fromTable == fromArgumentParser)
        // The hand reader takes a value after an option's name only when it does not look like a
        // flag: ArgumentParser's default strategy. Another strategy needs the reader taught it.
        for argument in dumped where argument.kind == "option" {
            #expect(argument.parsingStrategy == "default", "\(argument) is parsed \(argument.parsingStrategy)")
        }
    }

    /// A valid value for each of `show`'s options, for the test generated from the dump: an
    /// option added to `ShowCommand` without one here fails it, and so does one the hand reader
    /// leaves to ArgumentParser.
    static let sampleValues = [
        "--db": "/tmp/x.sqlite", "--limit": "3", "--width": "40", "--busy-timeout": "250",
        "--format": "{id} {text}", "--author": "alice", "--before": "abc", "--sync-if-older": "5m",
    ]

    @Test func everyOptionArgumentParserListsIsReadAlikeByHand() throws {
        for argument in try Self.dumpedShowArguments() {
            for name in argument.names {
                var line = [name]
                if name == "--only" {
                    // With --notifications only, which is not the launch path: ArgumentParser reads it.
                    let full = ["--notifications", name, "mentions"]
                    #expect(ShowRequest.parse(full) == nil)
                    #expect(try ShowCommand.parse(full).request.notificationKinds == "mentions")
                    continue
                }
                if argument.kind == "option" {
                    let long = try #require(argument.names.first { $0.hasPrefix("--") })
                    let values = argument.allValues.isEmpty ? [try #require(Self.sampleValues[long], "no sample value for \(long)")] : argument.allValues
                    for value in values {
                        try expectAgreement([name, value])
                        try expectAgreement(["show", name + (name.hasPrefix("--") ? "=" : "") + value])
                    }
                    continue
                }
                if name == "--requests" {
                    let full = ["--notifications", name]
                    #expect(ShowRequest.parse(full) == nil)
                    #expect(try ShowCommand.parse(full).request.notificationRequests)
                    continue
                }
                if name == "--notifications" {
                    // Not the launch path: ArgumentParser reads it, and prints them.
                    #expect(ShowRequest.parse(line) == nil)
                    #expect(try ShowCommand.parse(line).request.notifications)
                    continue
                }
                try expectAgreement(line)
                line.insert("show", at: 0)
                try expectAgreement(line)
            }
        }
    }

    @Test func browsesEveryOptionIsReadAlikeByHand() throws {
        var lines: [[String]] = [[]]
        for argument in try Self.dumpedArguments(of: "browse") {
            let long = try #require(argument.names.first { $0.hasPrefix("--") })
            if argument.kind == "flag" {
                lines.append([long])
            } else {
                let values = argument.allValues.isEmpty ? [try #require(Self.sampleValues[long], "no sample value for \(long)")] : argument.allValues
                lines += values.flatMap { [[long, $0], [long + "=" + $0]] }
            }
        }
        lines.append(["--db", "/tmp/x.sqlite", "--color", "never", "--expand"])
        for line in lines {
            let fast = try #require(BrowseRequest.parse(line), "\(line) was left to ArgumentParser")
            let parsed = try BrowseCommand.parse(line)
            #expect(fast == BrowseRequest(databasePath: parsed.location.db, color: parsed.color, expand: parsed.expand), "\(line)")
        }
        for unusual in [["--help"], ["--color", "sometimes"], ["--expand=yes"], ["--db"], ["-n", "3"], ["extra"], ["--expand", "--expand"]] {
            #expect(BrowseRequest.parse(unusual) == nil, "\(unusual)")
        }
    }

    /// `init SHELL [--count N]`, read by hand when the start-up line finds no cached copy of the
    /// hook (issue 28): its table is ArgumentParser's, less the one positional word (the shell,
    /// read first), and both readers make the same request of every line people write.
    @Test func initsHandReaderAgreesWithArgumentParser() throws {
        let dumped = try Self.dumpedArguments(of: "init")
        #expect(dumped.filter { $0.kind == "positional" }.count == 1, "\(dumped)")
        let fromArgumentParser = Set(dumped.filter { $0.kind != "positional" }.map { "\($0.kind) \($0.names.sorted())" })
        let fromTable = Set(InitRequest.flagTable.entries.map { "\($0.takesValue ? "option" : "flag") \($0.names.sorted())" })
        #expect(fromTable == fromArgumentParser)
        for line in [["bash"], ["zsh"], ["fish"], ["zsh", "--count", "5"], ["fish", "--count=7"], ["bash", "--count", "1000"], ["bash", "--count", "1"]] {
            let fast = try #require(InitRequest.parse(line[...]), "\(line) was left to ArgumentParser")
            let parsed = try InitCommand.parse(line)
            #expect(fast == InitRequest(shell: parsed.shell, count: parsed.count), "\(line)")
        }
        for unusual in [[], ["tcsh"], ["bash", "--count", "0"], ["bash", "--count", "1001"], ["bash", "--count", "x"], ["bash", "--help"],
                        ["--count", "5", "bash"], ["bash", "extra"], ["bash", "--count"], ["bash", "--count", "2", "--count", "3"]] {
            #expect(InitRequest.parse(unusual[...]) == nil, "\(unusual)")
        }
    }

    private func expectAgreement(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let fast = try #require(ShowRequest.parse(arguments), "\(arguments) was left to ArgumentParser", sourceLocation: sourceLocation)
        let rest = arguments.first == "show" ? Array(arguments.dropFirst()) : arguments
        let parsed = try ShowCommand.parse(rest)
        #expect(fast == parsed.request, "\(arguments)", sourceLocation: sourceLocation)
    }

    static let agreeing: [[String]] = [
        [], ["show"], ["show", "-n", "5"], ["show", "-n5"], ["--limit", "7"], ["show", "--limit=9"],
        ["show", "--json"], ["show", "--color", "never"], ["show", "--color=always"], ["--width", "40"],
        ["show", "--no-reconcile"], ["show", "--from-db"], ["show", "--db", "/tmp/x.sqlite"],
        ["show", "--db=/tmp/y.sqlite", "--busy-timeout", "250", "-n", "3", "--width=60", "--color", "auto"],
        ["show", "--follow"], ["show", "-f"], ["-f", "-n", "4"], ["show", "--follow", "--json", "--from-db"],
        ["show", "--expand"], ["--expand", "-n", "3", "--no-reconcile"],
        ["show", "--format", "{id} {text}"], ["--format={handle}: {{literal}}", "-f"],
        ["show", "--unread"], ["--author", "alice", "-n", "3"], ["--before=abc", "--unread", "--json"],
        ["show", "--mark-read"], ["--unread", "--mark-read", "-n", "2"], ["--db", "-"], ["--busy-timeout", "0"],
    ]

    @Test(arguments: agreeing)
    func theHandReaderAgreesWithArgumentParser(arguments: [String]) throws {
        try expectAgreement(arguments)
    }

    /// Help, typos, missing or refused values, invalid combinations, `--notifications`, and every
    /// other command: ArgumentParser reads them, with its messages and exit statuses.
    @Test(arguments: [
        ["show", "--help"], ["-h"], ["show", "-n"], ["show", "-n", "zero"], ["show", "-n", "0"], ["show", "--widht", "3"],
        ["show", "--color", "sometimes"], ["show", "--json=yes"], ["import", "x"], ["--version"], ["show", "extra"],
        ["show", "--follow=yes"], ["show", "-f", "--no-reconcile"], ["show", "-n", "-3"], ["show", "--width", "0"],
        ["show", "--busy-timeout", "-1"], ["show", "--author", "@"], ["show", "--author="], ["show", "--before="],
        ["show", "--format", "{nosuchfield}"], ["show", "--format", "{id}", "--json"], ["show", "-n", "2", "-n", "3"],
        ["show", "--json", "--json"], ["show", "--db"], ["show", "--db", "--json"], ["show", "-fx"], ["show", "--"],
        ["show", "--unread", "-f"], ["show", "--mark-read", "-f"], ["show", "--author", "a", "--from-db"],
        ["show", "--notifications"], ["show", "--notifications", "-n", "3", "--json"], ["show", "--experimental-dump-help"],
        ["show", "--only", "mentions"], ["show", "--notifications", "--only", "hugs"], ["show", "--requests"],
        ["stats"], ["stats", "--json"], ["search", "x"], ["mark-read", "--all"], ["post", "hello"], ["delete", "1"], ["export"],
        ["sync", "--if-older", "5m", "--background"], ["--db", "/tmp/x.sqlite", "import", "x"],
    ])
    func anythingUnusualIsLeftToArgumentParser(arguments: [String]) {
        #expect(ShowRequest.parse(arguments) == nil)
    }

    /// A name in the table that the request does not read makes the whole line ArgumentParser's:
    /// never an option given and silently dropped.
    @Test func anOptionGivenButNotReadIsNeverDropped() throws {
        let table = LaunchArguments.Table("--limit -n <value>\n--json")
        var given = try #require(LaunchArguments(["-n5", "--json"][...], table: table))
        let limit = given.value("--limit")
        #expect(limit == "5")
        #expect(!given.isEmpty)
        let json = given.flag("--json")
        #expect(json)
        #expect(given.isEmpty)
    }
}
