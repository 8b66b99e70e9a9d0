import Foundation
import Testing

/// Every command that takes a message also takes the ID its server, its web page and other
/// clients show, and the post's web address (issue 23, item 6): `timeline thread
/// 112020325662720152` used to say "no message has the ID".
@Suite struct MessageReferenceCommandTests {
    /// A home synced from the loopback Mastodon server, and the newest status's stored ID, the
    /// server's ID and its web address.
    static func synced() throws -> (MastodonTestServer, EmptyHome, stored: String, serverID: String, url: String) {
        let server = try MastodonTestServer()
        let home = try NextStepTests.loggedIn(server)
        #expect(try home.timeline.run(["sync"]).status == 0)
        let line = try home.timeline.run(["show", "--format", "{id} {url}", "-n", "1"]).output
        let parts = line.split(separator: " ").map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
        let stored = parts[0]
        return (server, home, stored, String(stored.split(separator: "/").last!), parts[1])
    }

    @Test func threadTakesTheServersIDTheWebAddressAndTheHostAndIDAddress() throws {
        let (server, home, stored, serverID, url) = try Self.synced()
        let expected = try home.timeline.run(["thread", stored, "--json"]).output
        #expect(!expected.isEmpty)
        for reference in [serverID, url, "https://127.0.0.1:\(server.port)/@someone/\(serverID)"] {
            let thread = try home.timeline.run(["thread", reference, "--json"])
            #expect(thread.status == 0, "\(reference): \(thread.errors)")
            #expect(thread.output == expected, "\(reference)")
        }
        let unknown = try home.timeline.run(["thread", "999999999999999999"])
        #expect(unknown.status == 65)
        #expect(unknown.errors.contains("web address"), "\(unknown.errors)")
    }

    @Test func markReadShowBeforeAndReplyToTakeTheServersID() throws {
        let (server, home, stored, serverID, _) = try Self.synced()
        #expect(try home.timeline.run(["mark-read", "--unread", "--offline", serverID]).status == 0)
        #expect(try home.timeline.run(["show", "--json", "--from-db", "-n", "1"]).output.contains("\"read\":false"))
        #expect(try home.timeline.run(["mark-read", "--offline", serverID]).status == 0)
        #expect(try home.timeline.run(["show", "--json", "--from-db", "-n", "1"]).output.contains("\"read\":true"))

        let older = try home.timeline.run(["show", "--before", serverID, "-n", "1", "--format", "{id}"])
        #expect(older.status == 0, "\(older.errors)")
        #expect(!older.output.isEmpty && !older.output.contains(stored))

        let reply = try home.timeline.run(["post", "--reply-to", serverID, "--json", "agreed"])
        #expect(reply.status == 0, "\(reply.errors)")
        let replyID = try #require(reply.output.split(separator: "\"").dropFirst(3).first.map(String.init))
        let replyLine = try home.timeline.run(["thread", replyID, "--json"]).output.split(separator: "\n").first { $0.contains("\"id\":\"\(replyID)\"") }
        #expect(replyLine?.contains("\"reply_to\":\"\(stored)\"") == true, "\(replyLine ?? "")")
        _ = server
    }

    @Test func aServerIDThatTwoStoredMessagesShareIsAnErrorThatListsBoth() throws {
        let scenario = Scenario()
        let file = scenario.directory + "/two.jsonl"
        try """
        {"type":"user","id":"a.social/1","handle":"ann","name":"Ann"}
        {"type":"user","id":"b.social/1","handle":"bob","name":"Bob"}
        {"type":"message","id":"a.social/777","author":"a.social/1","text":"on a","created_at":"2026-11-16T12:00:00Z"}
        {"type":"message","id":"b.social/777","author":"b.social/1","text":"on b","created_at":"2026-11-16T12:01:00Z"}

        """.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try scenario.timeline.run(["import", file]).status == 0)
        for arguments in [["thread", "777"], ["mark-read", "777"], ["delete", "--local", "777"]] {
            let result = try scenario.timeline.run(arguments)
            #expect(result.status == 65, "\(arguments): \(result.errors)")
            #expect(result.errors.contains("a.social/777") && result.errors.contains("b.social/777"), "\(result.errors)")
        }
        #expect(try scenario.timeline.run(["thread", "b.social/777", "--json"]).output.contains("on b"))
    }

    @Test func blueskyPostsAreNamedByTheirWebAddressAnATURIWithAHandleAndTheirRecordKey() throws {
        let server = try BlueskyTestServer.start()
        let scenario = try BlueskyCommandTests.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        let line = try scenario.timeline.run(["show", "--format", "{id} {url} {handle}", "-n", "1"]).output
        let parts = line.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").map(String.init)
        let stored = parts[0]
        #expect(stored.hasPrefix("at://"))
        let recordKey = String(stored.split(separator: "/").last!)
        let handle = parts[2].hasPrefix("@") ? String(parts[2].dropFirst()) : parts[2]
        let expected = try scenario.timeline.run(["thread", stored, "--json"]).output
        for reference in [parts[1], "https://bsky.app/profile/\(handle)/post/\(recordKey)", "at://\(handle)/app.bsky.feed.post/\(recordKey)", recordKey] {
            let thread = try scenario.timeline.run(["thread", reference, "--json"])
            #expect(thread.status == 0, "\(reference): \(thread.errors)")
            #expect(thread.output == expected, "\(reference)")
        }
    }
}
