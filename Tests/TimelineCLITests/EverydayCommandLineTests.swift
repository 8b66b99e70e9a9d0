import ArgumentParser
import Testing
@testable import timeline

/// The everyday commands (`stats`, `search`, `mark-read`, `post`, `delete`, `export`) are read by
/// ArgumentParser alone since their hand readers went (issue 26): these are the command lines
/// those readers were held to, read through the command tree as `main` reads them, with what
/// each must mean; and the unusual ones, which ArgumentParser refuses with its messages.
@Suite struct EverydayCommandLineTests {
    private func parse<Command: ParsableCommand>(_ arguments: [String], as: Command.Type, sourceLocation: SourceLocation = #_sourceLocation) throws -> Command {
        let parsed = try TimelineCommand.parseAsRoot(arguments)
        return try #require(parsed as? Command, "\(arguments) read as \(type(of: parsed))", sourceLocation: sourceLocation)
    }

    @Test(arguments: [[], ["--json"], ["--db", "/tmp/x.sqlite"], ["--db=/tmp/y.sqlite", "--json"]])
    func stats(arguments: [String]) throws {
        let command = try parse(["stats"] + arguments, as: StatsCommand.self)
        #expect(command.json == arguments.contains { $0.hasPrefix("--json") })
        #expect(command.location.db == arguments.first { $0.hasPrefix("/") } ?? arguments.first { $0.hasPrefix("--db=") }.map { String($0.dropFirst(5)) })
    }

    @Test(arguments: [
        (["coffee"], ["coffee"], 20), (["good", "morning"], ["good", "morning"], 20), (["-n", "5", "swift"], ["swift"], 5),
        (["swift", "-n5"], ["swift"], 5), (["--limit=3", "swift"], ["swift"], 3), (["swift", "--json", "--unread"], ["swift"], 20),
        (["--author", "@mika", "bread"], ["bread"], 20), (["--format", "{id} {text}", "x"], ["x"], 20),
        (["--color", "never", "--width", "40", "x"], ["x"], 20), (["--color=always", "x", "--width=100"], ["x"], 20),
        // Everything after -- is the query, by design (SearchCommand's discussion).
        (["swift", "--", "-kotlin", "-n", "2"], ["swift", "-kotlin", "-n", "2"], 20), (["-n", "2", "swift", "--", "-kotlin"], ["swift", "-kotlin"], 2),
        (["今日", "--db", "/tmp/z.sqlite"], ["今日"], 20), (["--", "--json"], ["--json"], 20),
        (["\"exact phrase\"", "cats", "OR", "dogs"], ["\"exact phrase\"", "cats", "OR", "dogs"], 20),
    ])
    func search(arguments: [String], query: [String], limit: Int) throws {
        let command = try parse(["search"] + arguments, as: SearchCommand.self)
        #expect(command.query == query)
        #expect(command.limit == limit)
    }

    @Test func searchsOptionsMeanWhatTheySay() throws {
        let command = try parse(["search", "--author", "@mika", "--color=always", "x", "--width=100", "--unread", "--format", "{id}"], as: SearchCommand.self)
        #expect(command.author == "@mika")
        #expect(command.output.style == OutputOptions.Style(color: .always, width: 100))
        #expect(command.unread && !command.json && command.format == "{id}")
    }

    @Test(arguments: [
        ["--all"], ["--all", "--json"], ["1", "2", "3"], ["--unread", "1"], ["--ids-file", "ids.txt"], ["--ids-file=-"], ["--ids-file", "-"],
        ["--ids-file", "ids.txt", "9", "--offline"], ["--", "-odd-id"], ["--db", "/tmp/x.sqlite", "--all", "--offline"],
    ])
    func markRead(arguments: [String]) throws {
        let command = try parse(["mark-read"] + arguments, as: MarkReadCommand.self)
        #expect(command.all == arguments.contains("--all"))
        #expect(command.unread == arguments.contains("--unread"))
        #expect(command.offline == arguments.contains("--offline"))
        #expect(command.ids == arguments.filter { !$0.hasPrefix("-") && !$0.hasPrefix("/") && $0 != "ids.txt" } + (arguments.contains("-odd-id") ? ["-odd-id"] : []))
    }

    @Test(arguments: [
        (["hello"], "hello"), (["--local", "--as", "alice", "note to self"], "note to self"), (["--as=@alice", "hi"], "hi"), (["--json", "text"], "text"),
        (["--account", "work", "--cw", "spoilers", "--visibility", "unlisted", "The ending"], "The ending"),
        (["--reply-to", "mastodon.social/1135", "--idempotency-key", "k1", "Agreed!"], "Agreed!"), (["--visibility=direct", "psst"], "psst"),
        (["--", "-1 is a number"], "-1 is a number"), (["--db", "/tmp/x.sqlite", "--local", "--as", "bo", "x"], "x"),
    ])
    func post(arguments: [String], text: String) throws {
        let command = try parse(["post"] + arguments, as: PostCommand.self)
        #expect(command.text == text)
    }

    @Test func postsOptionsMeanWhatTheySay() throws {
        let command = try parse(["post", "--account", "work", "--cw", "spoilers", "--visibility", "unlisted", "--reply-to", "m.s/1", "--idempotency-key", "k1", "x"], as: PostCommand.self)
        #expect(command.account == "work" && command.cw == "spoilers" && command.visibility == .unlisted)
        #expect(command.replyTo == "m.s/1" && command.idempotencyKey == "k1" && !command.local && command.handle == nil)
        let local = try parse(["post", "--local", "--as=@alice", "--json", "hi"], as: PostCommand.self)
        #expect(local.local && local.handle == "@alice" && local.json)
    }

    @Test(arguments: [(["1"], ["1"]), (["1", "2", "--json"], ["1", "2"]), (["--db", "/tmp/x.sqlite", "9"], ["9"]), (["--", "-x"], ["-x"])])
    func delete(arguments: [String], ids: [String]) throws {
        let command = try parse(["delete"] + arguments, as: DeleteCommand.self)
        #expect(command.ids == ids)
        #expect(command.json == arguments.contains("--json"))
    }

    @Test(arguments: [([], "-"), (["-"], "-"), (["backup.jsonl"], "backup.jsonl"), (["--db", "/tmp/x.sqlite", "out.jsonl"], "out.jsonl"), (["--", "-odd-name"], "-odd-name")])
    func export(arguments: [String], file: String) throws {
        let command = try parse(["export"] + arguments, as: ExportCommand.self)
        #expect(command.file == file)
    }

    /// Typos, missing or refused values and invalid combinations: refused, with ArgumentParser's
    /// message and a usage status (help and completion requests end the parse too, successfully).
    @Test(arguments: [
        ["stats", "extra"], ["stats", "--json=yes"], ["stats", "--jsn"],
        ["stats", "--db"], ["stats", "--db", "--json"],
        ["search"], ["search", "-n", "0", "x"], ["search", "-n", "many", "x"], ["search", "-n"], ["search", "-n", "-3", "x"],
        ["search", "--width", "0", "x"], ["search", "--color", "sometimes", "x"], ["search", "--author", "@", "x"], ["search", "--author=", "x"],
        ["search", "--format", "{nosuchfield}", "x"], ["search", "--format", "{id}", "--json", "x"], ["search", "-x"], ["search", "-nx", "y"],
        ["mark-read"], ["mark-read", "--all", "1"], ["mark-read", "--all", "--unread"], ["mark-read", "--all", "--ids-file", "f"],
        ["mark-read", "-1"], ["mark-read", "--ids-file"],
        ["post", "a", "b"], ["post", "--local", "--account", "w", "x"], ["post", "--local", "--cw", "c", "x"],
        ["post", "--as", "a", "--visibility", "public", "x"], ["post", "--visibility", "everyone", "x"],
        ["delete"], ["delete", "--json"], ["export", "a", "b"], ["export", "--json"],
    ])
    func theUnusualIsRefused(arguments: [String]) {
        #expect(throws: (any Error).self, "\(arguments)") { try TimelineCommand.parseAsRoot(arguments) }
        do {
            _ = try TimelineCommand.parseAsRoot(arguments)
        } catch {
            #expect(TimelineCommand.exitCode(for: error) == .validationFailure, "\(arguments): \(TimelineCommand.fullMessage(for: error))")
        }
    }
}
