import Foundation
import Testing

/// `show --unread`, `--author`, `--before`: pages of the database, for reading back past one
/// screen, with the snapshot left as it is.
@Suite struct ShowFilterTests {
    private static func ids(_ output: String) -> [String] {
        output.split(separator: "\n").map(String.init)
    }

    @Test func pagesGoBackWithBeforeAndFiltersKeepWhatTheySay() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let snapshot = scenario.databasePath.replacingOccurrences(of: ".sqlite", with: ".snapshot")
        #expect(try scenario.timeline.run(["show"]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: snapshot))

        // Three pages of 5 are the first 15 of the timeline, in order, without overlap.
        let all = Self.ids(try scenario.timeline.run(["show", "-n", "15", "--format", "{id}"]).output)
        var paged: [String] = []
        var arguments = ["show", "-n", "5", "--format", "{id}"]
        for _ in 0 ..< 3 {
            let page = Self.ids(try scenario.timeline.run(arguments).output)
            paged += page
            arguments = ["show", "-n", "5", "--format", "{id}", "--before", page.last ?? ""]
        }
        #expect(paged == all && all.count == 15)

        let unread = try scenario.timeline.run(["show", "--unread", "-n", "50", "--format", "{read}"])
        #expect(!unread.output.isEmpty && !unread.output.contains("true"))
        let handle = try scenario.sqlite("SELECT handle FROM users ORDER BY id LIMIT 1")
        // A repost is its reposter's: the format shows the original's author beside it.
        let byAuthor = Self.ids(try scenario.timeline.run(["show", "--author", "@" + handle, "-n", "50", "--format", "{reposted_by}|{handle}"]).output)
        #expect(!byAuthor.isEmpty)
        #expect(byAuthor.allSatisfy { $0 == "|" + handle || $0.hasPrefix(handle + "|") }, "\(byAuthor)")
        #expect(try scenario.sqlite("SELECT count(*) FROM messages m JOIN users u ON u.id = m.author_id WHERE u.handle = '\(handle)' AND m.repost_of_id IS NULL") != "0")

        // The snapshot holds the plain timeline: filtered views neither read nor rewrite it.
        #expect(try Data(contentsOf: URL(fileURLWithPath: snapshot)) == before)

        let unknown = try scenario.timeline.run(["show", "--before", "nope"])
        #expect(unknown.status == 65 && unknown.errors.contains("no message has the ID \"nope\""))
        let refused = try scenario.timeline.run(["show", "--unread", "--follow"])
        #expect(refused.status == 64)
    }

    /// `--mark-read`: what one `show` printed is read afterwards (with what it reposts), and
    /// nothing else; with `--unread`, reading the unread ones page by page empties them.
    @Test func markReadMarksWhatWasShownAndNothingElse() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let unreadBefore = Int(try scenario.sqlite("SELECT unread_count FROM timeline_state"))!
        let shown = try scenario.timeline.run(["show", "--unread", "-n", "4", "--mark-read", "--format", "{id}"])
        #expect(shown.status == 0, "\(shown.errors)")
        let ids = shown.output.split(separator: "\n").map(String.init)
        #expect(ids.count == 4)
        for id in ids {
            #expect(try scenario.sqlite("SELECT count(*) FROM unread_messages JOIN messages USING (seq) WHERE id = '\(id)'") == "0")
        }
        let unreadAfter = Int(try scenario.sqlite("SELECT unread_count FROM timeline_state"))!
        #expect(unreadAfter <= unreadBefore - 4 && unreadAfter >= unreadBefore - 8, "\(unreadBefore) → \(unreadAfter)")
        // The next page of unread messages starts after them.
        let next = try scenario.timeline.run(["show", "--unread", "-n", "4", "--format", "{id}"])
        #expect(Set(next.output.split(separator: "\n").map(String.init)).isDisjoint(with: ids))
        #expect(try scenario.timeline.run(["snapshot", "--check"]).status == 0)
        #expect(try scenario.timeline.run(["show", "--mark-read", "-f"]).status == 64)
    }
}
