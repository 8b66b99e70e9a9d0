import Foundation
import Testing
import TimelineKit

/// Issue 34: a direct message was painted like a public post. Imported from a Mastodon file as a
/// person would, it is marked in `show`'s lines and its audience is in `show --json`, and so is a
/// followers-only post's; a public one carries no mark.
@Suite struct DirectMessageMarkCommandTests {
    static func status(_ id: String, visibility: String, text: String) -> String {
        #"{"id":"\#(id)","created_at":"2024-03-01T12:00:0\#(id.suffix(1)).000Z","content":"<p>\#(text)</p>","visibility":"\#(visibility)","#
            + #""account":{"id":"2","username":"bob","acct":"bob","display_name":"Bob"}}"#
    }

    @Test func aDirectMessageIsMarkedInShowAndItsAudienceIsInShowJSON() throws {
        let scenario = Scenario()
        let file = scenario.directory + "/statuses.json"
        let statuses = [Self.status("101", visibility: "direct", text: "between us"),
                        Self.status("102", visibility: "private", text: "followers hear this"),
                        Self.status("103", visibility: "public", text: "everyone hears this")]
        try Data(("[" + statuses.joined(separator: ",") + "]").utf8).write(to: URL(fileURLWithPath: file))
        let imported = try scenario.timeline.run(["import", "--format", "mastodon", file])
        #expect(imported.status == 0, "\(imported.errors)")

        var timeline = scenario.timeline
        timeline.environment["LANG"] = "en_US.UTF-8"
        let shown = try timeline.run(["show", "--color", "never"])
        #expect(shown.status == 0, "\(shown.errors)")
        let entries = shown.output.components(separatedBy: "\n\n")
        let direct = try #require(entries.first { $0.contains("between us") })
        #expect(direct.contains("✉ direct"), "\(direct)")
        let followers = try #require(entries.first { $0.contains("followers hear this") })
        #expect(followers.contains("🔒 followers only"), "\(followers)")
        let everyone = try #require(entries.first { $0.contains("everyone hears this") })
        #expect(!everyone.contains("✉") && !everyone.contains("🔒"), "\(everyone)")

        timeline.environment["LANG"] = "C"
        let ascii = try timeline.run(["show", "--color", "never"])
        #expect(ascii.output.contains("[direct]"), "\(ascii.output)")

        let json = try scenario.timeline.run(["show", "--json"])
        let lines = json.output.split(separator: "\n").map(String.init)
        #expect(lines.first { $0.contains("between us") }?.contains(#""visibility":"direct""#) == true, "\(json.output)")
        #expect(lines.first { $0.contains("followers hear") }?.contains(#""visibility":"private""#) == true, "\(json.output)")
        #expect(lines.first { $0.contains("everyone hears") }?.contains(#""visibility":"public""#) == true, "\(json.output)")
    }
}
