import Foundation
import Testing
import TimelineKit

@Suite struct WriteCommandTests {
    @Test func postAddsAMessageByHandleAndLeavesAFreshSnapshot() throws {
        let scenario = Scenario()
        #expect(try scenario.timeline.run(["user", "me", "--handle", "alice", "--name", "Alice Example"]).status == 0)
        let posted = try scenario.timeline.run(["post", "--as", "@alice", "hello from the shell"])
        #expect(posted.status == 0)
        #expect(try scenario.timeline.run(["show", "-n", "1"]).output.contains("hello from the shell"))
        #expect(try scenario.timeline.run(["snapshot", "--check"]).status == 0)

        let unknown = try scenario.timeline.run(["post", "--as", "nobody", "hi"])
        #expect(unknown.status == 65)
        #expect(unknown.errors.contains("@nobody"))
    }

    @Test func markReadTakesIDsFromArgumentsFilesAndStandardInput() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let ids = try scenario.sqlite("SELECT id FROM messages WHERE seq IN (SELECT seq FROM unread_messages) ORDER BY id LIMIT 5").split(separator: "\n").map(String.init)
        #expect(try scenario.timeline.run(["mark-read", ids[0], ids[1]]).output.contains("Marked 2 messages read"))
        let piped = try scenario.timeline.run(["mark-read", "--ids-file", "-"], input: Data((ids.joined(separator: "\n") + "\n").utf8))
        #expect(piped.output.contains("Marked 3 messages read"))
        #expect(try scenario.timeline.run(["mark-read", "--unread", ids[0]]).output.contains("Marked 1 message unread"))
        #expect(try scenario.timeline.run(["mark-read", "--all"]).status == 0)
        #expect(try scenario.sqlite("SELECT unread_count FROM timeline_state") == "0")
        #expect(try scenario.timeline.run(["snapshot", "--check"]).status == 0)
    }

    /// An IDs file as people and other programs write it: indented, tab-separated leftovers,
    /// CRLF line ends, blank lines; an ID's own inner spaces and non-ASCII letters are kept.
    @Test func anIDsFileIsReadWithSpacesTabsAndBlankLinesAroundEachID() throws {
        let scenario = Scenario()
        #expect(try scenario.timeline.run(["user", "u1", "--handle", "alice", "--name", "Alice"]).status == 0)
        let ids = ["plain", "ünïcödé-ид", "inner space"]
        for id in ids {
            try scenario.sqlite("INSERT INTO messages (id, author_id, text, created_at) VALUES ('\(id)', 'u1', 'x', 0)")
        }
        let file = scenario.directory + "/ids.txt"
        try "  plain\t\r\n\n\t ünïcödé-ид  \r\n   \n inner space \n".write(toFile: file, atomically: true, encoding: .utf8)
        let marked = try scenario.timeline.run(["mark-read", "--ids-file", file])
        #expect(marked.output.contains("Marked 3 messages read"), "\(marked.output)\(marked.errors)")
        #expect(try scenario.sqlite("SELECT count(*) FROM unread_messages") == "0")
    }

    @Test func deleteRemovesMessagesAndTheSnapshotFollows() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let newest = try scenario.sqlite("SELECT id FROM messages ORDER BY created_at DESC, id DESC LIMIT 1")
        #expect(try scenario.timeline.run(["delete", newest]).output == "Deleted 1 message.\n")
        let snapshot = try SnapshotFile(path: scenario.snapshotPath).read()
        #expect(!snapshot.window.messages.contains { $0.id == newest })
        #expect(snapshot.state.messageCount == 336)
    }

    @Test func statsJSONHasTheDocumentedFields() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let stats = try scenario.timeline.run(["stats", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stats.output.utf8)) as? [String: Any])
        #expect(object["messages"] as? Int == 337)
        #expect(object["users"] as? Int == 37)
        #expect(object["unread"] as? Int != nil)
        #expect(object["generation"] as? Int != nil)
        #expect(object["snapshot_fresh"] as? Bool == true)
    }

    @Test func usageErrorsNameTheBadFlagAndExitNonZero() throws {
        let scenario = Scenario()
        let typo = try scenario.timeline.run(["show", "--widht", "40"])
        #expect(typo.status == 64)
        #expect(typo.errors.contains("--widht"))
        let badValue = try scenario.timeline.run(["show", "--color", "sometimes"])
        #expect(badValue.status == 64)
        #expect(badValue.errors.contains("--color"))
        let help = try scenario.timeline.run(["show", "--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("Examples"))
    }
}
