import Foundation
import Testing

/// `timeline delete` of your own post deletes it at the server, so the next sync does not
/// bring it back; anyone else's post is forgotten here only, and said so (issue 23, item 9).
@Suite struct DeleteAtServerTests {
    @Test func yourOwnMastodonPostIsDeletedAtTheServerAndStaysGoneAfterASync() throws {
        let server = try MastodonTestServer()
        let home = try NextStepTests.loggedIn(server)
        #expect(try home.timeline.run(["sync"]).status == 0)
        let posted = try home.timeline.run(["post", "--json", "to be deleted"])
        let id = try #require(posted.output.split(separator: "\"").dropFirst(3).first.map(String.init))
        let serverID = String(id.split(separator: "/").last!)

        // A script that does not say --yes is refused: deleting at a server cannot be undone.
        let unasked = try home.timeline.run(["delete", serverID])
        #expect(unasked.status == 64, "\(unasked.errors)")
        #expect(unasked.errors.contains("--yes"))

        let deleted = try home.timeline.run(["delete", "--yes", "--json", serverID])
        #expect(deleted.status == 0, "\(deleted.errors)")
        #expect(deleted.output == "{\"deleted\":1,\"deleted_at_server\":1}\n")
        let asked = try server.requests().filter { ($0["method"] as? String) == "DELETE" }
        #expect(asked.count == 1 && (asked.first?["path"] as? String) == "/api/v1/statuses/\(serverID)", "\(asked)")
        #expect(!(try server.state()["status_ids"] as? [String] ?? []).contains(serverID))
        #expect(try home.timeline.run(["sync"]).status == 0)
        #expect(try home.timeline.run(["thread", id]).status == 65, "the sync did not bring it back")
    }

    @Test func onATerminalDeletingYourPostAsksFirstAndNoKeepsIt() throws {
        let server = try MastodonTestServer()
        let home = try NextStepTests.loggedIn(server)
        let posted = try home.timeline.run(["post", "--json", "maybe deleted"])
        let id = try #require(posted.output.split(separator: "\"").dropFirst(3).first.map(String.init))
        let no = try home.timeline.runInTerminal(["delete", id], typing: "n\n")
        #expect(no.status == 1)
        #expect(no.errors.contains("at the server, for everyone? [y/N]") || no.output.contains("at the server, for everyone? [y/N]"), "\(no.output)\(no.errors)")
        #expect(try home.timeline.run(["thread", id]).status == 0)
        let yes = try home.timeline.runInTerminal(["delete", id], typing: "y\n")
        #expect(yes.status == 0, "\(yes.errors)")
        #expect(yes.output.contains("Deleted 1 post at the server and here."), "\(yes.output)")
    }

    @Test func someoneElsesPostIsForgottenHereOnlyAndTheMessageSaysSo() throws {
        let server = try MastodonTestServer()
        let home = try NextStepTests.loggedIn(server)
        #expect(try home.timeline.run(["sync"]).status == 0)
        let theirs = try #require(try home.timeline.run(["show", "--format", "{id} {handle}", "-n", "40"]).output
            .split(separator: "\n").first { !$0.hasSuffix("@tester") }.map { String($0.split(separator: " ")[0]) })
        let forgotten = try home.timeline.run(["delete", theirs])
        #expect(forgotten.status == 0, "\(forgotten.errors)")
        #expect(forgotten.output.contains("Forgot 1 message here only: other people's posts cannot be deleted at their servers"), "\(forgotten.output)")
        #expect(try server.requests().allSatisfy { ($0["method"] as? String) != "DELETE" })
    }

    @Test func localForgetsYourOwnPostHereOnly() throws {
        let server = try MastodonTestServer()
        let home = try NextStepTests.loggedIn(server)
        let posted = try home.timeline.run(["post", "--json", "kept at the server"])
        let id = try #require(posted.output.split(separator: "\"").dropFirst(3).first.map(String.init))
        let forgotten = try home.timeline.run(["delete", "--local", id])
        #expect(forgotten.output == "Forgot 1 message here only.\n", "\(forgotten.output)")
        #expect(try server.requests().allSatisfy { ($0["method"] as? String) != "DELETE" })
    }

    @Test func yourOwnBlueskyPostIsDeletedAtItsServer() throws {
        let server = try BlueskyTestServer.start()
        let scenario = try BlueskyCommandTests.loggedIn(to: server)
        let posted = try scenario.timeline.run(["post", "--json", "a post to delete"])
        let id = try #require(posted.output.split(separator: "\"").dropFirst(3).first.map(String.init))
        #expect(id.hasPrefix("at://"))
        let deleted = try scenario.timeline.run(["delete", "--yes", id])
        #expect(deleted.status == 0, "\(deleted.errors)")
        #expect(try server.state()["deleted"] as? [String] == [id])
        #expect(try scenario.timeline.run(["thread", id]).status == 65)
    }
}
