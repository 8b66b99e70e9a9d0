import Testing
@testable import timeline

/// `show` parses its flags by hand to stay off ArgumentParser's reflection at launch; these tests
/// hold the hand parser to ArgumentParser's reading of the same arguments.
@Suite struct ShowRequestTests {
    static let agreeing: [[String]] = [
        [], ["show"], ["show", "-n", "5"], ["show", "-n5"], ["--limit", "7"], ["show", "--limit=9"],
        ["show", "--json"], ["show", "--color", "never"], ["show", "--color=always"], ["--width", "40"],
        ["show", "--no-reconcile"], ["show", "--from-db"], ["show", "--db", "/tmp/x.sqlite"],
        ["show", "--db=/tmp/y.sqlite", "--busy-timeout", "250", "-n", "3", "--width=60", "--color", "auto"],
        ["show", "--follow"], ["show", "-f"], ["-f", "-n", "4"], ["show", "--follow", "--json", "--from-db"],
        ["show", "--expand"], ["--expand", "-n", "3", "--no-reconcile"],
        ["show", "--format", "{id} {text}"], ["--format={handle}: {{literal}}", "-f"],
        ["show", "--unread"], ["--author", "alice", "-n", "3"], ["--before=abc", "--unread", "--json"],
        ["show", "--mark-read"], ["--unread", "--mark-read", "-n", "2"],
    ]

    @Test(arguments: agreeing)
    func theHandParserAgreesWithArgumentParser(arguments: [String]) throws {
        let fast = try #require(ShowRequest.parse(arguments))
        let rest = arguments.first == "show" ? Array(arguments.dropFirst()) : arguments
        let parsed = try ShowCommand.parse(rest)
        #expect(fast == parsed.request)
    }

    @Test(arguments: [
        ["show", "--help"], ["-h"], ["show", "-n"], ["show", "-n", "zero"], ["show", "-n", "0"], ["show", "--widht", "3"],
        ["show", "--color", "sometimes"], ["show", "--json=yes"], ["import", "x"], ["--version"], ["show", "extra"],
        ["show", "--follow=yes"], ["show", "-f", "--no-reconcile"],
    ])
    func anythingUnusualIsLeftToArgumentParser(arguments: [String]) {
        #expect(ShowRequest.parse(arguments) == nil)
    }
}
