import Foundation
import Testing

/// `timeline open REF`: the post's address, a link in its text or its media, handed to
/// `$BROWSER` as one argument (a script that records its arguments stands for the browser), or
/// printed; addresses that are not http(s) are refused and nothing runs.
@Suite struct OpenCommandTests {
    static let messages = """
        {"type":"user","id":"u1","handle":"alice","name":"Alice"}
        {"type":"message","id":"m1","author":"u1","text":"see https://one.example/a and (https://two.example/b?x=1). Done","created_at":"2026-01-01T10:00:00Z","url":"https://example.social/@alice/1","attachments":[{"kind":"image","url":"https://media.example/1.png"},{"kind":"image","url":"https://media.example/2.png"},{"kind":"image"}]}
        {"type":"message","id":"local","author":"u1","text":"written here","created_at":"2026-01-01T10:01:00Z"}
        {"type":"message","id":"r1","author":"u1","text":"","repost_of":"m1","created_at":"2026-01-01T10:02:00Z"}
        {"type":"message","id":"js","author":"u1","text":"x","created_at":"2026-01-01T10:03:00Z","url":"javascript:alert(1)","attachments":[{"kind":"image","url":"file:///etc/passwd"}]}
        {"type":"message","id":"esc","author":"u1","text":"look https://evil.example/\\u001b]0;pwned\\u0007 now","created_at":"2026-01-01T10:04:00Z","url":"https://evil.example/\\u001b[2J"}

        """

    /// A scenario holding `messages`, whose PATH is an empty directory (no `xdg-open` to find),
    /// and a browser script that writes its argument count and arguments, one a line, to `argv`.
    private func scenario(browser: String?) throws -> (Scenario, script: String, recorded: String) {
        let scenario = Scenario()
        let empty = scenario.directory + "/empty-path"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let recorded = scenario.directory + "/argv"
        let script = scenario.directory + "/browser.sh"
        try TestScript.write("#!/bin/sh\nprintf '%s\\n' \"$#\" \"$@\" > '\(recorded)'\n", to: script)
        #expect(try scenario.timeline.run(["import", "-"], input: Data(Self.messages.utf8)).status == 0)
        scenario.timeline.environment["PATH"] = empty
        if let browser { scenario.timeline.environment["BROWSER"] = browser.replacingOccurrences(of: "SCRIPT", with: script) }
        return (scenario, script, recorded)
    }

    private func arguments(_ recorded: String) -> [String]? {
        (try? String(contentsOfFile: recorded, encoding: .utf8)).map { $0.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
    }

    @Test func thePostItsLinksAndItsMediaReachTheBrowserAsOneArgument() throws {
        // The first $BROWSER entry is not installed: the next is tried, as xdg-open does.
        let (scenario, _, recorded) = try scenario(browser: "/nonexistent/browser:SCRIPT")
        let post = try scenario.timeline.run(["open", "m1"])
        #expect(post.status == 0, "\(post.errors)")
        #expect(arguments(recorded) == ["1", "https://example.social/@alice/1"])
        #expect(post.output.contains("Opened https://example.social/@alice/1 with $BROWSER"), "\(post.output)")

        // A post named by its web address; a repost opens the post it reposts.
        try? FileManager.default.removeItem(atPath: recorded)
        #expect(try scenario.timeline.run(["open", "https://example.social/@alice/1", "--link"]).status == 0)
        #expect(arguments(recorded) == ["1", "https://one.example/a"])
        #expect(try scenario.timeline.run(["open", "r1", "--link", "2"]).status == 0)
        #expect(arguments(recorded) == ["1", "https://two.example/b?x=1"])
        #expect(try scenario.timeline.run(["open", "r1"]).status == 0)
        #expect(arguments(recorded) == ["1", "https://example.social/@alice/1"])
        #expect(try scenario.timeline.run(["open", "m1", "--media"]).status == 0)
        #expect(arguments(recorded) == ["1", "https://media.example/1.png"])
        #expect(try scenario.timeline.run(["open", "m1", "--media", "2"]).status == 0)
        #expect(arguments(recorded) == ["1", "https://media.example/2.png"])

        // Asking for what is not there: exit 1, nothing run.
        try? FileManager.default.removeItem(atPath: recorded)
        let third = try scenario.timeline.run(["open", "m1", "--link", "3"])
        #expect(third.status == 1 && third.errors.contains("has 2 web links, not 3"), "\(third.errors)")
        let noAddress = try scenario.timeline.run(["open", "m1", "--media", "3"])
        #expect(noAddress.status == 1 && noAddress.errors.contains("no address for attachment 3"), "\(noAddress.errors)")
        let local = try scenario.timeline.run(["open", "local"])
        #expect(local.status == 1 && local.errors.contains("has no web address"), "\(local.errors)")
        let unknown = try scenario.timeline.run(["open", "nope"])
        #expect(unknown.status == 65)
        #expect(arguments(recorded) == nil)
    }

    @Test func percentSIsReplacedByTheAddressInsideOneArgument() throws {
        let (scenario, _, recorded) = try scenario(browser: "SCRIPT --new-tab --url=%s")
        #expect(try scenario.timeline.run(["open", "m1"]).status == 0)
        #expect(arguments(recorded) == ["2", "--new-tab", "--url=https://example.social/@alice/1"])
    }

    @Test func printPrintsTheAddressAndRunsNothing() throws {
        let (scenario, _, recorded) = try scenario(browser: "SCRIPT")
        let printed = try scenario.timeline.run(["open", "m1", "--link", "2", "--print"])
        #expect(printed.status == 0)
        #expect(printed.output == "https://two.example/b?x=1\n")
        #expect(arguments(recorded) == nil)
    }

    @Test func withNoBrowserTheAddressIsPrintedWithANote() throws {
        let (scenario, _, _) = try scenario(browser: nil)
        let printed = try scenario.timeline.run(["open", "m1"])
        #expect(printed.status == 0, "\(printed.errors)")
        #expect(printed.output == "https://example.social/@alice/1\n")
        #expect(printed.errors.contains("no browser") && printed.errors.split(separator: "\n").count == 1, "\(printed.errors)")
        // $BROWSER naming nothing installed is no browser either.
        scenario.timeline.environment["BROWSER"] = "/nonexistent/browser"
        #expect(try scenario.timeline.run(["open", "m1"]).output == "https://example.social/@alice/1\n")
    }

    @Test(arguments: [["js"], ["js", "--media"], ["esc"], ["esc", "--link"], ["esc", "--print"]])
    func anAddressThatIsNotAWebAddressIsRefusedAndNothingRuns(_ command: [String]) throws {
        let (scenario, _, recorded) = try scenario(browser: "SCRIPT")
        let refused = try scenario.timeline.run(["open"] + command)
        #expect(refused.status == 65, "\(refused.errors)")
        #expect(refused.errors.contains("is not a web address"), "\(refused.errors)")
        #expect(refused.output.isEmpty)
        #expect(!refused.errors.contains("\u{1b}") && !refused.errors.contains("\u{07}"))
        #expect(arguments(recorded) == nil)
    }

    /// Issue 37: Mastodon hides a link's `https://` in an invisible span, so its text reads
    /// `example.org/article`; the link comes from the anchor, stored with the message, and is
    /// in `show --json`.
    @Test func aMastodonLinkWhoseSchemeTheTextHidesOpensFromItsAnchor() throws {
        let scenario = Scenario()
        let file = scenario.directory + "/statuses.json"
        let content = #"<p>read <a href=\"https://example.org/article\" rel=\"nofollow noopener\" target=\"_blank\"><span class=\"invisible\">https://</span><span class=\"\">example.org/article</span><span class=\"invisible\"></span></a> <a href=\"https://social.example/tags/news\" class=\"mention hashtag\" rel=\"tag\">#<span>news</span></a></p>"#
        let status = #"[{"id":"101","created_at":"2026-01-01T10:00:00.000Z","url":"https://social.example/@bob/101","content":"\#(content)","#
            + #""account":{"id":"2","username":"bob","acct":"bob","display_name":"Bob"}}]"#
        try Data(status.utf8).write(to: URL(fileURLWithPath: file))
        let imported = try scenario.timeline.run(["import", "--format", "mastodon", file])
        #expect(imported.status == 0, "\(imported.errors)")

        let printed = try scenario.timeline.run(["open", "https://social.example/@bob/101", "--link", "--print"])
        #expect(printed.status == 0, "\(printed.errors)")
        #expect(printed.output == "https://example.org/article\n")
        let second = try scenario.timeline.run(["open", "https://social.example/@bob/101", "--link", "2", "--print"])
        #expect(second.status == 1 && second.errors.contains("has 1 web link, not 2"), "\(second.errors)")

        let json = try scenario.timeline.run(["show", "--json"])
        #expect(json.output.contains(#""links":["https://example.org/article"]"#), "\(json.output)")
    }
}
