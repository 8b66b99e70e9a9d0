import Foundation
import Testing

/// `timeline thread ID`: the stored conversation around a message, indented, content warnings
/// open; a Mastodon context answer fills it.
@Suite struct ThreadCommandTests {
    /// A conversation: r ← a ← b, r ← c (later than a), and x, unrelated; a has a content warning.
    static let conversation = """
        {"type":"user","id":"u1","handle":"alice","name":"Alice"}
        {"type":"user","id":"u2","handle":"bob","name":"Bob"}
        {"type":"message","id":"r","author":"u1","text":"Root post","created_at":"2026-01-01T10:00:00Z"}
        {"type":"message","id":"a","author":"u2","text":"First reply","content_warning":"opinions","reply_to":"r","created_at":"2026-01-01T10:05:00Z"}
        {"type":"message","id":"b","author":"u1","text":"Reply to the reply","reply_to":"a","created_at":"2026-01-01T10:10:00Z"}
        {"type":"message","id":"c","author":"u2","text":"Second reply","reply_to":"r","created_at":"2026-01-01T10:20:00Z"}
        {"type":"message","id":"x","author":"u2","text":"Unrelated","created_at":"2026-01-01T10:30:00Z"}

        """

    @Test func theThreadShowsAncestorsTheMessageAndItsRepliesIndentedWithWarningsOpen() throws {
        let scenario = Scenario()
        #expect(try scenario.timeline.run(["import", "-"], input: Data(Self.conversation.utf8)).status == 0)

        let root = try scenario.timeline.run(["thread", "r", "--width", "60"])
        #expect(root.status == 0, "\(root.errors)")
        let texts = ["Root post", "First reply", "Reply to the reply", "Second reply"]
        let lines = root.output.split(separator: "\n").map(String.init)
        let positions = texts.map { text in lines.firstIndex { $0.contains(text) } ?? -1 }
        #expect(positions == positions.sorted() && !positions.contains(-1), "\(root.output)")
        #expect(!root.output.contains("Unrelated"))
        // Depth shows as indentation, two columns a level (the text is two in already); the
        // warning is open.
        #expect(lines.contains { $0.hasPrefix("      Reply to the reply") })
        #expect(lines.contains { $0.hasPrefix("    Second reply") })
        #expect(lines.contains { $0.hasPrefix("  Root post") })
        #expect(root.output.contains("CW: opinions") && root.output.contains("First reply"))

        // Around a reply: what it replies to above, its own replies below, not its siblings.
        let json = try scenario.timeline.run(["thread", "a", "--json"])
        let objects = json.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.map { $0["id"] as? String } == ["r", "a", "b"])
        #expect(objects.map { $0["depth"] as? Int } == [0, 1, 2])

        let missing = try scenario.timeline.run(["thread", "nope"])
        #expect(missing.status == 65)
        #expect(missing.errors.contains("no stored message is \"nope\""))
    }

    /// A Mastodon context answer (tokodon's test data: two replies to a status not in it).
    @Test func aMastodonContextFillsTheThreadAndSaysWhatIsMissingAbove() throws {
        let scenario = Scenario()
        let context = Scenario.repositoryPath("Fixtures/realdata/tokodon/context.json")
        #expect(try scenario.timeline.run(["import", context]).status == 0)
        let shown = try scenario.timeline.run(["thread", "103270115826048977"])
        #expect(shown.status == 0, "\(shown.errors)")
        #expect(shown.output.hasPrefix("↑ it replies to 103270115826048975, which is not stored\n"), "\(shown.output)")
    }
}
