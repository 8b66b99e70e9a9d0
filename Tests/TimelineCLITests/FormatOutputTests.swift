import Foundation
import Testing

/// `--format TEMPLATE`: one line per message for scripts, every value neutralised, so a
/// message's escape sequences never reach a terminal or a desktop notification.
@Suite struct FormatOutputTests {
    static let hostile = """
        {"type":"user","id":"u1","handle":"alice","name":"Alice \\u001b]0;owned\\u0007"}
        {"type":"message","id":"m1","author":"u1","text":"line one\\nline two \\u001b[2J\\u202eevil","content_warning":"cw\\ttext","created_at":"2026-01-01T10:00:00Z","url":"https://social.example/@alice/1"}
        {"type":"message","id":"m2","author":"u1","text":"plain","created_at":"2026-01-01T11:00:00Z"}
        {"type":"user","id":"u2","handle":"bob","name":"Bob"}
        {"type":"message","id":"r1","author":"u2","text":"","repost_of":"m1","created_at":"2026-01-01T12:00:00Z"}

        """

    @Test func eachMessageIsOneNeutralisedLineFromTheTemplate() throws {
        let scenario = Scenario()
        #expect(try scenario.timeline.run(["import", "-"], input: Data(Self.hostile.utf8)).status == 0)
        let shown = try scenario.timeline.run(["show", "--format", "{id}\t{handle}\t{name}\t{text}\t{cw}\t{created_at}\t{url}\t{read}\t{reposted_by} {{x}}"])
        #expect(shown.status == 0, "\(shown.errors)")
        let lines = shown.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(lines.count == 3, "\(shown.output)")
        for line in lines {
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F || $0 == "\u{202E}" }, "\(line.debugDescription)")
        }
        // Newest first; the repost shows the original, says who reposted it, keeps its own ID.
        #expect(lines[0].hasPrefix("r1\talice\t"))
        #expect(lines[0].hasSuffix("\tbob {x}"))
        #expect(lines[2].hasPrefix("m1\talice\tAlice ␛]0;owned␇\tline one line two ␛[2Jevil\tcw text\t2026-01-01T10:00:00Z\thttps://social.example/@alice/1\tfalse\t {x}"), "\(lines[2].debugDescription)")

        let search = try scenario.timeline.run(["search", "plain", "--format", "{id}: {text}"])
        #expect(search.output == "m2: plain\n")
    }

    @Test func aTemplateThatDoesNotParseIsAUsageErrorNamingTheFields() throws {
        let scenario = Scenario()
        #expect(try scenario.timeline.run(["import", "-"], input: Data(Self.hostile.utf8)).status == 0)
        let unknown = try scenario.timeline.run(["show", "--format", "{author}"])
        #expect(unknown.status == 64)
        #expect(unknown.errors.contains("no field is called {author}") && unknown.errors.contains("{handle}"), "\(unknown.errors)")
        #expect(try scenario.timeline.run(["show", "--format", "{id"]).status == 64)
        #expect(try scenario.timeline.run(["show", "--format", "{id}", "--json"]).status == 64)
    }

    @Test func followingWithATemplatePrintsALineForEachNewMessage() throws {
        let scenario = Scenario()
        #expect(try scenario.timeline.run(["import", "-"], input: Data(Self.hostile.utf8)).status == 0)
        let follow = try FollowingProcess(scenario, ["show", "-f", "-n", "1", "--format", "{handle}: {text}"])
        // The newest entry is bob's repost: it shows alice's post, as the timeline does.
        #expect(follow.waitForOutput { $0 == "alice: line one line two ␛[2Jevil\n" }, "\(follow.output.debugDescription)")
        #expect(try scenario.timeline.run(["post", "--local", "--as", "bob", "new \u{1b}[31mred"]).status == 0)
        #expect(follow.waitForOutput { $0.hasSuffix("bob: new ␛[31mred\n") }, "\(follow.output.debugDescription)")
        follow.signal(SIGTERM)
        _ = follow.waitForExit()
    }
}
