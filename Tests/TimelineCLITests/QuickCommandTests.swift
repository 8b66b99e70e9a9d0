import ArgumentParser
import Testing
@testable import timeline

/// The everyday commands read plain command lines by hand (`QuickCommand`, `PlainArguments`);
/// these tests hold that reading to ArgumentParser's for the same arguments, and make sure that
/// everything else is left to ArgumentParser.
@Suite struct QuickCommandTests {
    /// Reads `arguments` both ways and expects the same request.
    private func expectAgreement<Command: ParsableCommand, Request: QuickRequest>(
        _ arguments: [String], _ command: Command.Type, _ request: (Command) -> Request, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let fast = try #require(QuickCommand.parse(arguments, as: Request.self), "\(arguments) was left to ArgumentParser", sourceLocation: sourceLocation)
        let parsed = try Command.parse(arguments)
        #expect(fast == request(parsed), "\(arguments)", sourceLocation: sourceLocation)
    }

    @Test(arguments: [[], ["--json"], ["--db", "/tmp/x.sqlite"], ["--db=/tmp/y.sqlite", "--json"]])
    func statsAgrees(arguments: [String]) throws {
        try expectAgreement(arguments, StatsCommand.self, \.request)
    }

    @Test(arguments: [
        ["coffee"], ["good", "morning"], ["-n", "5", "swift"], ["swift", "-n5"], ["--limit=3", "swift"], ["swift", "--json", "--unread"],
        ["--author", "@mika", "bread"], ["--format", "{id} {text}", "x"], ["--color", "never", "--width", "40", "x"],
        ["--color=always", "x", "--width=100"], ["swift", "--", "-kotlin", "-n", "2"], ["-n", "2", "swift", "--", "-kotlin"],
        ["今日", "--db", "/tmp/z.sqlite"], ["--", "--json"], ["\"exact phrase\"", "cats", "OR", "dogs"],
    ])
    func searchAgrees(arguments: [String]) throws {
        try expectAgreement(arguments, SearchCommand.self, \.request)
    }

    @Test(arguments: [
        ["--all"], ["--all", "--json"], ["1", "2", "3"], ["--unread", "1"], ["--ids-file", "ids.txt"], ["--ids-file=-"], ["--ids-file", "-"],
        ["--ids-file", "ids.txt", "9", "--offline"], ["--", "-odd-id"], ["--db", "/tmp/x.sqlite", "--all", "--offline"],
    ])
    func markReadAgrees(arguments: [String]) throws {
        try expectAgreement(arguments, MarkReadCommand.self, \.request)
    }

    @Test(arguments: [
        ["hello"], ["--local", "--as", "alice", "note to self"], ["--as=@alice", "hi"], ["--json", "text"],
        ["--account", "work", "--cw", "spoilers", "--visibility", "unlisted", "The ending"],
        ["--reply-to", "mastodon.social/1135", "--idempotency-key", "k1", "Agreed!"], ["--visibility=direct", "psst"],
        ["--", "-1 is a number"], ["--db", "/tmp/x.sqlite", "--local", "--as", "bo", "x"],
    ])
    func postAgrees(arguments: [String]) throws {
        try expectAgreement(arguments, PostCommand.self, \.request)
    }

    @Test(arguments: [["1"], ["1", "2", "--json"], ["--db", "/tmp/x.sqlite", "9"], ["--", "-x"]])
    func deleteAgrees(arguments: [String]) throws {
        try expectAgreement(arguments, DeleteCommand.self, \.request)
    }

    @Test(arguments: [[], ["-"], ["backup.jsonl"], ["--db", "/tmp/x.sqlite", "out.jsonl"], ["--", "-odd-name"]])
    func exportAgrees(arguments: [String]) throws {
        try expectAgreement(arguments, ExportCommand.self, \.request)
    }

    /// Help, completion requests, typos, missing or refused values and invalid combinations:
    /// ArgumentParser reads them, with its messages and exit statuses.
    @Test(arguments: [
        ["stats", "--help"], ["stats", "-h"], ["stats", "extra"], ["stats", "--json=yes"], ["stats", "--jsn"], ["stats", "--json", "--json"],
        ["stats", "--db"], ["stats", "--db", "--json"], ["stats", "--generate-completion-script", "bash"],
        ["search"], ["search", "-n", "0", "x"], ["search", "-n", "many", "x"], ["search", "-n"], ["search", "-n", "-3", "x"],
        ["search", "--width", "0", "x"], ["search", "--color", "sometimes", "x"], ["search", "--author", "@", "x"], ["search", "--author=", "x"],
        ["search", "--format", "{nosuchfield}", "x"], ["search", "--format", "{id}", "--json", "x"], ["search", "-x"], ["search", "-nx", "y"],
        ["mark-read"], ["mark-read", "--all", "1"], ["mark-read", "--all", "--unread"], ["mark-read", "--all", "--ids-file", "f"],
        ["mark-read", "-1"], ["mark-read", "--ids-file"],
        ["post"], ["post", "a", "b"], ["post", "--local", "--account", "w", "x"], ["post", "--local", "--cw", "c", "x"],
        ["post", "--as", "a", "--visibility", "public", "x"], ["post", "--visibility", "everyone", "x"], ["post", "--help"],
        ["delete"], ["delete", "--json"], ["delete", "-h"], ["export", "a", "b"], ["export", "--json"],
        ["show"], ["import", "x"], ["--version"], ["sync"], [],
    ])
    func anythingUnusualIsLeftToArgumentParser(arguments: [String]) {
        #expect(QuickCommand.parse(arguments) == nil)
    }
}
