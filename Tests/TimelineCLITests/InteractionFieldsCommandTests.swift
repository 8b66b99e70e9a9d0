import Foundation
import Testing
import TimelineKit

/// The account's state of each message for scripts: `show --json`, `search --json` and
/// `thread --json` write `"favourited"`, `"boosted"`, `"bookmarked"` and `"pending"` only where
/// set; `--format` has `{favourited}`, `{boosted}`, `{bookmarked}`, `{pending}`; `export` and
/// `import` leave them out (a file cannot favourite anything at a server).
@Suite struct InteractionFieldsCommandTests {
    static let messages = """
        {"type":"user","id":"u1","handle":"alice","name":"Alice"}
        {"type":"message","id":"m1","author":"u1","text":"coffee one","created_at":"2026-01-01T10:00:00Z"}
        {"type":"message","id":"m2","author":"u1","text":"coffee two","created_at":"2026-01-01T10:01:00Z"}
        {"type":"message","id":"m3","author":"u1","text":"coffee three","reply_to":"m1","created_at":"2026-01-01T10:02:00Z"}
        {"type":"message","id":"m4","author":"u1","text":"coffee four","created_at":"2026-01-01T10:03:00Z"}
        {"type":"message","id":"r1","author":"u1","text":"","repost_of":"m1","created_at":"2026-01-01T10:04:00Z"}

        """

    /// The fields `jsonLines` gives each message ID, of the four interaction keys only.
    private func flags(_ jsonLines: String) -> [String: [String: Bool]] {
        var result: [String: [String: Bool]] = [:]
        for line in jsonLines.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let id = object["id"] as? String else { continue }
            var set: [String: Bool] = [:]
            for key in ["favourited", "boosted", "bookmarked", "pending"] {
                if let value = object[key] { set[key] = value as? Bool }
            }
            result[id] = set
        }
        return result
    }

    private func scenario() throws -> Scenario {
        let scenario = Scenario()
        #expect(try scenario.timeline.run(["import", "-"], input: Data(Self.messages.utf8)).status == 0)
        let store = try TimelineStore(path: scenario.databasePath)
        try store.setInteraction(account: "a", messageID: "m1", .favourite, on: true)
        try store.setInteraction(account: "a", messageID: "m1", .bookmark, on: true)
        try store.setInteraction(account: "b", messageID: "m2", .boost, on: true)
        _ = try store.enqueue(.favourite, account: "a", messageID: "m4", key: "k1", at: Date())
        return scenario
    }

    static let expected: [String: [String: Bool]] = [
        "m1": ["favourited": true, "bookmarked": true],
        "m2": ["boosted": true],
        "m3": [:],
        "m4": ["favourited": true, "pending": true],
        // A repost carries the post it reposts': actions act on it, and `show` paints it.
        "r1": ["favourited": true, "bookmarked": true],
    ]

    @Test func showSearchAndThreadJSONCarryOnlyTheFlagsThatAreSet() throws {
        let scenario = try scenario()
        let shown = try scenario.timeline.run(["show", "--json", "-n", "10"])
        #expect(shown.status == 0, "\(shown.errors)")
        #expect(flags(shown.output) == Self.expected, "\(shown.output)")
        // Only what is set is written: no `false`.
        #expect(!shown.output.contains("\"pending\":false") && !shown.output.contains("\"favourited\":false"))

        let found = try scenario.timeline.run(["search", "coffee", "--json"])
        #expect(found.status == 0, "\(found.errors)")
        #expect(flags(found.output) == Self.expected.filter { $0.key != "r1" }, "\(found.output)")

        let thread = try scenario.timeline.run(["thread", "m3", "--json", "--offline"])
        #expect(thread.status == 0, "\(thread.errors)")
        #expect(flags(thread.output) == ["m1": Self.expected["m1"]!, "m3": [:]], "\(thread.output)")
        #expect(thread.output.contains("\"bookmarked\":true,\"depth\":0}"), "\(thread.output)")
    }

    @Test func formatTemplatesNameTheFlags() throws {
        let scenario = try scenario()
        let shown = try scenario.timeline.run(["show", "-n", "10", "--format", "{id} {favourited} {boosted} {bookmarked} {pending}"])
        #expect(shown.status == 0, "\(shown.errors)")
        #expect(Set(shown.output.split(separator: "\n")) == [
            "r1 true false true false", "m4 true false false true", "m3 false false false false",
            "m2 false true false false", "m1 true false true false",
        ], "\(shown.output)")
    }

    @Test func exportLeavesThemOutAndImportIgnoresThem() throws {
        let scenario = try scenario()
        let exported = try scenario.timeline.run(["export", "-"])
        #expect(exported.status == 0, "\(exported.errors)")
        #expect(!exported.output.contains("favourited") && !exported.output.contains("pending"))

        // `show --json` lines (after their author's line) import as the messages; the flags set
        // nothing here.
        let shown = try scenario.timeline.run(["show", "--json", "-n", "10"])
        #expect(shown.output.contains("\"favourited\":true"))
        let other = Scenario()
        let user = String(Self.messages.split(separator: "\n")[0])
        let imported = try other.timeline.run(["import", "-"], input: Data((user + "\n" + shown.output).utf8))
        #expect(imported.status == 0, "\(imported.errors)")
        let again = try other.timeline.run(["show", "--json", "-n", "10"])
        #expect(flags(again.output) == Self.expected.mapValues { _ in [:] }, "\(again.output)")
    }
}
